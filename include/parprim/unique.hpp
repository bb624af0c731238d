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
// then hold the first min(sizes) runs. Outputs must not overlap the inputs. All return R to
// the host (they wait for the device).
//
//   Precompiled (any compiler): keys (and values) of i32 u32 i64 u64 f32 f64, compared with ==.
//   Generic (header-only): any trivially copyable key and value and any equality `eq`:
//     unique(ctx, in, out, eq), unique_by_key(ctx, keys, values, keys_out, values_out, eq),
//     unique_count(ctx, in, eq), run_length_encode(ctx, in, unique_out, lengths, eq).
//   On a CUDA context a generic call must be compiled by nvcc (else it throws
//   parprim::error(errc::backend_unavailable)).
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/by_key.hpp"

namespace parprim {

namespace detail {
// The library's compiled entry points (src/core/unique.cpp), for the six types only.
template <class K>
std::int64_t unique_precompiled(const context& ctx, span<const K> in, span<K> out, workspace* ws);
template <class K, class V>
std::int64_t unique_by_key_precompiled(const context& ctx, span<const K> keys,
                                       span<const V> values, span<K> keys_out,
                                       span<V> values_out, workspace* ws);
template <class K>
std::int64_t unique_count_precompiled(const context& ctx, span<const K> in, workspace* ws);
template <class K>
std::int64_t run_length_encode_precompiled(const context& ctx, span<const K> in,
                                           span<K> unique_out, span<std::int64_t> lengths,
                                           workspace* ws);
}  // namespace detail

template <class K>
std::int64_t unique(const context& ctx, span<const K> in, span<K> out, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique));
  return detail::unique_precompiled(ctx, in, out, ws);
}

template <class K, class V>
std::int64_t unique_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K> && is_arithmetic_type_v<V>,
                PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_by_key));
  return detail::unique_by_key_precompiled(ctx, keys, values, keys_out, values_out, ws);
}

template <class K>
std::int64_t unique_count(const context& ctx, span<const K> in, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unique_count));
  return detail::unique_count_precompiled(ctx, in, ws);
}

template <class K>
std::int64_t run_length_encode(const context& ctx, span<const K> in, span<K> unique_out,
                               span<std::int64_t> lengths, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<K>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(run_length_encode));
  return detail::run_length_encode_precompiled(ctx, in, unique_out, lengths, ws);
}

namespace detail {
// The value type of the calls that fold nothing and copy no value.
using no_value = std::uint32_t;
}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t unique(const context& ctx, span<E> in, span<detail::value_t<E>> out, Eq eq,
                    workspace* ws = nullptr) {
  detail::checker c(ctx, "unique");
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  detail::runs_io<detail::value_t<E>, detail::no_value> io;
  io.n = in.size();
  io.keys = in.data();
  io.keys_out = out.data();
  detail::run_outputs outs;
  outs.name[0] = "out";
  outs.size[0] = out.size();
  io.capacity = outs.capacity();
  return detail_runs::run<detail::runs_kind::heads>(c, "unique", io, eq, detail::no_fold{},
                                                    outs, ws);
}

template <class KE, class VE, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t unique_by_key(const context& ctx, span<KE> keys, span<VE> values,
                           span<detail::value_t<KE>> keys_out, span<detail::value_t<VE>> values_out,
                           Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_by_key");
  detail::check_pairs_in_out(c, detail::as_input(keys), detail::as_input(values), keys_out,
                             values_out);
  const auto [io, outs] = detail::pairs_job_of(detail::as_input(keys), detail::as_input(values),
                                               keys_out, values_out);
  // The values are copied at each run's first element, never folded.
  return detail_runs::run<detail::runs_kind::heads>(c, "unique_by_key", io, eq,
                                                    detail::no_fold{}, outs, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t unique_count(const context& ctx, span<E> in, Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "unique_count");
  c.valid(in, "in");
  detail::runs_io<detail::value_t<E>, detail::no_value> io;
  io.n = in.size();
  io.keys = in.data();
  return detail_runs::run<detail::runs_kind::heads>(c, "unique_count", io, eq,
                                                    detail::no_fold{},
                                                    detail::run_outputs{}, ws);
}

template <class E, class Eq, class = std::enable_if_t<std::is_class_v<Eq>>>
std::int64_t run_length_encode(const context& ctx, span<E> in, span<detail::value_t<E>> unique_out,
                               span<std::int64_t> lengths, Eq eq, workspace* ws = nullptr) {
  detail::checker c(ctx, "run_length_encode");
  c.valid(in, "in");
  c.valid(unique_out, "unique_out");
  c.valid(lengths, "lengths");
  c.no_overlap(in, "in", unique_out, "unique_out", false);
  c.no_overlap(in, "in", lengths, "lengths", false);
  c.no_overlap(unique_out, "unique_out", lengths, "lengths", false);
  // Lengths are 64-bit whatever n is: a run may be longer than 2^32 elements.
  detail::runs_io<detail::value_t<E>, std::int64_t> io;
  io.n = in.size();
  io.keys = in.data();
  io.keys_out = unique_out.data();
  io.values_out = lengths.data();
  detail::run_outputs outs;
  outs.name[0] = "unique_out";
  outs.size[0] = unique_out.size();
  outs.name[1] = "lengths";
  outs.size[1] = lengths.size();
  io.capacity = outs.capacity();
  return detail_runs::run<detail::runs_kind::lengths>(c, "run_length_encode", io, eq,
                                                     detail::plus_op<std::int64_t>{}, outs, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim
