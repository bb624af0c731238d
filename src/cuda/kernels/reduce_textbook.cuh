// The course's two shared-memory reduction kernels, kept as selectable variants.
//
// Each block loads 2 * blockDim.x elements (missing ones past n read as the identity) into
// shared memory, reduces them to one value with a tree, and thread 0 writes the block's value
// to out[blockIdx.x]. The host relaunches on the block values until one remains, so any n
// works. Both trees combine left operand = lower index, in an order fixed by n alone.
#pragma once

#include <cstdint>

namespace parprim::cuda_kernels {

// Loads this block's 2 * Threads elements into p[0 .. 2 * Threads).
template <class T, class Op, int Threads>
__device__ __forceinline__ void load_pair_block(const T* in, std::int64_t n, T* p) {
  const int t = threadIdx.x;
  const std::int64_t start = static_cast<std::int64_t>(blockIdx.x) * (2 * Threads);
  p[t] = start + t < n ? in[start + t] : Op::identity();
  p[Threads + t] = start + Threads + t < n ? in[start + Threads + t] : Op::identity();
}

// ---- The "simple" kernel: interleaved pairs; at step `stride` only threads with
// t % stride == 0 work, so every warp diverges and the active threads thin out within warps.
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads) reduce_interleaved_kernel(const T* in, std::int64_t n, T* out) {
  __shared__ T partial[2 * Threads];
  Op op;
  const unsigned t = threadIdx.x;
  load_pair_block<T, Op, Threads>(in, n, partial);
  for (unsigned stride = 1; stride <= Threads; stride *= 2) {
    __syncthreads();  // the previous step's sums (and the loads) are complete
    if (t % stride == 0) partial[2 * t] = op(partial[2 * t], partial[2 * t + stride]);
  }
  // Thread 0 wrote partial[0] in the last step itself: no barrier needed to read it.
  if (t == 0) out[blockIdx.x] = partial[0];
}

// ---- The "better" kernel: sequential addressing; the active threads are always the first
// `stride` ones, so whole warps retire together until fewer than 32 remain.
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads) reduce_contiguous_kernel(const T* in, std::int64_t n, T* out) {
  __shared__ T partial[2 * Threads];
  Op op;
  const unsigned t = threadIdx.x;
  load_pair_block<T, Op, Threads>(in, n, partial);
  for (unsigned stride = Threads; stride > 0; stride /= 2) {
    __syncthreads();
    if (t < stride) partial[t] = op(partial[t], partial[t + stride]);
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

}  // namespace parprim::cuda_kernels
