// Dot product on CUDA: the course's shared-memory kernel and the production kernel.
//
// shared_memory: one product per thread into a shared array, then the tree of the course,
//   with every __syncthreads() outside the `if` (the missing barrier is a race; a barrier
//   inside the `if` hangs the block). Block sums are folded by the same kernel, pass after
//   pass, until one value is left.
// production: two passes. Pass 1 multiplies inside the reduction: each thread streams x and
//   y with 16-byte loads, `unroll` pairs in flight, into its own accumulators; the block
//   folds them with warp shuffles into one partial sum. Pass 2, one block, folds the
//   partials. No atomics: the summing order depends on n alone, so results are reproducible.
#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/detail/temp_memory.hpp"
#include "cuda/blas_backend.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "parprim/cuda/detail/block_sum.cuh"
#include "cuda/tuning/dot.hpp"

namespace parprim::cuda_backend {

namespace {

using shared_tuning = cuda_tuning::dot_shared_memory;
using prod_tuning = cuda_tuning::dot_production;

// ---------------------------------------------------------------------------------------
// The course's kernel, corrected. With y == nullptr it sums x (the later passes).
template <class T>
__global__ void __launch_bounds__(shared_tuning::threads)
    dot_shared_kernel(const T* __restrict__ x, const T* __restrict__ y, std::int64_t n,
                      T* __restrict__ partials) {
  __shared__ T cache[shared_tuning::threads];
  const std::int64_t tid = threadIdx.x + std::int64_t(blockIdx.x) * blockDim.x;
  // Every slot is written, padding with 0 past the end (the course's kernel left it unset).
  T v = T(0);
  if (tid < n) v = y ? x[tid] * y[tid] : x[tid];
  cache[threadIdx.x] = v;
  __syncthreads();
  // Tree phase: halve the active range; the barrier is reached by every thread.
  for (int i = blockDim.x / 2; i != 0; i /= 2) {
    if (int(threadIdx.x) < i) cache[threadIdx.x] += cache[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = cache[0];
}

// ---------------------------------------------------------------------------------------
// Production pass 1.
template <class T>
struct vec16;  // 16 bytes of T
template <>
struct vec16<float> {
  using type = float4;
  static __device__ __forceinline__ float dot(float acc, float4 a, float4 b) {
    acc += a.x * b.x;
    acc += a.y * b.y;
    acc += a.z * b.z;
    acc += a.w * b.w;
    return acc;
  }
};
template <>
struct vec16<double> {
  using type = double2;
  static __device__ __forceinline__ double dot(double acc, double2 a, double2 b) {
    acc += a.x * b.x;
    acc += a.y * b.y;
    return acc;
  }
};

template <class T>
__global__ void __launch_bounds__(prod_tuning::threads)
    dot_partials_kernel(const T* __restrict__ x, const T* __restrict__ y, std::int64_t n,
                        bool vector_loads, T* __restrict__ partials) {
  using V = typename vec16<T>::type;
  constexpr int width = int(sizeof(V) / sizeof(T));
  constexpr int unroll = prod_tuning::unroll;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  const std::int64_t first = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;

  T acc[unroll];
#pragma unroll
  for (int u = 0; u < unroll; ++u) acc[u] = T(0);

  // Streaming phase: whole 16-byte vectors (when both pointers are 16-byte aligned).
  const std::int64_t nv = vector_loads ? n / width : 0;
  const V* xv = reinterpret_cast<const V*>(x);
  const V* yv = reinterpret_cast<const V*>(y);
  std::int64_t i = first;
  for (; i + (unroll - 1) * stride < nv; i += unroll * stride) {
    V a[unroll], b[unroll];
#pragma unroll
    for (int u = 0; u < unroll; ++u) {
      a[u] = __ldg(xv + i + u * stride);
      b[u] = __ldg(yv + i + u * stride);
    }
#pragma unroll
    for (int u = 0; u < unroll; ++u) acc[u] = vec16<T>::dot(acc[u], a[u], b[u]);
  }
  for (; i < nv; i += stride) acc[0] = vec16<T>::dot(acc[0], __ldg(xv + i), __ldg(yv + i));
  // Tail phase: the elements after the last whole vector (all of them when unaligned).
  for (std::int64_t j = nv * width + first; j < n; j += stride) acc[0] += x[j] * y[j];

  // Reduction phase: accumulators in order, then the warp and block tree.
  T sum = acc[0];
#pragma unroll
  for (int u = 1; u < unroll; ++u) sum += acc[u];
  sum = cuda_prim::block_sum(sum);
  if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// Production pass 2: one block folds `count` partial sums into out[0].
template <class T>
__global__ void __launch_bounds__(prod_tuning::final_threads)
    dot_final_kernel(const T* __restrict__ partials, int count, T* __restrict__ out) {
  T sum = T(0);
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partials[i];
  sum = cuda_prim::block_sum(sum);
  if (threadIdx.x == 0) out[0] = sum;
}

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

template <class T>
void dot_shared_memory(const context& ctx, const T* x, const T* y, std::int64_t n, T* out,
                       workspace* ws) {
  constexpr int threads = shared_tuning::threads;
  auto blocks_for = [](std::int64_t count) { return (count + threads - 1) / threads; };
  // Scratch: two ping-pong arrays of block sums, for the first and the second pass.
  const std::int64_t c1 = blocks_for(n), c2 = blocks_for(c1);
  const std::size_t bytes1 = detail::align_up(std::size_t(c1) * sizeof(T));
  detail::temp_memory scratch(ctx, ws, bytes1 + std::size_t(c2) * sizeof(T));
  T* buf[2] = {scratch.as<T>(), reinterpret_cast<T*>(scratch.as<char>() + bytes1)};

  const T* in_x = x;
  const T* in_y = y;
  std::int64_t count = n;
  for (int pass = 0;; ++pass) {
    const std::int64_t blocks = blocks_for(count);
    T* dst = blocks == 1 ? out : buf[pass % 2];
    dot_shared_kernel<T><<<unsigned(blocks), threads, 0, stream_of(ctx)>>>(in_x, in_y, count, dst);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "dot");
    if (blocks == 1) return;
    in_x = dst;
    in_y = nullptr;
    count = blocks;
  }
}

template <class T>
void dot_production(const context& ctx, const T* x, const T* y, std::int64_t n, T* out,
                    workspace* ws) {
  constexpr int threads = prod_tuning::threads;
  constexpr std::int64_t per_block = std::int64_t(threads) * (16 / sizeof(T)) * prod_tuning::unroll;
  const int blocks = int(std::min<std::int64_t>((n + per_block - 1) / per_block,
                                                prod_tuning::max_blocks));
  const bool vector_loads =
      reinterpret_cast<std::uintptr_t>(x) % 16 == 0 && reinterpret_cast<std::uintptr_t>(y) % 16 == 0;
  detail::temp_memory partials(ctx, ws, std::size_t(blocks) * sizeof(T));
  dot_partials_kernel<T><<<blocks, threads, 0, stream_of(ctx)>>>(x, y, n, vector_loads,
                                                                 partials.as<T>());
  PARPRIM_LAUNCH_CHECK(ctx.state(), "dot");
  dot_final_kernel<T><<<1, prod_tuning::final_threads, 0, stream_of(ctx)>>>(partials.as<T>(),
                                                                            blocks, out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "dot");
}

}  // namespace

template <class T>
void dot_into(const context& ctx, span<const T> x, span<const T> y, T* out_device,
              dot_algorithm alg, workspace* ws) {
  const std::int64_t n = x.size();
  if (n == 0) {
    PARPRIM_CUDA_CHECK(ctx.name(), "dot", cudaMemsetAsync(out_device, 0, sizeof(T), stream_of(ctx)));
    return;
  }
  if (alg == dot_algorithm::shared_memory)
    dot_shared_memory(ctx, x.data(), y.data(), n, out_device, ws);
  else
    dot_production(ctx, x.data(), y.data(), n, out_device, ws);
}

template void dot_into<float>(const context&, span<const float>, span<const float>, float*,
                              dot_algorithm, workspace*);
template void dot_into<double>(const context&, span<const double>, span<const double>, double*,
                               dot_algorithm, workspace*);

}  // namespace parprim::cuda_backend
