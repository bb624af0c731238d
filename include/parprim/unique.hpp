// Unique elements and run-length encoding of runs of consecutive equal keys.
//
// Runs are as in by_key.hpp: maximal stretches of consecutive keys equal under `eq` (default
// parprim::equal_to{}, that is `==`: IEEE for floats, so -0.0 == +0.0 share a run and the
// first one's bits are kept; NaN != NaN, so every NaN is a run of its own). Like std::unique,
// only adjacent duplicates are removed.
//
//   unique             out[r] = the first key of run r; returns the number of runs R
//   unique_by_key      keys_out[r] = the first key of run r, values_out[r] = its value
//   unique_count       R, without writing anything
//   run_length_encode  unique_out[r] = the first key of run r, lengths[r] = its length
//
// When an output indexed by run holds fewer than R elements, parprim::error
// (errc::invalid_argument) is thrown; nothing is written past the end of any output, so they
// then hold the first min(sizes) runs. Outputs must not overlap the inputs. These return R to
// the host (they wait for the device); the _into forms below do not.
//
//   Precompiled (any compiler): keys (and values) of i32 u32 i64 u64 f32 f64, compared with ==.
//   Generic (header-only): any trivially copyable key and value and any equality `eq`:
//     unique(ctx, in, out, eq), unique_by_key(ctx, keys, values, keys_out, values_out, eq),
//     unique_count(ctx, in, eq), run_length_encode(ctx, in, unique_out, lengths, eq).
//   On a CUDA context a generic call must be compiled by nvcc (else it throws
//   parprim::error(errc::backend_unavailable)).
//
// The stream-ordered forms, precompiled and generic (eq optional, as above):
//   unique_into(ctx, in, out, count[, eq]), unique_by_key_into(ctx, keys, values, keys_out,
//   values_out, count[, eq]), unique_count_into(ctx, in, count[, eq]),
//   run_length_encode_into(ctx, in, unique_out, lengths, count[, eq])
// write R to count[0] on the context's backend (device memory on CUDA) instead of returning
// it, and nothing waits for the device. Since no error can be raised once the kernels run,
// every output indexed by run must hold at least n elements (R <= n), and count
// (count.size() >= 1) must overlap no other argument: both are checked up front
// (parprim::error, errc::invalid_argument). Outputs past R are left as they were.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/by_key.hpp"

namespace parprim {

namespace detail {
// The library's compiled entry points (src/core/unique.cpp), for the six types only; `to`
// says where the run count goes (the host, or count[0] for the _into forms).
template <class K>
std::int64_t unique_precompiled(const context& ctx, span<const K> in, span<K> out,
                                count_target to, workspace* ws);
template <class K, class V>
std::int64_t unique_by_key_precompiled(const context& ctx, span<const K> keys,
                                       span<const V> values, span<K> keys_out,
                                       span<V> values_out, count_target to, workspace* ws);
template <class K>
std::int64_t unique_count_precompiled(const context& ctx, span<const K> in, count_target to,
                                      workspace* ws);
template <class K>
std::int64_t run_length_encode_precompiled(const context& ctx, span<const K> in,
                                           span<K> unique_out, span<std::int64_t> lengths,
                                           count_target to, workspace* ws);
}  // namespace detail

template <class K>
std::int64_t unique(const context& ctx, span<const K> in, span<K> out, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique));
  return detail::unique_precompiled(ctx, in, out, {}, ws);
}

template <class K>
void unique_into(const context& ctx, span<const K> in, span<K> out, span<std::int64_t> count,
                 workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_into));
  detail::unique_precompiled(ctx, in, out, detail::count_target{true, count}, ws);
}

template <class K, class V>
std::int64_t unique_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_by_key));
  return detail::unique_by_key_precompiled(ctx, keys, values, keys_out, values_out, {}, ws);
}

template <class K, class V>
void unique_by_key_into(const context& ctx, span<const K> keys, span<const V> values,
                        span<K> keys_out, span<V> values_out, span<std::int64_t> count,
                        workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_by_key_into));
  detail::unique_by_key_precompiled(ctx, keys, values, keys_out, values_out,
                                    detail::count_target{true, count}, ws);
}

template <class K>
std::int64_t unique_count(const context& ctx, span<const K> in, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_count));
  return detail::unique_count_precompiled(ctx, in, {}, ws);
}

template <class K>
void unique_count_into(const context& ctx, span<const K> in, span<std::int64_t> count,
                       workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_count_into));
  detail::unique_count_precompiled(ctx, in, detail::count_target{true, count}, ws);
}

template <class K>
std::int64_t run_length_encode(const context& ctx, span<const K> in, span<K> unique_out,
                               span<std::int64_t> lengths, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(run_length_encode));
  return detail::run_length_encode_precompiled(ctx, in, unique_out, lengths, {}, ws);
}

template <class K>
void run_length_encode_into(const context& ctx, span<const K> in, span<K> unique_out,
                            span<std::int64_t> lengths, span<std::int64_t> count,
                            workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(run_length_encode_into));
  detail::run_length_encode_precompiled(ctx, in, unique_out, lengths,
                                        detail::count_target{true, count}, ws);
}

inline namespace PARPRIM_TU_NAMESPACE {

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t unique(const context& ctx, span<E> in, span<detail::value_t<E>> out, Eq eq,
                    workspace* ws = nullptr) {
  detail::checker c(ctx, "unique");
  return detail_runs::run_call<detail::runs_kind::heads>(
      c, "unique", "in", detail::unique_call(c, detail::as_input(in), out), {}, eq,
      detail::no_fold{}, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
void unique_into(const context& ctx, span<E> in, span<detail::value_t<E>> out,
                 span<std::int64_t> count, Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_into");
  detail_runs::run_call<detail::runs_kind::heads>(
      c, "unique_into", "in", detail::unique_call(c, detail::as_input(in), out),
      detail::count_target{true, count}, eq, detail::no_fold{}, ws);
}

// The values are copied at each run's first element, never folded.
template <class KE, class VE, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t unique_by_key(const context& ctx, span<KE> keys, span<VE> values,
                           span<detail::value_t<KE>> keys_out, span<detail::value_t<VE>> values_out,
                           Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_by_key");
  return detail_runs::run_call<detail::runs_kind::heads>(
      c, "unique_by_key", "keys",
      detail::pairs_call(c, detail::as_input(keys), detail::as_input(values), keys_out, values_out),
      {}, eq, detail::no_fold{}, ws);
}

template <class KE, class VE, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
void unique_by_key_into(const context& ctx, span<KE> keys, span<VE> values,
                        span<detail::value_t<KE>> keys_out, span<detail::value_t<VE>> values_out,
                        span<std::int64_t> count, Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_by_key_into");
  detail_runs::run_call<detail::runs_kind::heads>(
      c, "unique_by_key_into", "keys",
      detail::pairs_call(c, detail::as_input(keys), detail::as_input(values), keys_out, values_out),
      detail::count_target{true, count}, eq, detail::no_fold{}, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t unique_count(const context& ctx, span<E> in, Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_count");
  return detail_runs::run_call<detail::runs_kind::heads>(
      c, "unique_count", "in", detail::unique_count_call(c, detail::as_input(in)), {}, eq,
      detail::no_fold{}, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
void unique_count_into(const context& ctx, span<E> in, span<std::int64_t> count, Eq eq,
                       workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_count_into");
  detail_runs::run_call<detail::runs_kind::heads>(
      c, "unique_count_into", "in", detail::unique_count_call(c, detail::as_input(in)),
      detail::count_target{true, count}, eq, detail::no_fold{}, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t run_length_encode(const context& ctx, span<E> in, span<detail::value_t<E>> unique_out,
                               span<std::int64_t> lengths, Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "run_length_encode");
  return detail_runs::run_call<detail::runs_kind::lengths>(
      c, "run_length_encode", "in",
      detail::lengths_call(c, detail::as_input(in), unique_out, lengths), {}, eq,
      detail::plus_op<std::int64_t>{}, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
void run_length_encode_into(const context& ctx, span<E> in, span<detail::value_t<E>> unique_out,
                            span<std::int64_t> lengths, span<std::int64_t> count, Eq eq,
                            workspace* ws = nullptr) {
  detail::checker c(ctx, "run_length_encode_into");
  detail_runs::run_call<detail::runs_kind::lengths>(
      c, "run_length_encode_into", "in",
      detail::lengths_call(c, detail::as_input(in), unique_out, lengths),
      detail::count_target{true, count}, eq, detail::plus_op<std::int64_t>{}, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim
