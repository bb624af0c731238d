// Vectorized binary search: for every query, its position in one sorted range.
//
//   lower_bound  out[q] = the first i with !(sorted[i] < queries[q]), or sorted.size()
//   upper_bound  out[q] = the first i with queries[q] < sorted[i], or sorted.size()
//
// `sorted` must be ascending in radix_sort's order (parprim/sort.hpp): the numeric order, with
// -0.0 before +0.0 and NaNs after +inf, so a range sorted by radix_sort qualifies, NaNs
// included, and a NaN query is placed among the NaNs by its bits. Sortedness is not checked
// (it would cost a pass over the range, which the search otherwise reads only log2(n) of);
// for an unsorted range every out[q] is still within [0, sorted.size()].
// Queries may come in any order; sorted queries run fastest on CUDA, where each tile of 2048
// consecutive queries lying between its first and last one resolves them against the key
// range those two bound (read once, coalesced, when it is short), instead of searching all
// of `sorted` per query.
// out.size() == queries.size(). Precompiled for i32 u32 i64 u64 f32 f64. Stream-ordered on
// CUDA.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim {

template <class T>
void lower_bound(const context& ctx, span<const T> sorted, span<const T> queries,
                 span<std::int64_t> out);

template <class T>
void upper_bound(const context& ctx, span<const T> sorted, span<const T> queries,
                 span<std::int64_t> out);

}  // namespace parprim
