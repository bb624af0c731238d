// Prefix scans.
//   inclusive:            out[i] = in[0] op ... op in[i]
//   inclusive from init:  out[i] = init op in[0] op ... op in[i]   (continues an earlier scan)
//   exclusive:            out[0] = init, out[i] = init op in[0] op ... op in[i-1]
//
//   Precompiled (any compiler, six element types): inclusive_scan(ctx, in, out, op::plus),
//     inclusive_scan(ctx, in, out, init, op::plus), exclusive_scan(ctx, in, out, init, op::plus).
//   Generic (header-only, any trivially copyable T, any associative functor or lambda; the
//   operator need not be commutative and needs no identity):
//     inclusive_scan(ctx, in, out, op)
//     inclusive_scan(ctx, in, out, init, op)
//     exclusive_scan(ctx, in, out, init, op)
//     transform_inclusive_scan(ctx, in, out, map, op)          scans map(in[i])
//     transform_exclusive_scan(ctx, in, out, init, map, op)
//   On a CUDA context a generic call must be compiled by nvcc; from any other compiler it
//   throws parprim::error(errc::backend_unavailable) saying so.
//
// `out` may alias `in` exactly (in place); partial overlap is rejected. Stream-ordered on
// CUDA. Float results are bitwise reproducible from run to run.
#pragma once

#include "parprim/context.hpp"
#include "parprim/detail/cpu/scan.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/scan_kind.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

namespace detail {
// The library's compiled entry point (src/core/scan.cpp), for the six types only.
template <class T>
void scan_precompiled(const char* function, const context& ctx, span<const T> in, span<T> out,
                      op o, scan_kind kind, T init, scan_algorithm alg, workspace* ws);
}  // namespace detail

template <class T>
void inclusive_scan(const context& ctx, span<const T> in, span<T> out, op o = op::plus,
                    scan_algorithm alg = scan_algorithm::decoupled_lookback,
                    workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(inclusive_scan));
  detail::scan_precompiled("inclusive_scan", ctx, in, out, o, detail::scan_kind::inclusive, T{},
                           alg, ws);
}

template <class T>
void inclusive_scan(const context& ctx, span<const T> in, span<T> out, detail::no_deduce_t<T> init,
                    op o = op::plus, scan_algorithm alg = scan_algorithm::decoupled_lookback,
                    workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(inclusive_scan));
  detail::scan_precompiled("inclusive_scan", ctx, in, out, o,
                           detail::scan_kind::inclusive_from_init, init, alg, ws);
}

template <class T>
void exclusive_scan(const context& ctx, span<const T> in, span<T> out, T init = T{},
                    op o = op::plus, scan_algorithm alg = scan_algorithm::decoupled_lookback,
                    workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(exclusive_scan));
  detail::scan_precompiled("exclusive_scan", ctx, in, out, o, detail::scan_kind::exclusive, init,
                           alg, ws);
}

namespace detail {

template <class In, class T>
void check_scan_args(const checker& c, span<const In> in, span<T> out, workspace* ws) {
  check_element_type<In>();
  check_element_type<T>();
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/sizeof(In) == sizeof(T));
  c.own_workspace(ws);
}

}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {

namespace detail_scan {
template <class In, class T, class Map, class Op>
void run(const char* function, const context& ctx, span<const In> in, span<T> out,
         detail::scan_kind kind, T init, Map map, Op op, workspace* ws) {
  detail::checker c(ctx, function);
  detail::check_scan_args(c, in, out, ws);
  if (in.size() == 0) return;
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::scan_tag, detail::with_nvcc<T>>::run(
        ctx, function, in, out, kind, init, map, op, ws);
  detail::cpu::scan(ctx, in, out, kind, init, map, op);
}
}  // namespace detail_scan

template <class E, class T, class Map, class Op>
void transform_inclusive_scan(const context& ctx, span<E> in, span<T> out, Map map, Op op,
                              workspace* ws = nullptr) {
  detail_scan::run("transform_inclusive_scan", ctx, detail::as_input(in), out,
                   detail::scan_kind::inclusive, T{}, map, op, ws);
}

template <class E, class T, class Map, class Op>
void transform_exclusive_scan(const context& ctx, span<E> in, span<T> out,
                              detail::no_deduce_t<T> init, Map map, Op op,
                              workspace* ws = nullptr) {
  detail_scan::run("transform_exclusive_scan", ctx, detail::as_input(in), out,
                   detail::scan_kind::exclusive, init, map, op, ws);
}

template <class E, class Op, class T = detail::value_t<E>,
          class = std::enable_if_t<!std::is_enum_v<Op>>>
void inclusive_scan(const context& ctx, span<E> in, span<T> out, Op op, workspace* ws = nullptr) {
  detail_scan::run("inclusive_scan", ctx, detail::as_input(in), out, detail::scan_kind::inclusive,
                   T{}, detail::identity_map{}, op, ws);
}

template <class E, class Op, class T = detail::value_t<E>,
          class = std::enable_if_t<!std::is_enum_v<Op>>>
void inclusive_scan(const context& ctx, span<E> in, span<T> out, detail::no_deduce_t<T> init,
                    Op op, workspace* ws = nullptr) {
  detail_scan::run("inclusive_scan", ctx, detail::as_input(in), out,
                   detail::scan_kind::inclusive_from_init, init, detail::identity_map{}, op, ws);
}

template <class E, class Op, class T = detail::value_t<E>,
          class = std::enable_if_t<!std::is_enum_v<Op>>>
void exclusive_scan(const context& ctx, span<E> in, span<T> out, detail::no_deduce_t<T> init,
                    Op op, workspace* ws = nullptr) {
  detail_scan::run("exclusive_scan", ctx, detail::as_input(in), out, detail::scan_kind::exclusive,
                   init, detail::identity_map{}, op, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/scan.cuh"
#endif
