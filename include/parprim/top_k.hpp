// The k largest (or smallest) elements of n, without sorting all n.
//
//   top_k        out = the k largest keys (order = descending) or the k smallest
//                (order = ascending), k in [1, n]
//   top_k_pairs  the same for keys, with each value travelling with its key
//   segmented_top_k, segmented_top_k_pairs
//                the same in every segment of an offsets array (offsets as in
//                parprim/segmented.hpp: S + 1 non-decreasing positions into the input, checked
//                before anything is written). Segment s's results go to out[s*k ...]: its
//                min(k, length) chosen elements, so a segment shorter than k gives all its
//                elements (ordered as asked) and the slots after them are left as they were;
//                an empty segment writes nothing. out.size() must be S * k, k >= 1.
//
// Order: radix_sort's (parprim/sort.hpp): numeric, -0.0 below +0.0, NaNs above +inf (so NaNs
// count as the largest keys). Ties at the k-th key are broken by position: the earliest
// elements are taken. With sorted = true, out is in `order` (ties in input order, as a stable
// sort gives); with sorted = false, out holds the chosen elements in input order.
// k outside [1, in.size()] or out.size() != k throws parprim::error (errc::invalid_argument)
// before anything is written. Precompiled for keys (and values) of i32 u32 i64 u64 f32 f64.
// Stream-ordered on CUDA.
//
// Segmented algorithm: on the CPU, one parallel loop over segments, each a heap of the k
// smallest (key image, position) pairs kept in one read of the segment (for k above a
// sixteenth of the segment, nth_element over all its pairs and a sort of the k); a segment of
// 2 max(2^16, 16 k) elements or more is cut into one part per thread, then merged.
// On CUDA, for k <= 32 and segments of 256 or more elements on average: blocks over equal
// chunks of the keys, each warp keeping its best k candidates in registers, in one read of
// the keys (a segment that crosses chunks: its parts' lists merged by a second kernel),
// whatever the segments' lengths; for k >= 4 and segments of 4096 to 2^14 elements on
// average, the same chunks with each block selecting tile by tile by radix digits instead. For k > 32 and segments of 2^22 or more elements on
// average: each segment by top_k's radix select in turn (below), its k then sorted. Otherwise
// a stable segmented_sort_pairs of (key, position) and a slice of each segment's first k positions
// (then, for unsorted output, a sort of those positions), then a gather: the cost of a
// segmented sort, plus a copy of the covered keys and positions (4-byte keys there need
// offsets[S] <= 2^32).
//
// Algorithm on the CPU: first a threshold from a fixed sample of 8192 keys, set so that at
// least k and few keys reach it (the sampled k-th key plus four standard deviations); one
// pass copies the keys that reach it with their positions, and the k-th smallest of those
// decides. When fewer than k keys reach the threshold, or more than max(k, n/16) do (many
// equal keys, a sample that misjudged the input, or k above about n/16): radix select, as on
// CUDA.
// Algorithm on CUDA: radix select. Histograms of digits of the order-preserving key image, most
// significant first (12 bits, then 8), narrow down the k-th key one digit per pass; one more
// pass counts and places the chosen elements (a stable compaction); then, for sorted output,
// a radix sort of the k chosen elements only. On CUDA, when the elements at or below the
// first digit's choice (the candidates) are at most n/8, they are copied out in input order
// after the first pass and every later pass reads only them (for top_k_pairs the final
// compaction still reads all n); this costs one wait for a count on the host, so up to 16 MiB
// of keys every pass reads the input instead (from L2 after the first). For k <= 32 and
// n <= 2^18 (where that select's dozen launches dominate), segmented_top_k's chunked select
// over one segment instead (above), in two or three launches.
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

template <class T>
void segmented_top_k(const context& ctx, span<const T> in, span<const std::int64_t> offsets,
                     std::int64_t k, span<T> out, sort_order order = sort_order::descending,
                     bool sorted = true, workspace* ws = nullptr);

template <class K, class V>
void segmented_top_k_pairs(const context& ctx, span<const K> keys, span<const V> values,
                           span<const std::int64_t> offsets, std::int64_t k, span<K> keys_out,
                           span<V> values_out, sort_order order = sort_order::descending,
                           bool sorted = true, workspace* ws = nullptr);

}  // namespace parprim
