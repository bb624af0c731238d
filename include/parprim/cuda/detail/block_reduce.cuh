// Block-wide reduction: each warp reduces with shuffles, warp totals meet in shared memory,
// and warp 0 reduces those. Two levels, one barrier.
#pragma once

#include "parprim/cuda/detail/warp_reduce.cuh"

namespace parprim::cuda_prim {

template <class T, class Op, int Threads>
struct block_reduce {
  static_assert(Threads % warp_size == 0 && Threads <= 1024, "whole warps, at most 1024 threads");
  static constexpr int warps = Threads / warp_size;

  struct storage {
    T warp_total[warps];
  };

  // Every thread contributes v; thread 0 gets the block total in thread order (warps left to
  // right). Other threads' results are unspecified. Call __syncthreads() before reusing `s`.
  __device__ __forceinline__ static T reduce(storage& s, T v, Op op) {
    v = warp_reduce(v, op);
    if (lane_id() == 0) s.warp_total[warp_id()] = v;
    __syncthreads();
    if (warp_id() == 0) {
      // Only the first `warps` lanes hold a warp total; no identity needed.
      T w = s.warp_total[lane_id() < warps ? lane_id() : 0];
      v = warp_reduce_first(w, op, warps);
    }
    return v;
  }
};

// Thread 0 gets v_0 op ... op v_(valid-1) over the first `valid` threads of the block
// (1 <= valid <= Threads), in thread order; the other threads' values are ignored and need no
// identity. Contains one barrier; call __syncthreads() before reusing `s`.
template <class T, class Op, int Threads>
__device__ __forceinline__ T block_reduce_first(typename block_reduce<T, Op, Threads>::storage& s,
                                                T v, Op op, int valid) {
  const int warp = warp_id();
  const int in_warp = valid - warp * warp_size;
  if (in_warp > 0) {
    v = in_warp >= warp_size ? warp_reduce(v, op) : warp_reduce_first(v, op, in_warp);
    if (lane_id() == 0) s.warp_total[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    const int warps = (valid + warp_size - 1) / warp_size;
    T w = s.warp_total[lane_id() < warps ? lane_id() : 0];
    v = warp_reduce_first(w, op, warps);
  }
  return v;
}

}  // namespace parprim::cuda_prim
