// Merge of two sorted ranges by merge path (Green, McColl & Bader, "GPU Merge Path", ICS 2012;
// the tile structure follows moderngpu's merge).
//
//   1. partition: for every tile boundary d = t * tile of the output, the number of the first
//      d outputs that come from a (a search along the cross diagonal in global memory, by a
//      warp while there are few boundaries: parprim/cuda/detail/merge_path_warp.cuh);
//   2. merge: each block loads its tile's stretch of a and of b into shared memory (coalesced,
//      as ordered images: sort_keys.hpp), each thread finds its own start on the tile's merge
//      path (a binary search in shared memory) and merges `items` outputs sequentially; the
//      keys leave through shared memory in coalesced 16-byte stores; with values, each merged
//      key's source position goes to shared memory as it is merged, and the values are
//      gathered by those positions and stored straight to global memory, coalesced.
// Every output is read once and written once. Ties take a first, so the merge is stable.
//
// Unsorted inputs. Each thread compares every key it reads in its serial merge with the one it
// read before from the same side, and checks that its merge ends where the next thread's search
// starts. With sorted stretches both always hold, and when both hold every adjacent pair of the
// stretches has been compared by some thread; so only a block where one fails runs the full
// check of every adjacent pair it holds, and records the lowest unsorted position; the pairs
// across the tile boundaries are checked by the partition. The host raises the lowest at
// synchronize. Splits from
// unsorted inputs need not be monotone, so a block clamps its stretches to the ranges and to
// its tile: it may leave outputs unwritten but never touches memory outside a, b and out.
#pragma once

#include <cstdint>

#include "core/merge_path.hpp"
#include "cuda/tuning/merge_tuning.hpp"
#include "parprim/cuda/detail/merge_path_warp.cuh"

namespace parprim::cuda_kernels::merging {

using tuning = cuda_tuning::merge_tuning;

// Records x[first - 1] before x[first] as unsorted (first within (0, n)).
template <class U>
__device__ void check_pair_at(const U* x, std::int64_t n, std::int64_t first,
                              detail::key_order<U> ord, unsigned long long* word) {
  if (first > 0 && first < n && ord.less(x[first], x[first - 1]))
    atomicMin(word, static_cast<unsigned long long>(first - 1));
}

// Splits of the tile boundaries; the searcher of each (lane 0 of its warp when by_warp) also
// checks the pairs of a and of b across it, which no merge block holds both halves of.
template <class U>
__global__ void __launch_bounds__(tuning::partition_threads)
    partition_kernel(const U* a, std::int64_t na, const U* b, std::int64_t nb, int tile,
                     std::int64_t tiles, std::int64_t* splits, detail::key_order<U> ord,
                     unsigned long long* unsorted_a, unsigned long long* unsorted_b, bool by_warp) {
  const std::int64_t t = cuda_prim::partition_boundary(by_warp);
  if (t > tiles) return;  // whole warps when by_warp
  const std::int64_t diag = t * tile < na + nb ? t * tile : na + nb;
  const std::int64_t split = cuda_prim::merge_path_split(a, na, b, nb, diag, ord, by_warp);
  if (!cuda_prim::stores_split(by_warp)) return;
  splits[t] = split;
  check_pair_at(a, na, split, ord, unsorted_a);
  check_pair_at(b, nb, diag - split, ord, unsorted_b);
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

// Records the lowest unsorted adjacent pair of x[first, first + count), whose ordered images
// s holds.
template <int Threads, class U>
__device__ void check_stretch(const U* s, std::int64_t first, int count, unsigned long long* word) {
  for (int k = int(threadIdx.x); k + 1 < count; k += Threads)
    if (s[k + 1] < s[k]) atomicMin(word, static_cast<unsigned long long>(first + k));
}

// Stages a's stretch, then b's, side by side in shared memory as ordered images, so that every
// comparison below is one unsigned compare. All `items` loads of a thread are issued before the
// first shared store (a store to shared memory may not pass a load through a generic pointer,
// so a load-store loop keeps one load in flight per thread). Each load reads through one
// selected base, so it is one instruction whichever side it falls on. Full tiles (every block
// but the last) skip the bounds checks.
template <class Shape, bool Full, class U>
__device__ __forceinline__ void stage_stretches(U* keys, const U* from_a, int count_a,
                                                const U* from_b, int total,
                                                detail::key_order<U> ord) {
  // Addresses: each thread's element j lies at a fixed offset j * threads from one of two
  // bases (b's moved back by count_a), so a load is one of two predicated instructions with
  // an immediate offset and no 64-bit arithmetic.
  const std::uintptr_t base_a = reinterpret_cast<std::uintptr_t>(from_a + threadIdx.x);
  const std::uintptr_t base_b = reinterpret_cast<std::uintptr_t>(from_b + threadIdx.x) -
                                std::uintptr_t(count_a) * sizeof(U);
  U r[Shape::items];
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    const int k = j * Shape::threads + int(threadIdx.x);
    const std::uintptr_t offset = std::uintptr_t(j) * Shape::threads * sizeof(U);
    if (k < count_a) r[j] = __ldg(reinterpret_cast<const U*>(base_a + offset));
    else if (Full || k < total) r[j] = __ldg(reinterpret_cast<const U*>(base_b + offset));
  }
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    const int k = j * Shape::threads + int(threadIdx.x);
    if (Full || k < total) keys[k] = detail::ordered_bits(r[j], ord.kind, ord.descending);
  }
}

// Writes the tile held in shared memory to out[0, total), coalesced: in 16-byte stores when out
// is 16-byte aligned (a quarter of the store instructions; every tile's start is aligned when
// the output's is, a tile being a multiple of 16 bytes), the rest one element at a time.
template <int Threads, class T>
__device__ __forceinline__ void store_tile(const T* staged, T* out, int total) {
  constexpr int per_vector = 16 / int(sizeof(T));
  int scalar_from = 0;
  if ((reinterpret_cast<std::uintptr_t>(out) & 15) == 0) {
    const int vectors = total / per_vector;
    const uint4* src = reinterpret_cast<const uint4*>(staged);
    uint4* dst = reinterpret_cast<uint4*>(out);
    for (int v = int(threadIdx.x); v < vectors; v += Threads) dst[v] = src[v];
    scalar_from = vectors * per_vector;
  }
  for (int k = scalar_from + int(threadIdx.x); k < total; k += Threads) out[k] = staged[k];
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

// The serial merge of one thread's Items outputs from merge-path position `diag` (< total) of
// the staged stretches: merged[] gets the keys, source[diag + k] (with values) the stretch
// position each came from; `start` is where a's side began and `a_end` where it ended. The next
// key of each side waits in a register, so each output costs one shared load, and each key
// read is compared with the one before it (`unsorted` set on a descent).
template <bool WithValues, int Items, class U>
__device__ __forceinline__ void merge_items(const U* keys, int count_a, int total, int diag,
                                            U (&merged)[Items], std::uint16_t* source,
                                            bool& unsorted, int& start, int& a_end) {
  int i = start = tile_merge_path(keys, count_a, total, diag);
  int j = count_a + diag - i;
  U ka = i < count_a ? keys[i] : U(0);
  U kb = j < total ? keys[j] : U(0);
  // Branch-free steps (the lanes of a warp take different sides): the key after the one
  // taken is loaded whether or not its side has one (a side that has run out is never taken
  // again, so that key is never used; past the stretches, b runs out first, within Items).
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const bool take_b = i >= count_a || (j < total && kb < ka);
    merged[k] = take_b ? kb : ka;
    if constexpr (WithValues)
      if (diag + k < total) source[diag + k] = std::uint16_t(take_b ? j : i);
    i += take_b ? 0 : 1;
    j += take_b ? 1 : 0;
    const int at = take_b ? j : i;
    const bool more = take_b ? j < total : i < count_a;
    const U next = keys[at];
    unsorted |= more && next < merged[k];
    ka = take_b ? ka : next;
    kb = take_b ? next : kb;
  }
  a_end = i;
}

// Keys-only merges instantiate W = U with WithValues false. MinBlocks: tuning::resident_threads
// over the block size (ptxas figures in the tuning header).
template <class Shape, int MinBlocks, class U, class W, bool WithValues>
__global__ void __launch_bounds__(Shape::threads, MinBlocks) merge_kernel(merge_args<U, W> p) {
  constexpr int threads = Shape::threads, items = Shape::items, tile = Shape::tile;
  static_assert(tile * sizeof(U) % 16 == 0 && tile <= 65536, "16-byte tiles, 16-bit positions");
  // The stretches of a and b, then the merged keys; with values, where each merged key came
  // from (an index into the stretches). The serial merge may read up to `items` keys past the
  // stretches (never used), so those slots exist.
  __shared__ alignas(16) U keys[tile + items];
  __shared__ std::uint16_t source[WithValues ? tile : 1];
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

  if (total == tile) stage_stretches<Shape, true>(keys, p.a + a0, count_a, p.b + b0, total, p.ord);
  else stage_stretches<Shape, false>(keys, p.a + a0, count_a, p.b + b0, total, p.ord);
  __syncthreads();

  const int diag = tid * items;
  U merged[items];
  bool unsorted = false;
  int start = 0, i = 0;
  if (diag < total)
    merge_items<WithValues>(keys, count_a, total, diag, merged, source, unsorted, start, i);
  // Where the next thread starts: the next lane's search, searched again at a warp's last lane.
  const int next_start = __shfl_down_sync(0xffffffffu, start, 1);
  if (diag + items < total)
    unsorted |= i != ((tid & 31) == 31 ? tile_merge_path(keys, count_a, total, diag + items) : next_start);
  // Every read of the stretches is done once all threads pass here: reuse them for the output.
  if (__syncthreads_or(unsorted)) {
    check_stretch<threads>(keys, a0, count_a, p.unsorted_a);
    check_stretch<threads>(keys + count_a, b0, count_b, p.unsorted_b);
    __syncthreads();
  }

#pragma unroll
  for (int k = 0; k < items; ++k)
    if (diag + k < total)
      keys[diag + k] = detail::original_bits(merged[k], p.ord.kind, p.ord.descending);
  __syncthreads();
  store_tile<threads>(keys, p.out + d0, total);
  if constexpr (WithValues) {
    // Values: gathered by source position in the striped order of the output, so that a
    // warp's loads fall on few lines and its stores are coalesced; all loads in flight first.
    W vals[items];
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int k = j * threads + tid;
      if (k < total) {
        const int s = source[k];
        vals[j] = __ldg(s < count_a ? p.a_values + a0 + s : p.b_values + b0 + (s - count_a));
      }
    }
#pragma unroll
    for (int j = 0; j < items; ++j) {
      const int k = j * threads + tid;
      if (k < total) p.out_values[d0 + k] = vals[j];
    }
  }
}

}  // namespace parprim::cuda_kernels::merging
