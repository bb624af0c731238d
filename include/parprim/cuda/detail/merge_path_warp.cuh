// Merge path (Green, McColl & Bader, "GPU Merge Path", 2012) for the partition kernels of
// merge_sort, the generic merge and the precompiled merge: one search per tile boundary, by
// the 32 lanes of one warp while there are few boundaries, else by one thread.
//
// The split of cross diagonal `diag` of the stable merge of a[0, na) and b[0, nb) (ties take a
// first) is the first i with less(b[diag - 1 - i], a[i]). Each round the lanes test 32 evenly
// spaced i of the remaining range at once (the true tests are a prefix of the lanes: the test
// is monotone in i) and keep the gap where the answer lies, so a range of 2^k takes about
// k / 5 + 1 dependent rounds of loads instead of k. A partition kernel is a few warps of
// searches and nothing else, so its time is that chain of loads: on the H100 the one-thread
// search took 7.7-13 us per merge pass, 45% of merge_sort's time for 2^16 u64 keys
// (bench/results/2026-11-24-h100-merge-partition.md). With many boundaries the one-thread
// searches have parallelism enough and the warps' 32x loads cost more: merge_sort of u64 keys
// (2816-key tiles), ms, thread / warp searches: 2^16 (25 boundaries) 0.077 / 0.064, 2^20 (374)
// 0.163 / 0.136, 2^22 (1491) 0.584 / 0.523, 2^23 (2980) 1.022 / 0.996, 2^24 (5959) 1.937 /
// 1.997. Hence warps up to warp_search_max_boundaries.
#pragma once

#include <cstdint>

#include "parprim/detail/merge_path.hpp"  // the one-thread search

namespace parprim::cuda_prim {

constexpr std::int64_t warp_search_max_boundaries = 4096;

// How a partition kernel of `threads` threads per block is launched for `boundaries` searches.
struct partition_launch {
  unsigned blocks;
  bool by_warp;
};
inline partition_launch partition_shape(std::int64_t boundaries, int threads) {
  const bool by_warp = boundaries <= warp_search_max_boundaries;
  const std::int64_t searchers = by_warp ? boundaries * 32 : boundaries;
  return {unsigned((searchers + threads - 1) / threads), by_warp};
}

// The boundary this thread searches for (the same for the 32 lanes of a warp when by_warp).
__device__ __forceinline__ std::int64_t partition_boundary(bool by_warp) {
  const std::int64_t thread = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  return by_warp ? thread / 32 : thread;
}

// Whether this thread stores its boundary's split (one lane per warp when by_warp).
__device__ __forceinline__ bool stores_split(bool by_warp) { return !by_warp || (threadIdx.x & 31) == 0; }

// Every lane returns the split. All 32 lanes must call it with the same arguments.
template <class T, class Less>
__device__ __forceinline__ std::int64_t merge_path_by_warp(const T* a, std::int64_t na, const T* b,
                                                           std::int64_t nb, std::int64_t diag,
                                                           Less less) {
  const int lane = int(threadIdx.x & 31);
  std::int64_t lo = diag > nb ? diag - nb : 0;  // the answer lies in [lo, hi]
  std::int64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::int64_t len = hi - lo, step = (len + 31) / 32;
    const std::int64_t i = lo + lane * step;
    const bool before_answer = lane * step < len && !less(b[diag - 1 - i], a[i]);
    const int passed = __popc(__ballot_sync(0xffffffffu, before_answer));
    if (passed == 0) return lo;
    if (lo + passed * step < hi) hi = lo + passed * step;  // the first failed test
    lo += (passed - 1) * step + 1;
  }
  return lo;
}

// The split of `diag`, by the warp or by this thread alone. Whole warps call it when by_warp.
template <class T, class Less>
__device__ __forceinline__ std::int64_t merge_path_split(const T* a, std::int64_t na, const T* b,
                                                         std::int64_t nb, std::int64_t diag,
                                                         Less less, bool by_warp) {
  return by_warp ? merge_path_by_warp(a, na, b, nb, diag, less)
                 : merge_detail::merge_path(a, na, b, nb, diag, less);
}

}  // namespace parprim::cuda_prim
