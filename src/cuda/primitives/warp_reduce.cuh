// Warp-wide reduction with shuffles.
//
// A butterfly over lane distances 1, 2, 4, 8, 16 in which the lower lane's value is always the
// left operand: every lane computes the same left-to-right tree, so all 32 lanes end with the
// same bits (even for ops that are not commutative bit-for-bit, such as min on -0.0/+0.0), and
// the combining order depends on nothing but the lane positions.
#pragma once

#include "cuda/primitives/warp_shuffle.cuh"

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

}  // namespace parprim::cuda_prim
