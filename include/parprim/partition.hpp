// Stream compaction, partition and split: moving elements by a predicate or into buckets,
// keeping their input order (all three are stable), and an unstable partition.
//
//   copy_if     out[0..count) = the elements x with pred(x), in input order; returns count.
//   partition   out = the selected elements in input order, then the rejected ones in input
//               order; returns the number selected.
//   unstable_partition
//               out = the selected elements in input order, then the rejected ones in
//               *reverse* input order (the first rejected element lands at out[n - 1]); the
//               layout of cub::DevicePartition::If. One pass over the data on CUDA (the
//               stable partition reads the input twice); returns the number selected.
//   split       out = the elements of bucket 0, then bucket 1, ..., each in input order (the
//               course's split: per-block histograms, exclusive scan, scatter).
//
// Generic overloads (header-only, any trivially copyable T, any predicate functor or
// __host__ __device__ lambda bool(const T&)):
//   copy_if(ctx, in, out, [] __host__ __device__ (const T& x) { return ...; })
//   copy_if_into(ctx, in, out, count, pred), partition(ctx, in, out, pred),
//   unstable_partition(ctx, in, out, pred)
// On a CUDA context a generic call must be compiled by nvcc; from any other compiler it
// throws parprim::error(errc::backend_unavailable) saying so.
//
// The precompiled overloads take small descriptions rather than functors, so that the
// library can evaluate them on both backends without compiling the caller's code:
//   predicate<float>{compare::less, 0.5f}          x < 0.5
//   predicate<std::uint32_t>{compare::bits_set, 1}  odd x: (bits(x) & bits(value)) != 0
//   bucket_fn::key_bits(24, 8)                     bucket = bits 24..31 of the sort key
//   bucket_fn::even_range(0.0, 1.0, 10)            10 equal-width buckets over [0, 1)
// Comparisons are IEEE for floats: NaN compares false with everything except not_equal.
//
// `out` must not overlap `in`. All calls are stream-ordered on CUDA; copy_if and the
// partitions return their count to the host and therefore wait for the device; copy_if_into leaves the
// count in device memory instead.
#pragma once

#include <cstdint>

#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/partition.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/select_mode.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
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

namespace detail {
// The library's compiled entry points (src/core/partition.cpp), for the six types only.
template <class T>
std::int64_t copy_if_precompiled(const context& ctx, span<const T> in, span<T> out,
                                 predicate<T> pred, workspace* ws);
template <class T>
void copy_if_into_precompiled(const context& ctx, span<const T> in, span<T> out,
                              span<std::int64_t> count, predicate<T> pred, workspace* ws);
template <class T>
std::int64_t partition_precompiled(const context& ctx, span<const T> in, span<T> out,
                                   predicate<T> pred, workspace* ws);
template <class T>
std::int64_t unstable_partition_precompiled(const context& ctx, span<const T> in, span<T> out,
                                            predicate<T> pred, workspace* ws);
}  // namespace detail

// out.size() must be at least in.size(). Returns the number of selected elements.
template <class T>
std::int64_t copy_if(const context& ctx, span<const T> in, span<T> out, predicate<T> pred,
                     workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(copy_if));
  return detail::copy_if_precompiled(ctx, in, out, pred, ws);
}

// As copy_if, but the count is written to count[0] on the backend (count.size() == 1):
// no host synchronization.
template <class T>
void copy_if_into(const context& ctx, span<const T> in, span<T> out, span<std::int64_t> count,
                  predicate<T> pred, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(copy_if_into));
  detail::copy_if_into_precompiled(ctx, in, out, count, pred, ws);
}

// out.size() must equal in.size(). Returns the number of selected elements (out[0..count)).
template <class T>
std::int64_t partition(const context& ctx, span<const T> in, span<T> out, predicate<T> pred,
                       workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(partition));
  return detail::partition_precompiled(ctx, in, out, pred, ws);
}

// out.size() must equal in.size(). Returns the number of selected elements (out[0..count));
// the rejected ones fill out[count..n) in reverse input order.
template <class T>
std::int64_t unstable_partition(const context& ctx, span<const T> in, span<T> out,
                                predicate<T> pred, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(unstable_partition));
  return detail::unstable_partition_precompiled(ctx, in, out, pred, ws);
}

// out.size() must equal in.size(). bucket_offsets is optional: when non-empty it must hold
// f.buckets() + 1 values on the backend and receives the first position of each bucket in
// out, then n.
template <class T>
void split(const context& ctx, span<const T> in, span<T> out, bucket_fn f,
           span<std::int64_t> bucket_offsets = {}, workspace* ws = nullptr);

namespace detail {

template <class P>
inline constexpr bool is_predicate_description = false;
template <class T>
inline constexpr bool is_predicate_description<predicate<T>> = true;

// Validation shared by the precompiled and generic copy_if / partition.
template <class T>
void check_select_args(const checker& c, span<const T> in, span<T> out, bool exact_size,
                       workspace* ws) {
  c.valid(in, "in");
  c.valid(out, "out");
  if (exact_size) {
    c.same_size(in.size(), "in", out.size(), "out");
  } else if (out.size() < in.size()) {
    c.fail("out.size()=" + std::to_string(out.size()) + " is smaller than in.size()=" +
           std::to_string(in.size()) + " (every element may be selected)");
  }
  c.no_overlap(in, "in", out, "out", /*allow_same=*/false);
  c.own_workspace(ws);
}

}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {

namespace detail_select {
// Runs the selection; count_device (backend memory) receives the count when given. Returns
// the count when `to_host` (waiting for the device), else -1 on CUDA.
template <class T, class Pred>
std::int64_t run(const char* function, const context& ctx, span<const T> in, span<T> out,
                 Pred pred, detail::select_mode mode, std::int64_t* count_device, bool to_host,
                 workspace* ws) {
  if (ctx.kind() == backend::cpu) {
    const std::int64_t count = detail::cpu::select(ctx, in, out, pred, mode);
    if (count_device) *count_device = count;
    return count;
  }
  detail::temp_memory temp(ctx, nullptr, count_device ? 0 : sizeof(std::int64_t));
  std::int64_t* target = count_device ? count_device : temp.as<std::int64_t>();
  detail::cuda_body<detail::select_tag, detail::with_nvcc<T>>::run(ctx, function, in, out, pred,
                                                                   mode, target, ws);
  if (!to_host) return -1;
  std::int64_t value = 0;
  ctx.copy_to_host(&value, target, sizeof(value));
  return value;
}
}  // namespace detail_select

template <class E, class Pred, class T = detail::value_t<E>,
          class = std::enable_if_t<!detail::is_predicate_description<Pred>>>
std::int64_t copy_if(const context& ctx, span<E> input, span<T> out, Pred pred,
                workspace* ws = nullptr) {
  const span<const T> in = detail::as_input(input);
  detail::check_element_type<T>();
  detail::checker c(ctx, "copy_if");
  detail::check_select_args(c, in, out, /*exact_size=*/false, ws);
  return detail_select::run("copy_if", ctx, in, out, pred, detail::select_mode::compact, nullptr,
                            true, ws);
}

template <class E, class Pred, class T = detail::value_t<E>,
          class = std::enable_if_t<!detail::is_predicate_description<Pred>>>
void copy_if_into(const context& ctx, span<E> input, span<T> out, span<std::int64_t> count,
                  Pred pred, workspace* ws = nullptr) {
  const span<const T> in = detail::as_input(input);
  detail::check_element_type<T>();
  detail::checker c(ctx, "copy_if_into");
  detail::check_select_args(c, in, out, /*exact_size=*/false, ws);
  c.valid(count, "count");
  if (count.size() != 1) c.fail("count.size()=" + std::to_string(count.size()) + " but must be 1");
  c.no_overlap(in, "in", count, "count", false);
  c.no_overlap(out, "out", count, "count", false);
  detail_select::run("copy_if_into", ctx, in, out, pred, detail::select_mode::compact,
                     count.data(), false, ws);
}

template <class E, class Pred, class T = detail::value_t<E>,
          class = std::enable_if_t<!detail::is_predicate_description<Pred>>>
std::int64_t partition(const context& ctx, span<E> input, span<T> out, Pred pred,
                workspace* ws = nullptr) {
  const span<const T> in = detail::as_input(input);
  detail::check_element_type<T>();
  detail::checker c(ctx, "partition");
  detail::check_select_args(c, in, out, /*exact_size=*/true, ws);
  return detail_select::run("partition", ctx, in, out, pred,
                            detail::select_mode::stable_partition, nullptr, true, ws);
}

template <class E, class Pred, class T = detail::value_t<E>,
          class = std::enable_if_t<!detail::is_predicate_description<Pred>>>
std::int64_t unstable_partition(const context& ctx, span<E> input, span<T> out, Pred pred,
                                workspace* ws = nullptr) {
  const span<const T> in = detail::as_input(input);
  detail::check_element_type<T>();
  detail::checker c(ctx, "unstable_partition");
  detail::check_select_args(c, in, out, /*exact_size=*/true, ws);
  return detail_select::run("unstable_partition", ctx, in, out, pred,
                            detail::select_mode::reversed_partition, nullptr, true, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/partition.cuh"
#endif
