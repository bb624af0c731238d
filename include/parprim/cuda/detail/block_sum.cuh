// Sums over a warp and over a block with register shuffles; the combining order is fixed by
// the lane and warp numbers, so float sums are reproducible.
#pragma once

namespace parprim::cuda_prim {

template <class T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;  // valid in lane 0
}

// Sum of v over the whole block, valid in thread 0. Every thread of the block must call it
// (it contains a barrier); call it once per kernel, since a second call would rewrite
// warp_sums while warp 0 may still read them. blockDim.x: a multiple of 32, at most 1024.
template <class T>
__device__ __forceinline__ T block_sum(T v) {
  __shared__ T warp_sums[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_sum(v);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < int(blockDim.x / 32) ? warp_sums[lane] : T(0);
    v = warp_sum(v);
  }
  return v;
}

}  // namespace parprim::cuda_prim
