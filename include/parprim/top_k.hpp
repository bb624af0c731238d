// The k largest (or smallest) elements of n, without sorting all n.
//
//   top_k        out = the k largest keys (order = descending) or the k smallest
//                (order = ascending), k in [1, n]
//   top_k_pairs  the same for keys, with each value travelling with its key
//
// Order: radix_sort's (parprim/sort.hpp): numeric, -0.0 below +0.0, NaNs above +inf (so NaNs
// count as the largest keys). Ties at the k-th key are broken by position: the earliest
// elements are taken. With sorted = true, out is in `order` (ties in input order, as a stable
// sort gives); with sorted = false, out holds the chosen elements in input order.
// k outside [1, in.size()] or out.size() != k throws parprim::error (errc::invalid_argument)
// before anything is written. Precompiled for keys (and values) of i32 u32 i64 u64 f32 f64.
// Stream-ordered on CUDA.
//
// Algorithm: radix select. Histograms of digits of the order-preserving key image, most
// significant first (12 bits, then 8), narrow down the k-th key one digit per pass; one more
// pass counts and places the chosen elements (a stable compaction); then, for sorted output,
// a radix sort of the k chosen elements only. On CUDA, when the elements at or below the
// first digit's choice (the candidates) are at most n/8, they are copied out in input order
// after the first pass and every later pass reads only them (for top_k_pairs the final
// compaction still reads all n); this costs one wait for a count on the host.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/sort.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class T>
void top_k(const context& ctx, span<const T> in, std::int64_t k, span<T> out,
           sort_order order = sort_order::descending, bool sorted = true,
           workspace* ws = nullptr);

template <class K, class V>
void top_k_pairs(const context& ctx, span<const K> keys, span<const V> values, std::int64_t k,
                 span<K> keys_out, span<V> values_out, sort_order order = sort_order::descending,
                 bool sorted = true, workspace* ws = nullptr);

}  // namespace parprim
