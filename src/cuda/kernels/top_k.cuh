// Radix select for top_k: the k-th smallest selection image t (the image of sort_keys.hpp,
// inverted for the k largest), found one 8-bit digit per pass from the most significant, then
// a stable compaction of the elements below t and the first `remaining` equal to t.
//
//   histogram_kernel  digit histogram of the elements whose higher digits match the prefix
//                     found so far (256 shared-memory bins per block, one global atomic per
//                     non-empty bin and block);
//   pick_digit_kernel one block: scans the 256 counts, extends the prefix by the digit that
//                     holds the k-th element, updates `remaining`, clears the histogram;
//   count_kernel      per tile, elements below t and equal to t;
//   scan_counts_kernel one block: exclusive scan of the tile counts in tile order;
//   place_kernel      per tile: each thread's position from the tile prefix and a block
//                     scan of the per-thread counts, then the writes (input order).
// Everything stays on the device: no host round trip between passes. Passes read n keys
// each: 4 (u32) or 8 (u64) histogram passes, then 2 for the compaction.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"
#include "core/sort_keys.hpp"
#include "parprim/cuda/detail/block_scan.cuh"
#include "cuda/tuning/top_k_tuning.hpp"

namespace parprim::cuda_kernels::top_k {

using tuning = cuda_tuning::top_k_tuning;

template <class U>
struct select_state {
  U prefix;
  U mask;
  long long remaining;
};

struct counts {
  unsigned long long less;
  unsigned long long equal;
};

struct counts_plus {
  __device__ __forceinline__ counts operator()(counts a, counts b) const {
    return {a.less + b.less, a.equal + b.equal};
  }
  __device__ __forceinline__ static counts identity() { return {0, 0}; }
};

template <class U>
__global__ void __launch_bounds__(tuning::threads)
    histogram_kernel(const U* in, std::int64_t n, detail::key_kind kind, bool largest, int shift,
                     const select_state<U>* state, unsigned long long* hist) {
  __shared__ unsigned bins[256];
  for (int d = threadIdx.x; d < 256; d += blockDim.x) bins[d] = 0;
  __syncthreads();
  const U prefix = state->prefix, mask = state->mask;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const U s = detail::ordered_bits(in[i], kind, largest);
    if ((s & mask) == prefix) atomicAdd(&bins[(s >> shift) & 255], 1u);
  }
  __syncthreads();
  for (int d = threadIdx.x; d < 256; d += blockDim.x)
    if (bins[d]) atomicAdd(&hist[d], static_cast<unsigned long long>(bins[d]));
}

struct ull_plus {
  __device__ __forceinline__ unsigned long long operator()(unsigned long long a,
                                                           unsigned long long b) const {
    return a + b;
  }
  __device__ __forceinline__ static unsigned long long identity() { return 0; }
};

template <class U>
__global__ void __launch_bounds__(256)
    pick_digit_kernel(select_state<U>* state, unsigned long long* hist, int shift) {
  using scan = cuda_prim::block_scan<unsigned long long, ull_plus, 256>;
  __shared__ typename scan::storage s;
  const int d = threadIdx.x;
  const unsigned long long count = hist[d];
  unsigned long long inclusive, exclusive, total;
  scan::scan(s, count, ull_plus{}, inclusive, exclusive, total);
  const unsigned long long remaining = static_cast<unsigned long long>(state->remaining);
  __syncthreads();  // every thread has read state before the chosen one updates it
  if (exclusive < remaining && remaining <= inclusive) {
    state->prefix |= U(d) << shift;
    state->mask |= U(255) << shift;
    state->remaining = static_cast<long long>(remaining - exclusive);
  }
  hist[d] = 0;
}

// Below / equal to the threshold, one element.
template <class U>
__device__ __forceinline__ counts classify(U raw, detail::key_kind kind, bool largest, U t) {
  const U s = detail::ordered_bits(raw, kind, largest);
  return {s < t ? 1ull : 0ull, s == t ? 1ull : 0ull};
}

// This thread's counts over its `items` consecutive elements of the tile.
template <class U>
__device__ __forceinline__ counts thread_counts(const U* in, std::int64_t n, std::int64_t first,
                                                detail::key_kind kind, bool largest, U t) {
  counts c{0, 0};
  for (int j = 0; j < tuning::items; ++j)
    if (first + j < n) c = counts_plus{}(c, classify(in[first + j], kind, largest, t));
  return c;
}

template <class U>
__global__ void __launch_bounds__(tuning::threads)
    count_kernel(const U* in, std::int64_t n, detail::key_kind kind, bool largest,
                 const select_state<U>* state, counts* tile_counts) {
  using scan = cuda_prim::block_scan<counts, counts_plus, tuning::threads>;
  __shared__ typename scan::storage s;
  const std::int64_t first = std::int64_t(blockIdx.x) * tuning::tile + threadIdx.x * tuning::items;
  counts mine = thread_counts(in, n, first, kind, largest, state->prefix);
  counts inclusive, exclusive, total;
  scan::scan(s, mine, counts_plus{}, inclusive, exclusive, total);
  if (threadIdx.x == 0) tile_counts[blockIdx.x] = total;
}

// Exclusive scan of the tile counts in tile order, by one block.
__global__ void __launch_bounds__(tuning::scan_threads)
    scan_counts_kernel(counts* tile_counts, std::int64_t tiles) {
  using scan = cuda_prim::block_scan<counts, counts_plus, tuning::scan_threads>;
  __shared__ typename scan::storage s;
  counts carry{0, 0};
  for (std::int64_t base = 0; base < tiles; base += tuning::scan_threads) {
    const std::int64_t i = base + threadIdx.x;
    const counts mine = i < tiles ? tile_counts[i] : counts{0, 0};
    counts inclusive, exclusive, total;
    scan::scan(s, mine, counts_plus{}, inclusive, exclusive, total);
    if (i < tiles) tile_counts[i] = counts_plus{}(carry, exclusive);
    carry = counts_plus{}(carry, total);
    __syncthreads();
  }
}

template <class U, class W>
__global__ void __launch_bounds__(tuning::threads)
    place_kernel(const U* in, const W* values, std::int64_t n, detail::key_kind kind,
                 bool largest, const select_state<U>* state, const counts* tile_prefix, U* out,
                 W* out_values) {
  using scan = cuda_prim::block_scan<counts, counts_plus, tuning::threads>;
  __shared__ typename scan::storage s;
  const U t = state->prefix;
  const unsigned long long remaining = static_cast<unsigned long long>(state->remaining);
  const std::int64_t first = std::int64_t(blockIdx.x) * tuning::tile + threadIdx.x * tuning::items;
  counts mine = thread_counts(in, n, first, kind, largest, t);
  counts inclusive, exclusive, total;
  scan::scan(s, mine, counts_plus{}, inclusive, exclusive, total);
  counts before = counts_plus{}(tile_prefix[blockIdx.x], exclusive);
  if (mine.less == 0 && (mine.equal == 0 || before.equal >= remaining)) return;
  for (int j = 0; j < tuning::items; ++j) {
    const std::int64_t i = first + j;
    if (i >= n) break;
    const counts c = classify(in[i], kind, largest, t);
    long long pos = -1;
    if (c.less) pos = static_cast<long long>(before.less + (before.equal < remaining ? before.equal : remaining));
    else if (c.equal && before.equal < remaining) pos = static_cast<long long>(before.less + before.equal);
    before = counts_plus{}(before, c);
    if (pos >= 0) {
      out[pos] = in[i];
      if (out_values) out_values[pos] = values[i];
    }
  }
}

}  // namespace parprim::cuda_kernels::top_k
