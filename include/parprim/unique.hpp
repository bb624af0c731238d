// Unique elements and run-length encoding of runs of consecutive equal keys.
//
// Runs are as in by_key.hpp: maximal stretches of consecutive keys equal under `==` (IEEE:
// -0.0 == +0.0 share a run and the first one's bits are kept; NaN != NaN, so every NaN is
// its own run). Like std::unique, only adjacent duplicates are removed.
//
//   unique             out[r] = the first key of run r; returns the number of runs R
//   unique_by_key      keys_out[r] = the first key of run r, values_out[r] = its value
//   unique_count       R, without writing anything
//   run_length_encode  unique_out[r] = the first key of run r, lengths[r] = its length
//
// Every output indexed by run must hold at least R elements; when one is smaller,
// parprim::error (errc::invalid_argument) is thrown and nothing is written. Outputs must not
// overlap the inputs. All return R to the host (they wait for the device).
// Precompiled for keys (and values) of i32 u32 i64 u64 f32 f64.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class K>
std::int64_t unique(const context& ctx, span<const K> in, span<K> out, workspace* ws = nullptr);

template <class K, class V>
std::int64_t unique_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, workspace* ws = nullptr);

template <class K>
std::int64_t unique_count(const context& ctx, span<const K> in, workspace* ws = nullptr);

template <class K>
std::int64_t run_length_encode(const context& ctx, span<const K> in, span<K> unique_out,
                               span<std::int64_t> lengths, workspace* ws = nullptr);

}  // namespace parprim
