// Warp-wide prefix scans with shuffles (Kogge-Stone: log2(32) = 5 steps, each lane adds the
// running value of the lane `d` below it; work-inefficient but step-minimal, which is what a
// warp executing in lockstep wants).
#pragma once

#include "parprim/cuda/detail/warp_shuffle.cuh"

namespace parprim::cuda_prim {

// Inclusive scan of one value per lane: lane i gets v_0 op ... op v_i.
template <class T, class Op>
__device__ __forceinline__ T warp_inclusive_scan(T v, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < warp_size; d <<= 1) {
    T below = shfl_up(v, d);
    if (lane >= d) v = op(below, v);
  }
  return v;
}

// The exclusive scan that matches an inclusive one: lane i gets lane i-1's inclusive value,
// lane 0 gets `first` (the identity, or a carry-in).
template <class T>
__device__ __forceinline__ T warp_exclusive_from_inclusive(T inclusive, T first) {
  T below = shfl_up(inclusive, 1);
  return lane_id() == 0 ? first : below;
}

// Both scans and the warp total (lane 31's inclusive value, broadcast to every lane).
template <class T>
struct warp_scan_result {
  T inclusive;
  T exclusive;
  T total;
};

template <class T, class Op>
__device__ __forceinline__ warp_scan_result<T> warp_scan(T v, Op op) {
  warp_scan_result<T> r;
  r.inclusive = warp_inclusive_scan(v, op);
  r.exclusive = warp_exclusive_from_inclusive(r.inclusive, Op::identity());
  r.total = shfl_idx(r.inclusive, warp_size - 1);
  return r;
}

}  // namespace parprim::cuda_prim
