// transform (map): out[i] = f(in[i]) or out[i] = f(a[i], b[i]).
//
//   Precompiled (any compiler, six element types): transform(ctx, in, out, unary_op::square).
//   Generic (header-only, any trivially copyable element types, any callable; the element
//   types of in, b and out may differ):
//     transform(ctx, in, out, [] __host__ __device__ (float x) { return double(x) * 3; })
//     transform(ctx, a, b, out, f)
//   On a CUDA context a generic call must be compiled by nvcc (nvcc --extended-lambda for
//   lambdas); from any other compiler it throws parprim::error(errc::backend_unavailable).
//
// `out` may alias an input exactly (in place, same element size); partial overlap is rejected.
// Stream-ordered on CUDA.
#pragma once

#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/transform.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"

namespace parprim {

namespace detail {
// The library's compiled entry points (src/core/transform.cpp), for the six types only.
template <class T>
void transform_precompiled(const context& ctx, span<const T> in, span<T> out, unary_op f);
template <class T>
void transform_precompiled(const context& ctx, span<const T> a, span<const T> b, span<T> out,
                           binary_op f);
}  // namespace detail

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(transform));
  detail::transform_precompiled(ctx, in, out, f);
}

template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(transform));
  detail::transform_precompiled(ctx, a, b, out, f);
}

inline namespace PARPRIM_TU_NAMESPACE {

template <class E, class U, class F, class = std::enable_if_t<!std::is_enum_v<F>>>
void transform(const context& ctx, span<E> input, span<U> out, F f) {
  using T = detail::value_t<E>;
  const span<const T> in = detail::as_input(input);
  detail::check_element_type<T>();
  detail::check_element_type<U>();
  detail::checker c(ctx, "transform");
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/sizeof(T) == sizeof(U));
  if (in.size() == 0) return;
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::transform_tag, detail::with_nvcc<T>>::run(ctx, "transform",
                                                                               in, out, f);
  detail::cpu::transform(ctx, in, out, f);
}

template <class EA, class EB, class V, class F, class = std::enable_if_t<!std::is_enum_v<F>>>
void transform(const context& ctx, span<EA> first, span<EB> second, span<V> out, F f) {
  using A = detail::value_t<EA>;
  using B = detail::value_t<EB>;
  const span<const A> a = detail::as_input(first);
  const span<const B> b = detail::as_input(second);
  detail::check_element_type<A>();
  detail::check_element_type<B>();
  detail::check_element_type<V>();
  detail::checker c(ctx, "transform");
  c.valid(a, "a");
  c.valid(b, "b");
  c.valid(out, "out");
  c.same_size(a.size(), "a", b.size(), "b");
  c.same_size(a.size(), "a", out.size(), "out");
  c.no_overlap(a, "a", out, "out", sizeof(A) == sizeof(V));
  c.no_overlap(b, "b", out, "out", sizeof(B) == sizeof(V));
  if (a.size() == 0) return;
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::transform_tag, detail::with_nvcc<A>>::run(ctx, "transform",
                                                                               a, b, out, f);
  detail::cpu::transform(ctx, a, b, out, f);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/transform.cuh"
#endif
