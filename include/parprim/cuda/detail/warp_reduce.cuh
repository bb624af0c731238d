// Warp-wide reduction with shuffles.
//
// A butterfly over lane distances 1, 2, 4, 8, 16 in which the lower lane's value is always the
// left operand: every lane computes the same left-to-right tree, so all 32 lanes end with the
// same bits (even for ops that are not commutative bit-for-bit, such as min on -0.0/+0.0), and
// the combining order depends on nothing but the lane positions.
#pragma once

#include "parprim/cuda/detail/warp_shuffle.cuh"

namespace parprim::cuda_prim {

template <class T, class Op>
__device__ __forceinline__ T warp_reduce(T v, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < warp_size; d <<= 1) {
    T other = shfl_xor(v, d);
    v = (lane & d) ? op(other, v) : op(v, other);
  }
  return v;
}

// Lane 0 gets v_0 op ... op v_(valid-1) over the first `valid` lanes (1 <= valid <= 32);
// other lanes' results are unspecified. A tree over distances 1, 2, 4, 8, 16 in which lane i
// (a multiple of 2d) takes lane i + d's value as its right operand when that lane holds any
// element: element order is kept and no identity is needed for the missing lanes.
template <class T, class Op>
__device__ __forceinline__ T warp_reduce_first(T v, Op op, int valid) {
  const int lane = lane_id();
#pragma unroll
  for (int d = 1; d < warp_size; d <<= 1) {
    T other = shfl_down(v, d);
    if ((lane & (2 * d - 1)) == 0 && lane + d < valid) v = op(v, other);
  }
  return v;
}

}  // namespace parprim::cuda_prim
