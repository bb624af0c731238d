// The course's naive scan (Hillis & Steele): one element per thread, log2(Threads) steps in
// which every element adds the one `d` places before it. O(n log n) work.
//
// Double-buffered: step k reads buffer k % 2 and writes the other one, so no thread can
// overwrite a value another thread has yet to read in the same step, and one barrier per
// step suffices (the seed's question "why double-buffer?").
//
// One block scans Threads consecutive elements; elements past n read as the identity.
// Output: the block-local scan (inclusive or exclusive), with `start` put in front when
// apply_start (single-block scans), and the block total in block_sums[blockIdx.x] when
// block_sums is not null (the first of the three phases of an arbitrary-size scan).
// In place is safe: each thread reads its element before the first barrier and writes it
// after the last one, and no other thread touches it in global memory.
#pragma once

#include <cstdint>

namespace parprim::cuda_kernels {

template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads)
    hillis_steele_block_kernel(const T* in, T* out, std::int64_t n, T* block_sums, bool inclusive,
                               bool apply_start, T start) {
  __shared__ T buffer[2][Threads];
  Op op;
  const int t = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * Threads + t;

  // ---- Load one element per thread.
  buffer[0][t] = i < n ? in[i] : Op::identity();

  // ---- log2(Threads) steps, ping-ponging between the two buffers.
  int cur = 0;
  for (int d = 1; d < Threads; d <<= 1) {
    __syncthreads();  // the previous step's writes (or the loads) are visible
    T v = buffer[cur][t];
    if (t >= d) v = op(buffer[cur][t - d], v);
    buffer[cur ^ 1][t] = v;
    cur ^= 1;
  }
  __syncthreads();

  // ---- Write the block-local result and the block total.
  const T inclusive_value = buffer[cur][t];
  T y = inclusive ? inclusive_value : (t > 0 ? buffer[cur][t - 1] : Op::identity());
  if (apply_start) y = op(start, y);
  if (i < n) out[i] = y;
  if (block_sums != nullptr && t == Threads - 1) block_sums[blockIdx.x] = inclusive_value;
}

}  // namespace parprim::cuda_kernels
