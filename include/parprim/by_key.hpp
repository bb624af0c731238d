// Reductions and scans over runs of consecutive equal keys.
//
// A run is a maximal stretch of consecutive elements whose keys compare equal; element 0
// starts one. Keys are compared with `eq` (default parprim::equal_to{}, that is `==`: IEEE
// for floats, so -0.0 and +0.0 share a run and NaN != NaN makes every NaN key a run of its
// own). Keys need not be sorted: equal keys that are not adjacent form separate runs.
//
//   reduce_by_key          keys_out[r] = the key at the start of run r,
//                          values_out[r] = values of run r folded with the operator, left to
//                          right; returns the number of runs R. When keys_out or values_out
//                          holds fewer than R elements, parprim::error
//                          (errc::invalid_argument) is thrown; nothing is written past the end
//                          of either, so they then hold the first min(sizes) runs.
//   inclusive_scan_by_key  out[i] = fold of the values of i's run up to and including i
//   exclusive_scan_by_key  out[i] = init op (fold of the values of i's run before i), so the
//                          first element of each run gets init
//
//   Precompiled (any compiler): keys and values of i32 u32 i64 u64 f32 f64, op::plus/min/max,
//   keys compared with ==. Integers wrap (two's complement).
//   Generic (header-only): any trivially copyable key and value, any associative functor or
//   lambda (it need not be commutative and needs no identity), any equality `eq`:
//     reduce_by_key(ctx, keys, values, keys_out, values_out, op, eq = {})
//     inclusive_scan_by_key(ctx, keys, values, out, op, eq = {})
//     exclusive_scan_by_key(ctx, keys, values, out, init, op, eq = {})
//   On a CUDA context a generic call must be compiled by nvcc; from any other compiler it
//   throws parprim::error(errc::backend_unavailable) saying so. On CUDA, keys and values may
//   be at most 64 bytes each.
//
// Values are folded in an order fixed by n and the backend (within a run always left to
// right), so float results are bitwise reproducible from run to run, but need not match the
// sequential loop's rounding. `out` of the scans may alias `values` exactly (in place); other
// overlaps are rejected. reduce_by_key returns to the host (it waits for the device); the
// scans are stream-ordered.
//
// reduce_by_key_into(ctx, keys, values, keys_out, values_out, count, op[, eq]) is the
// stream-ordered form of reduce_by_key (precompiled and generic, same types and operators):
// the run count R goes to count[0] on the context's backend (device memory on CUDA) and
// nothing waits for the device. Since no error can be raised once the kernels run, keys_out
// and values_out must each hold at least n elements (R <= n), and count (count.size() >= 1)
// must overlap no other argument: both are checked up front (parprim::error,
// errc::invalid_argument). Outputs past R are left as they were.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/runs_front.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

// The default key equality: `==` (IEEE for floats: -0.0 == +0.0, NaN != NaN).
struct equal_to {
  template <class K>
  PARPRIM_HD bool operator()(const K& a, const K& b) const {
    return a == b;
  }
};

namespace detail {
// The library's compiled entry points (src/core/by_key.cpp), for the six types only.
// `to` says where the run count goes (the host, or count[0] for reduce_by_key_into).
template <class K, class V>
std::int64_t reduce_by_key_precompiled(const context& ctx, span<const K> keys,
                                       span<const V> values, span<K> keys_out,
                                       span<V> values_out, count_target to, op o, workspace* ws);
template <class K, class V>
void scan_by_key_precompiled(const char* function, const context& ctx, span<const K> keys,
                             span<const V> values, span<V> out, bool inclusive, V init, op o,
                             workspace* ws);
}  // namespace detail

template <class K, class V>
std::int64_t reduce_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, op o = op::plus,
                           workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(reduce_by_key));
  return detail::reduce_by_key_precompiled(ctx, keys, values, keys_out, values_out, {}, o, ws);
}

template <class K, class V>
void reduce_by_key_into(const context& ctx, span<const K> keys, span<const V> values,
                        span<K> keys_out, span<V> values_out, span<std::int64_t> count,
                        op o = op::plus, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(reduce_by_key_into));
  detail::reduce_by_key_precompiled(ctx, keys, values, keys_out, values_out,
                                    detail::count_target{true, count}, o, ws);
}

template <class K, class V>
void inclusive_scan_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<V> out, op o = op::plus, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(inclusive_scan_by_key));
  detail::scan_by_key_precompiled("inclusive_scan_by_key", ctx, keys, values, out, true, V{}, o,
                                  ws);
}

template <class K, class V>
void exclusive_scan_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<V> out, V init = V{}, op o = op::plus, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(exclusive_scan_by_key));
  detail::scan_by_key_precompiled("exclusive_scan_by_key", ctx, keys, values, out, false, init, o,
                                  ws);
}

inline namespace PARPRIM_TU_NAMESPACE {

namespace detail_runs {
// Validated call of the generic bodies: the CPU body, or the CUDA one through the hook.
template <detail::runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t run(const detail::checker& c, const char* function, const detail::runs_io<K, V>& io,
                 Eq eq, Op op, const detail::run_outputs& outs, workspace* ws) {
  detail::check_element_type<K>();
  detail::check_element_type<V>();
  c.own_workspace(ws);
  return detail::run_runs<Kind>(c, io, eq, op, outs, [&]() -> std::int64_t {
    std::int64_t runs = -1;
    detail::cuda_body<detail::runs_tag, detail::with_nvcc<K>>::run(
        c.ctx(), function, &runs, std::integral_constant<detail::runs_kind, Kind>{}, io, eq, op,
        ws);
    return runs;
  });
}

// A checked job of a plain form (`to` empty) or of its _into form: the count targeted, one run.
// `keys` names the keys' input.
template <detail::runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t run_call(const detail::checker& c, const char* function, const char* keys,
                      detail::runs_call<K, V> job, const detail::count_target& to, Eq eq, Op op,
                      workspace* ws) {
  detail::target_count(c, to, keys, job);
  return run<Kind>(c, function, job.io, eq, op, job.outs, ws);
}
}  // namespace detail_runs

template <class KE, class VE, class Op, class Eq = equal_to,
          class = std::enable_if_t<std::is_class_v<Op>>>
std::int64_t reduce_by_key(const context& ctx, span<KE> keys, span<VE> values,
                           span<detail::value_t<KE>> keys_out, span<detail::value_t<VE>> values_out,
                           Op op, Eq eq = {}, workspace* ws = nullptr) {
  detail::checker c(ctx, "reduce_by_key");
  return detail_runs::run_call<detail::runs_kind::reduce>(
      c, "reduce_by_key", "keys",
      detail::pairs_call(c, detail::as_input(keys), detail::as_input(values), keys_out, values_out),
      {}, eq, op, ws);
}

template <class KE, class VE, class Op, class Eq = equal_to,
          class = std::enable_if_t<std::is_class_v<Op>>>
void reduce_by_key_into(const context& ctx, span<KE> keys, span<VE> values,
                        span<detail::value_t<KE>> keys_out, span<detail::value_t<VE>> values_out,
                        span<std::int64_t> count, Op op, Eq eq = {}, workspace* ws = nullptr) {
  detail::checker c(ctx, "reduce_by_key_into");
  detail_runs::run_call<detail::runs_kind::reduce>(
      c, "reduce_by_key_into", "keys",
      detail::pairs_call(c, detail::as_input(keys), detail::as_input(values), keys_out, values_out),
      detail::count_target{true, count}, eq, op, ws);
}

namespace detail_runs {
template <class K, class V, class Eq, class Op>
void scan_by_key(const char* function, const context& ctx, span<const K> keys,
                 span<const V> values, span<V> out, bool inclusive, V init, Op op, Eq eq,
                 workspace* ws) {
  detail::checker c(ctx, function);
  detail::check_scan_by_key(c, keys, values, out);
  detail::runs_io<K, V> io;
  io.n = keys.size();
  io.keys = keys.data();
  io.values = values.data();
  io.values_out = out.data();
  io.inclusive = inclusive;
  io.init = init;
  run<detail::runs_kind::scan>(c, function, io, eq, op, detail::run_outputs{}, ws);
}
}  // namespace detail_runs

template <class KE, class VE, class Op, class Eq = equal_to,
          class = std::enable_if_t<std::is_class_v<Op>>>
void inclusive_scan_by_key(const context& ctx, span<KE> keys, span<VE> values,
                           span<detail::value_t<VE>> out, Op op, Eq eq = {},
                           workspace* ws = nullptr) {
  detail_runs::scan_by_key("inclusive_scan_by_key", ctx, detail::as_input(keys),
                           detail::as_input(values), out, true, detail::value_t<VE>{}, op, eq, ws);
}

template <class KE, class VE, class Op, class Eq = equal_to,
          class = std::enable_if_t<std::is_class_v<Op>>>
void exclusive_scan_by_key(const context& ctx, span<KE> keys, span<VE> values,
                           span<detail::value_t<VE>> out,
                           detail::no_deduce_t<detail::value_t<VE>> init, Op op, Eq eq = {},
                           workspace* ws = nullptr) {
  detail_runs::scan_by_key("exclusive_scan_by_key", ctx, detail::as_input(keys),
                           detail::as_input(values), out, false, init, op, eq, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/by_key.cuh"
#endif
