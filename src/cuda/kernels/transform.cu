// transform on the GPU: a grid-stride map over 16-byte vectors.
//
// The range splits into a scalar head (elements before `out` reaches a 16-byte boundary), a
// vector body, and a scalar tail. The body is vectorized only when every pointer shares the
// same offset modulo 16 (the usual case: all from cudaMalloc); otherwise the whole range
// takes the scalar path. The op is a run-time argument: one kernel per element type.
#include <algorithm>

#include "core/op_functors.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/primitives/vector_io.cuh"
#include "cuda/tuning/transform_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::transform_tuning;
using cuda_prim::vec16;

// Elements [0, head) and [head + nvec * vec, n) are scalar; [head, head + nvec * vec) vectors.
struct transform_plan {
  std::int64_t head = 0;
  std::int64_t nvec = 0;
  std::int64_t scalars = 0;
  unsigned blocks = 1;
};

template <class T>
transform_plan plan_transform(std::int64_t n, const void* out, const void* in1, const void* in2) {
  constexpr int vec = vec16<T>::size;
  transform_plan p;
  auto addr = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q); };
  const std::uintptr_t mis = addr(out) & 15u;
  const bool co_aligned = mis % sizeof(T) == 0 && (addr(in1) & 15u) == mis &&
                          (in2 == nullptr || (addr(in2) & 15u) == mis);
  if (co_aligned) {
    p.head = std::min<std::int64_t>(n, static_cast<std::int64_t>((16 - mis) % 16 / sizeof(T)));
    p.nvec = (n - p.head) / vec;
  }
  p.scalars = n - p.nvec * vec;
  const std::int64_t work = std::max(ceil_div(p.nvec, tuning::vectors_per_thread), p.scalars);
  p.blocks = static_cast<unsigned>(
      std::max<std::int64_t>(1, std::min<std::int64_t>(tuning::max_blocks, ceil_div(work, tuning::threads))));
  return p;
}

// f(x) or f(x, y) element-wise; In2 = nullptr for unary maps.
template <class T, class F>
__device__ __forceinline__ void transform_range(const T* in1, const T* in2, T* out, std::int64_t n,
                                                std::int64_t head, std::int64_t nvec, F f) {
  constexpr int vec = vec16<T>::size;
  constexpr int per = tuning::vectors_per_thread;
  const std::int64_t gid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;

  // ---- Vector body: each step loads `per` vectors per input before storing any, since `out`
  // may alias an input (in place) and the compiler may not reorder across such stores.
  const T* a = in1 + head;
  const T* b = in2 ? in2 + head : nullptr;
  T* y = out + head;
  for (std::int64_t v0 = gid; v0 < nvec; v0 += per * stride) {
    vec16<T> xa[per], xb[per];
#pragma unroll
    for (int u = 0; u < per; ++u) {
      const std::int64_t v = v0 + u * stride;
      if (v < nvec) {
        xa[u] = cuda_prim::load_vec16(a + v * vec);
        if (b) xb[u] = cuda_prim::load_vec16(b + v * vec);
      }
    }
#pragma unroll
    for (int u = 0; u < per; ++u) {
      const std::int64_t v = v0 + u * stride;
      if (v < nvec) {
#pragma unroll
        for (int j = 0; j < vec; ++j) xa[u].v[j] = b ? f(xa[u].v[j], xb[u].v[j]) : f(xa[u].v[j], xa[u].v[j]);
        cuda_prim::store_vec16(y + v * vec, xa[u]);
      }
    }
  }

  // ---- Scalar head and tail.
  const std::int64_t tail_begin = head + nvec * vec;
  const std::int64_t scalars = head + (n - tail_begin);
  for (std::int64_t s = gid; s < scalars; s += stride) {
    const std::int64_t i = s < head ? s : tail_begin + (s - head);
    out[i] = in2 ? f(in1[i], in2[i]) : f(in1[i], in1[i]);
  }
}

template <class T>
__global__ void __launch_bounds__(tuning::threads)
    transform_unary_kernel(const T* in, T* out, std::int64_t n, std::int64_t head, std::int64_t nvec,
                           unary_op f) {
  transform_range<T>(in, nullptr, out, n, head, nvec,
                     [f](T x, T) { return parprim::detail::apply_unary(f, x); });
}

template <class T>
__global__ void __launch_bounds__(tuning::threads)
    transform_binary_kernel(const T* a, const T* b, T* out, std::int64_t n, std::int64_t head,
                            std::int64_t nvec, binary_op f) {
  transform_range<T>(a, b, out, n, head, nvec,
                     [f](T x, T y) { return parprim::detail::apply_binary(f, x, y); });
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f) {
  using namespace cuda_kernels;
  const std::int64_t n = in.size();
  if (n == 0) return;
  use_device(ctx, "transform");
  const transform_plan p = plan_transform<T>(n, out.data(), in.data(), nullptr);
  transform_unary_kernel<T><<<p.blocks, tuning::threads, 0, stream_of(ctx)>>>(
      in.data(), out.data(), n, p.head, p.nvec, f);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "transform");
}

template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f) {
  using namespace cuda_kernels;
  const std::int64_t n = a.size();
  if (n == 0) return;
  use_device(ctx, "transform");
  const transform_plan p = plan_transform<T>(n, out.data(), a.data(), b.data());
  transform_binary_kernel<T><<<p.blocks, tuning::threads, 0, stream_of(ctx)>>>(
      a.data(), b.data(), out.data(), n, p.head, p.nvec, f);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "transform");
}

#define PARPRIM_INSTANTIATE(T)                                                          \
  template void transform<T>(const context&, span<const T>, span<T>, unary_op);          \
  template void transform<T>(const context&, span<const T>, span<const T>, span<T>, binary_op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
