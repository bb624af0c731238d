// Merge of two sorted ranges by merge path (Green, McColl & Bader, "GPU Merge Path", ICS 2012;
// the tile structure follows moderngpu's merge).
//
//   1. partition: for every tile boundary d = t * tile of the output, the number of the first
//      d outputs that come from a (one binary search along the cross diagonal, in global
//      memory);
//   2. merge: each block loads its tile's stretch of a and of b into shared memory (coalesced,
//      as ordered images: sort_keys.hpp), each thread finds its own start on the tile's merge
//      path (a binary search in shared memory) and merges `items` outputs sequentially; keys,
//      then values (gathered by the source positions), leave through shared memory in
//      coalesced stores.
// Every output is read once and written once. Ties take a first, so the merge is stable.
//
// Unsorted inputs. While its stretches sit in shared memory each block checks every adjacent
// pair it holds (and the pair across its start) and records the lowest unsorted position;
// the host raises it at synchronize. Splits from unsorted inputs need not be monotone, so a
// block clamps its stretches to the ranges and to its tile: it may leave outputs unwritten
// but never touches memory outside a, b and out.
#pragma once

#include <cstdint>

#include "core/merge_path.hpp"
#include "cuda/tuning/merge_tuning.hpp"

namespace parprim::cuda_kernels::merging {

using tuning = cuda_tuning::merge_tuning;

template <class U>
__global__ void partition_kernel(const U* a, std::int64_t na, const U* b, std::int64_t nb,
                                 std::int64_t tiles, std::int64_t* splits,
                                 detail::key_order<U> ord) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::int64_t diag = t * tuning::tile < na + nb ? t * tuning::tile : na + nb;
  splits[t] = detail::merge_path(a, na, b, nb, diag, ord);
}

template <class U, class W>
struct merge_args {
  const U* a;
  const W* a_values;
  std::int64_t na;
  const U* b;
  const W* b_values;
  std::int64_t nb;
  U* out;
  W* out_values;
  const std::int64_t* splits;
  unsigned long long* unsorted_a;  // lowest p with a[p+1] before a[p] (atomicMin)
  unsigned long long* unsorted_b;
  detail::key_order<U> ord;
};

__device__ __forceinline__ std::int64_t clamp64(std::int64_t x, std::int64_t lo, std::int64_t hi) {
  return x < lo ? lo : (x > hi ? hi : x);
}

// Records the lowest unsorted adjacent pair of x[first - 1 .. first + count) (x[first - 1]
// only when first > 0); s holds the ordered images of x[first .. first + count).
template <class U>
__device__ void check_sorted(const U* x, const U* s, std::int64_t first, int count,
                             detail::key_order<U> ord, unsigned long long* word) {
  for (int k = threadIdx.x; k + 1 < count; k += tuning::threads)
    if (s[k + 1] < s[k]) atomicMin(word, static_cast<unsigned long long>(first + k));
  if (threadIdx.x == 0 && first > 0 && count > 0 &&
      s[0] < detail::ordered_bits(x[first - 1], ord.kind, ord.descending))
    atomicMin(word, static_cast<unsigned long long>(first - 1));
}

// Writes the tile held in shared memory to out[0, total), coalesced.
template <class T>
__device__ __forceinline__ void store_tile(const T* staged, T* out, int total) {
#pragma unroll
  for (int j = 0; j < tuning::items; ++j) {
    const int k = j * tuning::threads + int(threadIdx.x);
    if (k < total) out[k] = staged[k];
  }
}

// How many of the first `diag` outputs of the tile's merge come from a's stretch (keys[0,
// count_a)), b's stretch being keys[count_a, total). The stretches hold ordered images, so one
// unsigned compare; 32-bit indices keep the search within few registers.
template <class U>
__device__ __forceinline__ int tile_merge_path(const U* keys, int count_a, int total, int diag) {
  const int count_b = total - count_a;
  int lo = diag > count_b ? diag - count_b : 0;
  int hi = diag < count_a ? diag : count_a;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (!(keys[count_a + diag - 1 - mid] < keys[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Keys-only merges instantiate W = U with WithValues false: no source positions are kept, so
// the kernel fits the register budget of tuning::min_blocks (ptxas figures there).
template <class U, class W, bool WithValues>
__global__ void __launch_bounds__(tuning::threads,
                                  tuning::min_blocks(int(sizeof(U)), WithValues ? int(sizeof(W)) : 0))
    merge_kernel(merge_args<U, W> p) {
  constexpr int threads = tuning::threads, items = tuning::items, tile = tuning::tile;
  constexpr int word = WithValues && sizeof(W) > sizeof(U) ? int(sizeof(W)) : int(sizeof(U));
  // One buffer: the stretches of a and b, then the merged keys, then the merged values.
  __shared__ alignas(16) unsigned char staged[tile * word];
  U* keys = reinterpret_cast<U*>(staged);
  const int tid = int(threadIdx.x);
  const std::int64_t n = p.na + p.nb;
  const std::int64_t d0 = std::int64_t(blockIdx.x) * tile;
  const int size = n - d0 < tile ? int(n - d0) : tile;
  const std::int64_t a0 = clamp64(p.splits[blockIdx.x], 0, p.na);
  const std::int64_t a1 = clamp64(p.splits[blockIdx.x + 1], a0, p.na);
  const std::int64_t b0 = clamp64(d0 - a0, 0, p.nb);
  const int count_a = int(a1 - a0 < size ? a1 - a0 : size);
  const int count_b = int(clamp64(size - count_a, 0, p.nb - b0));
  const int total = count_a + count_b;

  // Load: a's stretch, then b's, side by side. All `items` loads of a thread are issued before
  // the first shared store (a store to shared memory may not pass a load through a generic
  // pointer, so a load-store loop keeps one load in flight per thread). Each load reads
  // through one selected pointer, so it is one instruction whichever side it falls on. Keys
  // are kept as their ordered images, so every comparison below is one unsigned compare.
  const U* from_a = p.a + a0;
  const U* from_b = p.b + b0;
  U r[items];
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const int k = j * threads + tid;
    if (k < total) r[j] = __ldg(k < count_a ? from_a + k : from_b + (k - count_a));
  }
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const int k = j * threads + tid;
    if (k < total) keys[k] = detail::ordered_bits(r[j], p.ord.kind, p.ord.descending);
  }
  __syncthreads();
  check_sorted(p.a, keys, a0, count_a, p.ord, p.unsorted_a);
  check_sorted(p.b, keys + count_a, b0, count_b, p.ord, p.unsorted_b);

  // Merge this thread's `items` outputs (and, with values, where each came from); the next key
  // of each side waits in a register, so each output costs one shared load.
  const int diag = tid * items;
  U merged[items];
  int source[WithValues ? items : 1];  // index into keys[]: a's stretch first, then b's
  if (diag < total) {
    int i = tile_merge_path(keys, count_a, total, diag);
    int j = count_a + diag - i;
    U ka = i < count_a ? keys[i] : U(0);
    U kb = j < total ? keys[j] : U(0);
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const bool take_b = i >= count_a || (j < total && kb < ka);
      merged[k] = take_b ? kb : ka;
      if constexpr (WithValues) source[k] = take_b ? j : i;
      if (take_b) {
        ++j;
        if (j < total) kb = keys[j];
      } else {
        ++i;
        if (i < count_a) ka = keys[i];
      }
    }
  }
  __syncthreads();  // every read of the stretches is done: reuse the buffer for the output tile

#pragma unroll
  for (int k = 0; k < items; ++k)
    if (diag + k < total)
      keys[diag + k] = detail::original_bits(merged[k], p.ord.kind, p.ord.descending);
  __syncthreads();
  store_tile(keys, p.out + d0, total);
  if constexpr (WithValues) {
    // Values: gathered straight from the inputs, all loads in flight together.
    W vals[items];
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (diag + k < total) {
        const int s = source[k];
        vals[k] = __ldg(s < count_a ? p.a_values + a0 + s : p.b_values + b0 + (s - count_a));
      }
    W* values = reinterpret_cast<W*>(staged);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (diag + k < total) values[diag + k] = vals[k];
    __syncthreads();
    store_tile(values, p.out_values + d0, total);
  }
}

}  // namespace parprim::cuda_kernels::merging
