// Stable merge of two sorted ranges.
//
//   merge         out = the elements of a and b in order; on equal keys every element of a
//                 comes before those of b, and each range keeps its own order (stable)
//   merge_by_key  the same for keys, with each value travelling with its key
//
// Order: radix_sort's (parprim/sort.hpp): ascending is the numeric order with -0.0 before
// +0.0 and NaNs after +inf; descending is its exact reverse. Ranges sorted by radix_sort in
// the same direction are valid inputs, NaNs included, and merging them gives what sorting
// their concatenation would.
//
// Unsorted inputs: the CPU backend checks both ranges and throws parprim::error
// (errc::invalid_argument) naming the first unsorted position before anything is written. On
// CUDA the merge kernel checks every adjacent pair it loads and the error is raised by the
// next ctx.synchronize(); `out` is then unspecified, and nothing outside it is written.
// out.size() == a.size() + b.size(); outputs must not overlap inputs. Precompiled for keys
// (and values) of i32 u32 i64 u64 f32 f64. Stream-ordered on CUDA.
#pragma once

#include "parprim/context.hpp"
#include "parprim/sort.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class T>
void merge(const context& ctx, span<const T> a, span<const T> b, span<T> out,
           sort_order order = sort_order::ascending, workspace* ws = nullptr);

template <class K, class V>
void merge_by_key(const context& ctx, span<const K> a_keys, span<const V> a_values,
                  span<const K> b_keys, span<const V> b_values, span<K> keys_out,
                  span<V> values_out, sort_order order = sort_order::ascending,
                  workspace* ws = nullptr);

}  // namespace parprim
