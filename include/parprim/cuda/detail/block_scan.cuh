// Block-wide scan of one value per warp or per thread: warps scan with shuffles, warp totals
// meet in shared memory, warp 0 scans those, and every warp adds its prefix.
//
// The two steps are exposed separately so that a kernel can work between them (the
// decoupled look-back scan publishes the block total and looks back from inside step 2):
//   1. every warp:            store_warp_total(s, total)         then __syncthreads()
//   2. warp 0 (all 32 lanes): scan_warp_totals(s, op) -> block total; then __syncthreads()
//   3. every warp:            s.warp_prefix[warp_id()]
#pragma once

#include "parprim/cuda/detail/warp_scan.cuh"
#include "parprim/detail/generic.hpp"

namespace parprim::cuda_prim {

template <class T, class Op, int Threads>
struct block_scan {
  static_assert(Threads % warp_size == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  static constexpr int warps = Threads / warp_size;

  struct storage {
    T warp_total[warps];
    T warp_prefix[warps];  // exclusive: op of the totals of all earlier warps (warp 0: as below)
    T block_total;
  };

  // Step 1: lane 0 of each warp records the warp's total (the same value in every lane).
  __device__ __forceinline__ static void store_warp_total(storage& s, T warp_total) {
    if (lane_id() == 0) s.warp_total[warp_id()] = warp_total;
  }

  // Step 2, by the 32 lanes of warp 0 after a barrier: writes each warp's exclusive prefix
  // (warp 1 onwards) and returns the block total to every lane of warp 0.
  __device__ __forceinline__ static T scan_warp_totals(storage& s, Op op) {
    const int lane = lane_id();
    // Lanes past the last warp repeat a total: their results are never used, and lane i's
    // inclusive value depends only on lanes 0..i, so no identity is needed.
    T t = s.warp_total[lane < warps ? lane : warps - 1];
    T inclusive = warp_inclusive_scan(t, op);
    T exclusive = shfl_up(inclusive, 1);  // lane 0: the identity where Op has one, else unspecified
    if constexpr (parprim::detail::has_identity<Op>::value)
      if (lane == 0) exclusive = Op::identity();
    if (lane < warps) s.warp_prefix[lane] = exclusive;
    return shfl_idx(inclusive, warps - 1);
  }

  // A complete scan of one value per thread, in thread order. Thread 0's exclusive value is
  // the identity. Contains two barriers; call __syncthreads() before reusing `s`.
  __device__ __forceinline__ static void scan(storage& s, T v, Op op, T& inclusive, T& exclusive,
                                              T& block_total) {
    warp_scan_result<T> w = warp_scan(v, op);
    store_warp_total(s, w.total);
    __syncthreads();
    if (warp_id() == 0) {
      T total = scan_warp_totals(s, op);
      if (lane_id() == 0) s.block_total = total;
    }
    __syncthreads();
    if (warp_id() == 0) {
      inclusive = w.inclusive;
      exclusive = w.exclusive;
    } else {
      T prefix = s.warp_prefix[warp_id()];
      inclusive = op(prefix, w.inclusive);
      exclusive = lane_id() == 0 ? prefix : op(prefix, w.exclusive);
    }
    block_total = s.block_total;
  }
};

}  // namespace parprim::cuda_prim
