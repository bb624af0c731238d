// The OpenMP backend's gather, scatter, histogram and counting sort. Front ends call these
// after validating arguments; out-of-range indices and keys are found (first_outside_*) and
// reported before any of the writing entry points runs.
#pragma once

#include <cstdint>

#include "core/scatter_model.hpp"
#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim::cpu_backend {

// The lowest i with indices[i] outside [0, size), or -1.
template <class I>
std::int64_t first_outside(const context& ctx, span<const I> indices, std::int64_t size);

// All indices are known to be in range.
template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out);
// passes >= 1; passes > 1 writes one slice of `out` per pass.
template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             int passes);

// B_seq and B_rand(S) of the host, for the multi-pass scatter's cost model.
detail::scatter_bandwidths measure_scatter_bandwidths(const context& ctx);

template <class T>
void histogram(const context& ctx, span<const T> samples, span<std::uint64_t> bins_out,
               std::int64_t num_bins, T lower, T upper);

// The lowest i with keys[i] outside [min_key, min_key + key_range), or -1.
template <class K>
std::int64_t first_key_outside(const context& ctx, span<const K> keys, K min_key,
                               std::int64_t key_range);

// Keys are known to be in range; V is any 4- or 8-byte type (values may be empty: keys only).
template <class K, class V>
void counting_sort(const context& ctx, span<const K> keys_in, span<const V> values_in,
                   span<K> keys_out, span<V> values_out, std::int64_t key_range, K min_key);

}  // namespace parprim::cpu_backend
