// The CUDA body of transform (nvcc only): a grid-stride map over 16-byte vectors, for any
// element types and any callable. The precompiled transform (src/cuda/kernels/transform.cu)
// is this code instantiated for the library's unary_op / binary_op maps.
//
// The range splits into a scalar head (elements before `out` reaches a 16-byte boundary), a
// vector body, and a scalar tail. The body is vectorized only when all arrays have the same
// element size (dividing 16) and every pointer shares the same offset modulo 16 (the usual
// case: all from cudaMalloc); otherwise the whole range takes the scalar path.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/tuning/transform_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda_kernels {

// Elements [0, head) and [head + nvec * vec, n) are scalar; [head, head + nvec * vec) vectors.
struct transform_plan {
  std::int64_t head = 0;
  std::int64_t nvec = 0;
  unsigned blocks = 1;
};

template <class A, class B, class V>
inline constexpr bool transform_vectorizable =
    cuda_prim::vector_unit<V> && sizeof(A) == sizeof(V) && sizeof(B) == sizeof(V);

template <class A, class B, class V>
transform_plan plan_transform(std::int64_t n, const void* out, const void* in1, const void* in2) {
  using tuning = cuda_tuning::transform_tuning;
  constexpr int vec = cuda_prim::unit_size<V>;
  transform_plan p;
  auto addr = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q); };
  const std::uintptr_t mis = addr(out) & 15u;
  const bool co_aligned = transform_vectorizable<A, B, V> && mis % sizeof(V) == 0 &&
                          (addr(in1) & 15u) == mis && (in2 == nullptr || (addr(in2) & 15u) == mis);
  if (co_aligned) {
    p.head = std::min<std::int64_t>(n, static_cast<std::int64_t>((16 - mis) % 16 / sizeof(V)));
    p.nvec = (n - p.head) / vec;
  }
  const std::int64_t scalars = n - p.nvec * vec;
  const std::int64_t work = std::max(ceil_div(p.nvec, tuning::vectors_per_thread), scalars);
  p.blocks = static_cast<unsigned>(std::max<std::int64_t>(
      1, std::min<std::int64_t>(tuning::max_blocks, ceil_div(work, tuning::threads))));
  return p;
}

// out[i] = f(in1[i], in2[i]); unary maps pass in2 = null and a callable that ignores its
// second argument.
template <class A, class B, class V, class F>
__global__ void __launch_bounds__(cuda_tuning::transform_tuning::threads)
    transform_kernel(const A* in1, const B* in2, V* out, std::int64_t n, std::int64_t head,
                     std::int64_t nvec, F f) {
  constexpr int vec = cuda_prim::unit_size<V>;
  constexpr int per = cuda_tuning::transform_tuning::vectors_per_thread;
  const std::int64_t gid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;

  // ---- Vector body: each step loads `per` vectors per input before storing any, since `out`
  // may alias an input (in place) and the compiler may not reorder across such stores.
  if constexpr (transform_vectorizable<A, B, V>) {
    const A* a = in1 + head;
    const B* b = in2 ? in2 + head : nullptr;
    V* y = out + head;
    for (std::int64_t v0 = gid; v0 < nvec; v0 += per * stride) {
      A xa[per][vec];
      B xb[per][vec];
#pragma unroll
      for (int u = 0; u < per; ++u) {
        const std::int64_t v = v0 + u * stride;
        if (v < nvec) {
          cuda_prim::load_unit(xa[u], a + v * vec);
          if (b) cuda_prim::load_unit(xb[u], b + v * vec);
        }
      }
#pragma unroll
      for (int u = 0; u < per; ++u) {
        const std::int64_t v = v0 + u * stride;
        if (v < nvec) {
          V r[vec];
#pragma unroll
          for (int j = 0; j < vec; ++j) r[j] = f(xa[u][j], b ? xb[u][j] : B{});
          cuda_prim::store_unit(y + v * vec, r);
        }
      }
    }
  }

  // ---- Scalar head and tail.
  const std::int64_t tail_begin = head + nvec * vec;
  const std::int64_t scalars = head + (n - tail_begin);
  for (std::int64_t s = gid; s < scalars; s += stride) {
    const std::int64_t i = s < head ? s : tail_begin + (s - head);
    out[i] = f(in1[i], in2 ? in2[i] : B{});
  }
}

// Stream-ordered; n > 0.
template <class A, class B, class V, class F>
void transform(const context& ctx, const A* in1, const B* in2, V* out, std::int64_t n, F f,
               const char* who) {
  use_device(ctx, who);
  const transform_plan p = plan_transform<A, B, V>(n, out, in1, in2);
  transform_kernel<A, B, V, F><<<p.blocks, cuda_tuning::transform_tuning::threads, 0,
                                 stream_of(ctx)>>>(in1, in2, out, n, p.head, p.nvec, f);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// A unary callable seen as a binary one.
template <class A, class F>
struct ignore_second {
  F f;
  template <class B>
  __host__ __device__ __forceinline__ auto operator()(const A& x, const B&) const { return f(x); }
};

}  // namespace parprim::cuda_kernels

namespace parprim::detail {

template <>
struct cuda_body<transform_tag, true> {
  template <class T, class U, class F>
  static void run(const context& ctx, const char* function, span<const T> in, span<U> out, F f) {
    cuda_kernels::transform(ctx, in.data(), static_cast<const T*>(nullptr), out.data(), in.size(),
                            cuda_kernels::ignore_second<T, F>{f}, function);
  }
  template <class A, class B, class V, class F>
  static void run(const context& ctx, const char* function, span<const A> a, span<const B> b,
                  span<V> out, F f) {
    cuda_kernels::transform(ctx, a.data(), b.data(), out.data(), a.size(), f, function);
  }
};

}  // namespace parprim::detail
