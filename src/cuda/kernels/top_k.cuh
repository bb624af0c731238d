// Radix select for top_k: the k-th smallest selection image t (the image of sort_keys.hpp,
// inverted for the k largest), found one digit per pass from the most significant (a 12-bit
// first digit, then 8-bit digits), then a stable compaction of the elements below t and the
// first `remaining` equal to t.
//
//   first_histogram_kernel  histogram of the 12-bit top digit over all n (4096 shared bins);
//   pick_first_digit_kernel one block: the digit holding the k-th element, and the number of
//                     elements at or below it (the candidates: every chosen element is one);
//   candidate_pred    the copy_if predicate that keeps the candidates in input order, so that
//                     the later passes read a small fraction of n (top_k.cu);
//   histogram_kernel  digit histogram of the elements whose higher digits match the prefix
//                     found so far (256 shared-memory bins per block, one global atomic per
//                     non-empty bin and block);
//   pick_digit_kernel one block: scans the 256 counts, extends the prefix by the digit that
//                     holds the k-th element, updates `remaining`, clears the histogram;
//   count_kernel      per tile, elements below t and equal to t;
//   scan_counts_kernel one block: exclusive scan of the tile counts in tile order;
//   place_kernel      per tile: each thread's position from the tile prefix and a block
//                     scan of the per-thread counts, then the writes (input order).
// Above no_wait_max_bytes of keys, one host round trip after the first pass reads the candidate
// count (top_k.cu). Full
// passes over n: the first histogram and the candidate copy_if; the other passes read only the
// candidates (keys only) or the candidates and then n twice for the final compaction (pairs).
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
  long long candidates;  // elements whose first digit is at or below the chosen one
};

struct counts {
  unsigned long long less;
  unsigned long long equal;
};

struct counts_plus {
  __device__ __forceinline__ counts operator()(counts a, counts b) const {
    return {a.less + b.less, a.equal + b.equal};
  }
  __host__ __device__ __forceinline__ static counts identity() { return {0, 0}; }
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

// The first pass: no prefix to match yet, and a wider digit. With 12 bits a float's sign,
// exponent and 3 mantissa bits form the digit, so uniform data in [0, 1) leaves 1/16 of n or
// less as candidates (8 bits: 1/2, since the top octave alone holds half the values).
template <class U>
__global__ void __launch_bounds__(tuning::threads)
    first_histogram_kernel(const U* in, std::int64_t n, detail::key_kind kind, bool largest,
                           int shift, unsigned long long* hist) {
  __shared__ unsigned bins[tuning::first_bins];
  for (int d = threadIdx.x; d < tuning::first_bins; d += blockDim.x) bins[d] = 0;
  __syncthreads();
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    atomicAdd(&bins[detail::ordered_bits(in[i], kind, largest) >> shift], 1u);
  __syncthreads();
  for (int d = threadIdx.x; d < tuning::first_bins; d += blockDim.x)
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

// One block of 256 threads, each owning first_bins / 256 consecutive bins: a scan of the
// per-thread sums, then the owner of the bin that holds the k-th element writes the whole
// state (exactly one bin holds it: 1 <= k <= n).
// Clears the histogram for the 8-bit passes.
template <class U>
__global__ void __launch_bounds__(256)
    pick_first_digit_kernel(select_state<U>* state, unsigned long long* hist, int shift, long long k) {
  constexpr int per_thread = tuning::first_bins / 256;
  using scan = cuda_prim::block_scan<unsigned long long, ull_plus, 256>;
  __shared__ typename scan::storage s;
  const int first = threadIdx.x * per_thread;
  unsigned long long mine = 0;
  for (int j = 0; j < per_thread; ++j) mine += hist[first + j];
  unsigned long long inclusive, before, total;
  scan::scan(s, mine, ull_plus{}, inclusive, before, total);
  const unsigned long long remaining = static_cast<unsigned long long>(k);
  for (int j = 0; j < per_thread; ++j) {
    const unsigned long long count = hist[first + j];
    if (before < remaining && remaining <= before + count) {
      state->prefix = U(first + j) << shift;
      state->mask = U(tuning::first_bins - 1) << shift;
      state->remaining = static_cast<long long>(remaining - before);
      state->candidates = static_cast<long long>(before + count);
    }
    before += count;
    hist[first + j] = 0;
  }
}

// Keeps the elements whose first digit is at or below the chosen one: all the chosen elements
// and the rest of the chosen digit's bucket.
template <class U>
struct candidate_pred {
  detail::key_kind kind;
  bool largest;
  int shift;
  U digit;
  __device__ __forceinline__ bool operator()(U raw) const {
    return (detail::ordered_bits(raw, kind, largest) >> shift) <= digit;
  }
};

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
