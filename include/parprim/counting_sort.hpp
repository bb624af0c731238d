// counting_sort: stable sort of integer keys drawn from a small range.
//
// Keys must lie in [min_key, min_key + key_range), 1 <= key_range <= max_counting_sort_range.
// The algorithm is the course's histogram -> exclusive scan -> stable scatter: count each
// key per tile, scan the counts in key-major order (all tiles of key 0, then of key 1, ...),
// and scatter every element to its key's offset for its tile plus its rank among equal keys
// in the tile. Equal keys keep their input order, so the values carried along are permuted
// stably. Output arrays must not overlap the inputs.
//
// A key outside the range is reported as parprim::error with errc::out_of_range naming the
// first offending position: on cpu by the call, before anything is written; on cuda by the
// next ctx.synchronize() (the output is then incomplete).
//
// Key types: int32_t and uint32_t. Value types: the six of types.hpp.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim {

inline constexpr std::int64_t max_counting_sort_range = 4096;

template <class K>
void counting_sort(const context& ctx, span<const K> keys_in, span<K> keys_out,
                   std::int64_t key_range, K min_key = K(0));

template <class K, class V>
void counting_sort_pairs(const context& ctx, span<const K> keys_in, span<const V> values_in,
                         span<K> keys_out, span<V> values_out, std::int64_t key_range,
                         K min_key = K(0));

}  // namespace parprim
