// The CUDA side of merge_sort / merge_sort_pairs (parprim/merge_sort.hpp), for nvcc only.
//
// A stable merge sort in the style of Green, McColl and Bader ("GPU merge path", 2012):
//   1. block sort   each block loads a tile of threads x items elements into shared memory;
//                   every thread sorts its `items` consecutive elements in registers
//                   (odd-even transposition: only strictly smaller elements move forward, so
//                   equal ones keep their order), then log2(threads) rounds of merges in
//                   shared memory double the sorted runs until the tile is one run;
//   2. partition    per merge pass, one warp (few boundaries) or one thread per tile boundary
//                   of the output finds, by a search along its cross diagonal (merge path),
//                   how many of the outputs before it come from the left run of its pair;
//   3. merge        one block per output tile loads the two slices of its pair that feed it
//                   into shared memory, each thread finds its own diagonal in them and merges
//                   `items` elements serially; the tile is written back coalesced.
// Ties always take the left run first, so every merge is stable. Values never take part in
// comparisons: each merged key carries the index it came from, and the value is gathered from
// that index when the tile is written. Passes ping-pong between the caller's arrays and one
// temporary copy; the block sort writes where the last pass must end.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "parprim/cuda/detail/merge_path_warp.cuh"
#include "parprim/merge_sort.hpp"

namespace parprim::cuda_merge {

// Launch shape (Hopper, sm_90): 256 threads; items per thread so that a tile of keys, values
// and 16-bit source indices fits the 48 KiB of static shared memory with room for two blocks
// per SM, and odd, so that threads reading `items` consecutive elements hit distinct banks.
struct merge_sort_tuning {
  static constexpr int threads = 256;
  static constexpr int items_4_bytes = 15;   // per element (key plus value) of <= 4 bytes
  static constexpr int items_8_bytes = 11;   // <= 8 bytes
  static constexpr int items_16_bytes = 7;   // <= 16 bytes
  static constexpr int items_32_bytes = 5;   // <= 32 bytes
  static constexpr int partition_threads = 128;
};

template <class K, class V, bool HasValues>
struct merge_shape {
  static constexpr int element_bytes = int(sizeof(K) + (HasValues ? sizeof(V) : 0));
  static constexpr int threads = merge_sort_tuning::threads;
  static constexpr int items = element_bytes <= 4    ? merge_sort_tuning::items_4_bytes
                               : element_bytes <= 8  ? merge_sort_tuning::items_8_bytes
                               : element_bytes <= 16 ? merge_sort_tuning::items_16_bytes
                               : element_bytes <= 32 ? merge_sort_tuning::items_32_bytes
                                                     : 2;
  static constexpr int tile = threads * items;
  // Shared memory: the keys, then (pairs) the values and the source indices of the tile.
  static constexpr int value_offset = (tile * int(sizeof(K)) + 15) / 16 * 16;
  static constexpr int index_offset = value_offset + (HasValues ? (tile * int(sizeof(V)) + 15) / 16 * 16 : 0);
  static constexpr int shared_bytes = index_offset + (HasValues ? tile * 2 : 0);
  static_assert(tile < (1 << 16), "16-bit source indices");
  static_assert(shared_bytes <= 48 * 1024,
                "merge_sort: keys plus values above 48 KiB per tile; use a smaller element");
};

// Serial stable merge of a[ai, a_end) and b[bi, b_end) (offsets into one shared array) into
// up to Items outputs: the key and where it came from.
template <int Items, class K, class Comp>
__device__ __forceinline__ void serial_merge(const K* s, int ai, int a_end, int bi, int b_end,
                                             int outputs, K (&out)[Items], int (&from)[Items],
                                             Comp comp) {
  K a = ai < a_end ? s[ai] : K{};
  K b = bi < b_end ? s[bi] : K{};
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    if (j < outputs) {
      const bool take_a = bi >= b_end || (ai < a_end && !comp(b, a));
      out[j] = take_a ? a : b;
      from[j] = take_a ? ai : bi;
      if (take_a) {
        ++ai;
        if (ai < a_end) a = s[ai];
      } else {
        ++bi;
        if (bi < b_end) b = s[bi];
      }
    }
  }
}

// Copies load(i) to dst[i] for i in [0, count), i = j * Threads + tid: every load of a thread
// is issued before its first store. A load-store loop keeps one load in flight per thread (a
// store may not pass a load made through a generic pointer, which could alias it), too few
// to cover DRAM latency at the occupancy of these kernels.
template <int Items, int Threads, class T, class Load>
__device__ __forceinline__ void stage_striped(T* dst, int count, Load load) {
  T r[Items];
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = j * Threads + int(threadIdx.x);
    if (i < count) r[j] = load(i);
  }
#pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int i = j * Threads + int(threadIdx.x);
    if (i < count) dst[i] = r[j];
  }
}

// ---- 1. Block sort ---------------------------------------------------------------------------
template <class K, class V, bool HasValues, class Comp>
__global__ void __launch_bounds__(merge_sort_tuning::threads)
    block_sort(const K* keys_in, const V* values_in, K* keys_out, V* values_out, std::int64_t n,
               Comp comp) {
  using shape = merge_shape<K, V, HasValues>;
  constexpr int threads = shape::threads, items = shape::items, tile = shape::tile;
  __shared__ alignas(16) unsigned char s_raw[shape::shared_bytes];
  K* s_keys = reinterpret_cast<K*>(s_raw);
  V* s_values = reinterpret_cast<V*>(s_raw + shape::value_offset);
  std::uint16_t* s_from = reinterpret_cast<std::uint16_t*>(s_raw + shape::index_offset);
  const int tid = threadIdx.x;
  const std::int64_t base = std::int64_t(blockIdx.x) * tile;
  const int count = int(min(std::int64_t(tile), n - base));

  // Load phase: coalesced into shared memory, then `items` consecutive elements per thread.
  stage_striped<items, threads>(s_keys, count, [&](int i) { return keys_in[base + i]; });
  if constexpr (HasValues)
    stage_striped<items, threads>(s_values, count, [&](int i) { return values_in[base + i]; });
  __syncthreads();
  const int first = tid * items;
  const int valid = max(0, min(items, count - first));
  K k[items];
  int from[items];
#pragma unroll
  for (int j = 0; j < items; ++j) {
    k[j] = j < valid ? s_keys[first + j] : K{};
    from[j] = first + j;
  }

  // Thread sort: odd-even transposition over the valid items; a swap only on strict order.
#pragma unroll
  for (int round = 0; round < items; ++round) {
#pragma unroll
    for (int j = round & 1; j + 1 < items; j += 2) {
      if (j + 1 < valid && comp(k[j + 1], k[j])) {
        const K t = k[j];
        k[j] = k[j + 1];
        k[j + 1] = t;
        const int f = from[j];
        from[j] = from[j + 1];
        from[j + 1] = f;
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < items; ++j) {
    if (j < valid) {
      s_keys[first + j] = k[j];
      if constexpr (HasValues) s_from[first + j] = std::uint16_t(from[j]);
    }
  }
  __syncthreads();

  // Merge phase: groups of `coop` threads merge two runs of coop / 2 * items elements.
#pragma unroll 1
  for (int coop = 2; coop <= threads; coop *= 2) {
    const int rank = tid & (coop - 1);
    const int start = (tid - rank) * items;
    const int a0 = min(start, count), a1 = min(start + coop / 2 * items, count);
    const int b1 = min(start + coop * items, count);
    const int total = b1 - a0;
    const int diag = min(rank * items, total);
    const int taken = int(merge_detail::merge_path(s_keys + a0, a1 - a0, s_keys + a1, b1 - a1,
                                                   diag, comp));
    const int outputs = min(items, total - diag);
    serial_merge<items>(s_keys, a0 + taken, a1, a1 + diag - taken, b1, outputs, k, from, comp);
    int source[items];
    if constexpr (HasValues) {
#pragma unroll
      for (int j = 0; j < items; ++j) source[j] = j < outputs ? s_from[from[j]] : 0;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < items; ++j) {
      if (j < outputs) {
        s_keys[a0 + diag + j] = k[j];
        if constexpr (HasValues) s_from[a0 + diag + j] = std::uint16_t(source[j]);
      }
    }
    __syncthreads();
  }

  // Store phase: coalesced; values follow their keys' source positions in the tile.
  for (int i = tid; i < count; i += threads) {
    keys_out[base + i] = s_keys[i];
    if constexpr (HasValues) values_out[base + i] = s_values[s_from[i]];
  }
}

// ---- 2. Partition ----------------------------------------------------------------------------
// split[t] = how many of the outputs of tile t's pair before tile t's first output come from
// the pair's left run (tiles never straddle pairs: the run width is a multiple of the tile).
template <class K, class Comp>
__global__ void __launch_bounds__(merge_sort_tuning::partition_threads)
    merge_partition(const K* keys, std::int64_t n, std::int64_t width, std::int64_t tile,
                    std::int64_t boundaries, std::int64_t* split, Comp comp, bool by_warp) {
  const std::int64_t t = cuda_prim::partition_boundary(by_warp);
  if (t >= boundaries) return;  // whole warps when by_warp
  const std::int64_t out = min(t * tile, n);
  const std::int64_t pair = out / (2 * width) * (2 * width);
  const std::int64_t a1 = min(pair + width, n), b1 = min(pair + 2 * width, n);
  const std::int64_t taken = cuda_prim::merge_path_split(keys + pair, a1 - pair, keys + a1, b1 - a1,
                                                         out - pair, comp, by_warp);
  if (cuda_prim::stores_split(by_warp)) split[t] = taken;
}

// ---- 3. Merge --------------------------------------------------------------------------------
// One output tile of a stable merge: the na keys from a_keys[a0] on and the total - na from
// b_keys[b0] on (with their values) into keys_out[out0, out0 + total). Shared by merge_sort's
// passes (both slices in one array) and by parprim::merge (two arrays, parprim/cuda/merge.cuh).
template <class K, class V, bool HasValues, class Comp>
__device__ __forceinline__ void merge_tile(unsigned char* s_raw, const K* a_keys, const V* a_values,
                                           std::int64_t a0, int na, const K* b_keys,
                                           const V* b_values, std::int64_t b0, int total,
                                           K* keys_out, V* values_out, std::int64_t out0,
                                           Comp comp) {
  using shape = merge_shape<K, V, HasValues>;
  constexpr int threads = shape::threads, items = shape::items;
  K* s_keys = reinterpret_cast<K*>(s_raw);
  std::uint16_t* s_from = reinterpret_cast<std::uint16_t*>(s_raw + shape::index_offset);
  const int tid = threadIdx.x;

  // Load phase: the left slice then the right one, side by side in shared memory.
  stage_striped<items, threads>(
      s_keys, total, [&](int i) { return *(i < na ? a_keys + (a0 + i) : b_keys + (b0 + (i - na))); });
  __syncthreads();

  const int diag = min(tid * items, total);
  const int taken = int(merge_detail::merge_path(s_keys, na, s_keys + na, total - na, diag, comp));
  const int outputs = min(items, total - diag);
  K k[items];
  int from[items];
  serial_merge<items>(s_keys, taken, na, na + diag - taken, total, outputs, k, from, comp);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < items; ++j) {
    if (j < outputs) {
      s_keys[diag + j] = k[j];
      if constexpr (HasValues) s_from[diag + j] = std::uint16_t(from[j]);
    }
  }
  __syncthreads();

  // Store phase: coalesced keys; each value gathered from the position its key came from,
  // all of a thread's gathers in flight before its first store.
  for (int i = tid; i < total; i += threads) keys_out[out0 + i] = s_keys[i];
  if constexpr (HasValues) {
    V v[items];
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int i = j * threads + tid;
      if (i < total) {
        const int f = s_from[i];
        v[j] = *(f < na ? a_values + (a0 + f) : b_values + (b0 + (f - na)));
      }
    }
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int i = j * threads + tid;
      if (i < total) values_out[out0 + i] = v[j];
    }
  }
}

template <class K, class V, bool HasValues, class Comp>
__global__ void __launch_bounds__(merge_sort_tuning::threads)
    merge_pass(const K* keys_in, const V* values_in, K* keys_out, V* values_out, std::int64_t n,
               std::int64_t width, const std::int64_t* split, Comp comp) {
  using shape = merge_shape<K, V, HasValues>;
  __shared__ alignas(16) unsigned char s_raw[shape::shared_bytes];
  const std::int64_t out0 = std::int64_t(blockIdx.x) * shape::tile;
  const std::int64_t out1 = min(out0 + shape::tile, n);
  const std::int64_t pair = out0 / (2 * width) * (2 * width);
  const std::int64_t a_end = min(pair + width, n), b_end = min(pair + 2 * width, n);
  // This tile's slices: [a0, a1) of the left run and the next out1 - out0 - (a1 - a0) keys of
  // the right one from b0.
  const std::int64_t a0 = pair + split[blockIdx.x];
  const std::int64_t b0 = a_end + (out0 - pair - split[blockIdx.x]);
  const std::int64_t a1 = out1 == b_end ? a_end : pair + split[blockIdx.x + 1];
  merge_tile<K, V, HasValues>(s_raw, keys_in, values_in, a0, int(a1 - a0), keys_in, values_in, b0,
                              int(out1 - out0), keys_out, values_out, out0, comp);
}

inline void check_launch(const context& ctx, const char* who) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    merge_detail::fail(ctx, who, std::string("kernel launch failed: ") + cudaGetErrorString(e),
                       errc::device_error);
}

// ---- Host side -------------------------------------------------------------------------------
template <class K, class V, bool HasValues, class Comp>
void merge_sort(const context& ctx, K* keys, V* values, std::int64_t n, Comp comp, workspace* ws) {
  using shape = merge_shape<K, V, HasValues>;
  const char* who = HasValues ? "merge_sort_pairs" : "merge_sort";
  const cudaError_t set = cudaSetDevice(ctx.device());
  if (set != cudaSuccess)
    merge_detail::fail(ctx, who, std::string("cudaSetDevice: ") + cudaGetErrorString(set), errc::device_error);
  cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  const std::int64_t tiles = (n + shape::tile - 1) / shape::tile;
  int passes = 0;
  for (std::int64_t width = shape::tile; width < n; width *= 2) ++passes;

  using detail::align_up;
  const std::size_t key_bytes = align_up(std::size_t(n) * sizeof(K));
  const std::size_t value_bytes = HasValues ? align_up(std::size_t(n) * sizeof(V)) : 0;
  const std::size_t split_bytes = std::size_t(tiles + 1) * sizeof(std::int64_t);
  detail::temp_memory temp(ctx, ws, key_bytes + value_bytes + split_bytes);
  K* keys_tmp = temp.as<K>();
  V* values_tmp = HasValues ? reinterpret_cast<V*>(temp.as<unsigned char>() + key_bytes) : nullptr;
  auto* split = reinterpret_cast<std::int64_t*>(temp.as<unsigned char>() + key_bytes + value_bytes);

  // The block sort writes where an even number of passes later the result is the caller's.
  K* src_k = passes % 2 ? keys_tmp : keys;
  V* src_v = passes % 2 ? values_tmp : values;
  K* dst_k = passes % 2 ? keys : keys_tmp;
  V* dst_v = passes % 2 ? values : values_tmp;
  block_sort<K, V, HasValues><<<unsigned(tiles), shape::threads, 0, stream>>>(keys, values, src_k, src_v, n, comp);
  check_launch(ctx, who);
  constexpr int pt = merge_sort_tuning::partition_threads;
  const cuda_prim::partition_launch search = cuda_prim::partition_shape(tiles + 1, pt);
  for (std::int64_t width = shape::tile; width < n; width *= 2) {
    merge_partition<K><<<search.blocks, pt, 0, stream>>>(src_k, n, width, shape::tile, tiles + 1,
                                                         split, comp, search.by_warp);
    check_launch(ctx, who);
    merge_pass<K, V, HasValues><<<unsigned(tiles), shape::threads, 0, stream>>>(
        src_k, src_v, dst_k, dst_v, n, width, split, comp);
    check_launch(ctx, who);
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
}

}  // namespace parprim::cuda_merge

namespace parprim::detail {

template <>
struct cuda_body<merge_sort_tag, true> {
  template <bool HasValues, class K, class V, class Comp>
  static void run(const context& ctx, const char*, std::bool_constant<HasValues>, K* keys,
                  V* values, std::int64_t n, Comp comp, workspace* ws) {
    cuda_merge::merge_sort<K, V, HasValues>(ctx, keys, values, n, comp, ws);
  }
};

}  // namespace parprim::detail
