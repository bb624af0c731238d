// Block-wide reduction: each warp reduces with shuffles, warp totals meet in shared memory,
// and warp 0 reduces those. Two levels, one barrier.
#pragma once

#include "cuda/primitives/warp_reduce.cuh"

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
      // Lanes past the last warp pad with the identity, which leaves the total unchanged.
      T w = lane_id() < warps ? s.warp_total[lane_id()] : Op::identity();
      v = warp_reduce(w, op);
    }
    return v;
  }
};

}  // namespace parprim::cuda_prim
