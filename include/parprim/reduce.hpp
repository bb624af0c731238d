// reduce: the op-sum of all elements.
//
//   Precompiled (any compiler, six element types): reduce(ctx, in, op::plus). Empty input
//   gives op's identity (0, max, lowest).
//   Generic (header-only, any trivially copyable T, any associative functor or lambda):
//     reduce(ctx, in, init, op)                      init op in[0] op ... op in[n-1]
//     transform_reduce(ctx, in, init, map, op)       init op map(in[0]) op ... op map(in[n-1])
//   The operator need not be commutative: elements are combined in order (left to right
//   within the grouping the algorithm fixes). On a CUDA context a generic call must be
//   compiled by nvcc (the operator becomes a kernel); from any other compiler it throws
//   parprim::error(errc::backend_unavailable) saying so. On a CPU context it runs anywhere.
//
// Results are bitwise reproducible: the order in which elements are combined depends only on
// n and the algorithm, never on timing or on the number of threads.
#pragma once

#include "parprim/context.hpp"
#include "parprim/detail/cpu/reduce.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

namespace detail {
// The library's compiled entry points (src/core/reduce.cpp), for the six types only.
template <class T>
T reduce_precompiled(const context& ctx, span<const T> in, op o, reduce_algorithm alg,
                     workspace* ws);
template <class T>
void reduce_into_precompiled(const context& ctx, span<const T> in, span<T> out, op o,
                             reduce_algorithm alg, workspace* ws);
}  // namespace detail

// Returns the result to the host (waits for the device).
template <class T>
T reduce(const context& ctx, span<const T> in, op o = op::plus,
         reduce_algorithm alg = reduce_algorithm::production, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(reduce));
  return detail::reduce_precompiled(ctx, in, o, alg, ws);
}

// Leaves the result in out[0] on the backend; stream-ordered, no host synchronization.
template <class T>
void reduce_into(const context& ctx, span<const T> in, span<T> out, op o = op::plus,
                 reduce_algorithm alg = reduce_algorithm::production, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(reduce_into));
  detail::reduce_into_precompiled(ctx, in, out, o, alg, ws);
}

namespace detail {

template <class In, class R>
void check_reduce_args(const checker& c, span<const In> in, workspace* ws) {
  check_element_type<In>();
  check_element_type<R>();
  c.valid(in, "in");
  c.own_workspace(ws);
}

}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {

// Writes init op map(in[0]) op ... op map(in[n-1]) to out[0] on the backend; stream-ordered.
template <class E, class R, class Map, class Op>
void transform_reduce_into(const context& ctx, span<E> input, span<R> out,
                           detail::no_deduce_t<R> init, Map map, Op op, workspace* ws = nullptr) {
  using T = detail::value_t<E>;
  const span<const T> in = detail::as_input(input);
  detail::checker c(ctx, "transform_reduce_into");
  detail::check_reduce_args<T, R>(c, in, ws);
  c.valid(out, "out");
  if (out.size() != 1) c.fail("out.size()=" + std::to_string(out.size()) + " but must be 1");
  c.no_overlap(in, "in", out, "out", false);
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::reduce_tag, detail::with_nvcc<T>>::run(ctx, "transform_reduce_into", in, out.data(),
                                                      init, map, op, ws);
  out[0] = detail::cpu::transform_reduce(ctx, in, init, map, op);
}

// Returns init op map(in[0]) op ... op map(in[n-1]) to the host (waits for the device).
template <class E, class R, class Map, class Op>
R transform_reduce(const context& ctx, span<E> input, R init, Map map, Op op,
                   workspace* ws = nullptr) {
  using T = detail::value_t<E>;
  const span<const T> in = detail::as_input(input);
  detail::checker c(ctx, "transform_reduce");
  detail::check_reduce_args<T, R>(c, in, ws);
  if (ctx.kind() == backend::cpu) return detail::cpu::transform_reduce(ctx, in, init, map, op);
  detail::temp_memory result(ctx, nullptr, sizeof(R));
  detail::cuda_body<detail::reduce_tag, detail::with_nvcc<T>>::run(ctx, "transform_reduce", in, result.as<R>(), init,
                                             map, op, ws);
  R value;
  ctx.copy_to_host(&value, result.get(), sizeof(R));
  return value;
}

template <class E, class Op, class T = detail::value_t<E>>
T reduce(const context& ctx, span<E> in, detail::no_deduce_t<T> init, Op op,
         workspace* ws = nullptr) {
  return transform_reduce(ctx, in, init, detail::identity_map{}, op, ws);
}

template <class E, class Op, class T = detail::value_t<E>>
void reduce_into(const context& ctx, span<E> in, span<T> out, detail::no_deduce_t<T> init, Op op,
                 workspace* ws = nullptr) {
  transform_reduce_into(ctx, in, out, init, detail::identity_map{}, op, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/reduce.cuh"
#endif
