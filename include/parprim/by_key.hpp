// Reductions and scans over runs of consecutive equal keys.
//
// A run is a maximal stretch of consecutive elements whose keys compare equal with `==`
// (IEEE for floats: -0.0 == +0.0 share a run; NaN != NaN, so every NaN key is a run of its
// own). Keys need not be sorted: equal keys that are not adjacent form separate runs.
//
//   reduce_by_key          keys_out[r] = the key at the start of run r,
//                          values_out[r] = values of run r folded with `o`, left to right;
//                          returns the number of runs R. keys_out and values_out must hold
//                          at least R elements; when either is smaller, parprim::error
//                          (errc::invalid_argument) is thrown and nothing is written.
//   inclusive_scan_by_key  out[i] = fold of the values of i's run up to and including i
//   exclusive_scan_by_key  out[i] = init op (fold of the values of i's run before i), so the
//                          first element of each run gets init
//
// Integers wrap (two's complement). Floats are folded in a fixed order that depends on n
// only, so results are bitwise reproducible from run to run, but not the sequential order.
// `out` of the scans may alias `values` exactly (in place); other overlaps are rejected.
// Precompiled for every pair of key and value types among i32 u32 i64 u64 f32 f64.
// reduce_by_key returns to the host (it waits for the device); the scans are stream-ordered.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class K, class V>
std::int64_t reduce_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, op o = op::plus,
                           workspace* ws = nullptr);

template <class K, class V>
void inclusive_scan_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<V> out, op o = op::plus, workspace* ws = nullptr);

template <class K, class V>
void exclusive_scan_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<V> out, V init = V{}, op o = op::plus, workspace* ws = nullptr);

}  // namespace parprim
