// Stream compaction, partition and split: moving elements by a predicate or into buckets,
// keeping their input order (all three are stable).
//
//   copy_if     out[0..count) = the elements x with pred(x), in input order; returns count.
//   partition   out = the selected elements in input order, then the rejected ones in input
//               order; returns the number selected.
//   split       out = the elements of bucket 0, then bucket 1, ..., each in input order (the
//               course's split: per-block histograms, exclusive scan, scatter).
//
// Predicates and bucket functions are small descriptions rather than functors, so that the
// precompiled library can evaluate them on both backends:
//   predicate<float>{compare::less, 0.5f}          x < 0.5
//   predicate<std::uint32_t>{compare::bits_set, 1}  odd x: (bits(x) & bits(value)) != 0
//   bucket_fn::key_bits(24, 8)                     bucket = bits 24..31 of the sort key
//   bucket_fn::even_range(0.0, 1.0, 10)            10 equal-width buckets over [0, 1)
// Comparisons are IEEE for floats: NaN compares false with everything except not_equal.
//
// `out` must not overlap `in`. All calls are stream-ordered on CUDA; copy_if and partition
// return their count to the host and therefore wait for the device; copy_if_into leaves the
// count in device memory instead.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

enum class compare { less, less_equal, greater, greater_equal, equal, not_equal, bits_set };

const char* to_string(compare c) noexcept;

// pred(x) = x <cmp> value; for bits_set, (bits of x AND bits of value) != 0.
template <class T>
struct predicate {
  compare cmp = compare::less;
  T value{};
};

// Maps an element to a bucket in [0, buckets()).
//   key_bits(shift, width): bucket = (key >> shift) & (2^width - 1), where key is the element's
//     order-preserving unsigned image used by radix_sort (ascending). Buckets are therefore in
//     increasing value order when the field holds the top bits, and split by key_bits is one
//     counting-sort pass of a radix sort. 2^width buckets, width in [1, 12].
//   even_range(lower, upper, buckets): bucket = floor((double(x) - lower) * s) with
//     s = double(buckets) / (upper - lower) computed once, clamped to [0, buckets - 1]:
//     values below lower go to bucket 0, values at or above upper and NaNs to the last
//     bucket. buckets in [1, 4096]; lower < upper, both finite.
struct bucket_fn {
  enum class kind { key_bits, even_range };
  kind how = kind::key_bits;
  int shift = 0;
  int width = 1;
  double lower = 0.0;
  double upper = 1.0;
  std::int64_t count = 2;

  static constexpr std::int64_t max_buckets = 4096;

  static bucket_fn key_bits(int shift, int width) {
    bucket_fn f;
    f.how = kind::key_bits;
    f.shift = shift;
    f.width = width;
    return f;
  }
  static bucket_fn even_range(double lower, double upper, std::int64_t buckets) {
    bucket_fn f;
    f.how = kind::even_range;
    f.lower = lower;
    f.upper = upper;
    f.count = buckets;
    return f;
  }
  // Number of buckets; 0 for a width outside [1, 12].
  std::int64_t buckets() const {
    if (how == kind::even_range) return count;
    return (width >= 1 && width <= 12) ? (std::int64_t(1) << width) : 0;
  }
};

// out.size() must be at least in.size(). Returns the number of selected elements.
template <class T>
std::int64_t copy_if(const context& ctx, span<const T> in, span<T> out, predicate<T> pred,
                     workspace* ws = nullptr);

// As copy_if, but the count is written to count[0] on the backend (count.size() == 1):
// no host synchronization.
template <class T>
void copy_if_into(const context& ctx, span<const T> in, span<T> out, span<std::int64_t> count,
                  predicate<T> pred, workspace* ws = nullptr);

// out.size() must equal in.size(). Returns the number of selected elements (out[0..count)).
template <class T>
std::int64_t partition(const context& ctx, span<const T> in, span<T> out, predicate<T> pred,
                       workspace* ws = nullptr);

// out.size() must equal in.size(). bucket_offsets is optional: when non-empty it must hold
// f.buckets() + 1 values on the backend and receives the first position of each bucket in
// out, then n.
template <class T>
void split(const context& ctx, span<const T> in, span<T> out, bucket_fn f,
           span<std::int64_t> bucket_offsets = {}, workspace* ws = nullptr);

}  // namespace parprim
