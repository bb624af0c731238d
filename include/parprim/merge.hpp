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
//
// With a comparator: merge(ctx, a, b, out, comp) and merge_by_key(..., values_out, comp), for
// any trivially copyable key and value (up to 96 bytes of key plus value on CUDA) and any
// strict weak order `comp(x, y)` ("x before y"): a functor, or on CUDA a __host__ __device__
// functor or extended lambda. Stable in the same way; a and b must be sorted by comp.
//   Which one a call gets: a sort_order (or none) selects the precompiled merge above (the
//   fast path for the six types: it compares order-preserving key images in one kernel of its
//   own); a comparator selects the generic one, compiled where it is called: on the CPU the
//   output is cut into blocks of 2^16 that find their inputs by merge path, on CUDA it runs
//   merge_sort's merge pass (parprim/cuda/merge_sort.cuh) on the two ranges, so a comparator
//   on a CUDA context needs the call compiled by nvcc (elsewhere a parprim::error says so).
//   Unsorted inputs: the CPU checks both ranges with comp before writing anything and throws
//   parprim::error naming the first unsorted position. On CUDA they are not detected: `out`
//   (and values_out) then holds unspecified elements of a and b; nothing is read outside a
//   and b and nothing is written outside the outputs.
//   Temporary memory on CUDA: one 8-byte split per output tile (512 to 3840 outputs), from `ws` when given.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/merge.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/merge_sort.hpp"
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

namespace detail {

template <class Comp>
inline constexpr bool is_comparator_v = !std::is_same_v<Comp, sort_order>;

// The checks of every merge front end: spans, sizes, overlap, workspace.
template <class K>
void check_merge_args(const checker& c, span<const K> a, const char* a_name, span<const K> b,
                      const char* b_name, span<K> out, const char* out_name, workspace* ws) {
  c.valid(a, a_name);
  c.valid(b, b_name);
  c.valid(out, out_name);
  c.same_size(a.size() + b.size(), (std::string(a_name) + ".size() + " + b_name).c_str(),
              out.size(), out_name);
  c.no_overlap(a, a_name, out, out_name, false);
  c.no_overlap(b, b_name, out, out_name, false);
  c.own_workspace(ws);
}

// CPU only: both ranges sorted by comp, or an error naming the first unsorted position.
template <class K, class Comp>
void check_merge_sorted(const checker& c, span<const K> a, const char* a_name, span<const K> b,
                        const char* b_name, Comp comp) {
  for (int side = 0; side < 2; ++side) {
    const span<const K> x = side == 0 ? a : b;
    const std::int64_t p = cpu::first_unsorted(c.ctx(), x.data(), x.size(), comp);
    if (p >= 0)
      c.fail(std::string(side == 0 ? a_name : b_name) + " is not sorted by the comparator: element " +
             std::to_string(p + 1) + " comes before element " + std::to_string(p));
  }
}

}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {

template <class T, class Comp, class = std::enable_if_t<detail::is_comparator_v<Comp>>>
void merge(const context& ctx, detail::no_deduce_t<span<const T>> a,
           detail::no_deduce_t<span<const T>> b, span<T> out, Comp comp, workspace* ws = nullptr) {
  detail::check_element_type<T>();
  detail::checker c(ctx, "merge");
  detail::check_merge_args(c, a, "a", b, "b", out, "out", ws);
  if (out.size() == 0) return;
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::merge_tag, detail::with_nvcc<T>>::run(
        ctx, "merge", std::false_type{}, a.data(), static_cast<const T*>(nullptr), a.size(),
        b.data(), static_cast<const T*>(nullptr), b.size(), out.data(), static_cast<T*>(nullptr),
        comp, ws);
  detail::check_merge_sorted(c, a, "a", b, "b", comp);
  detail::cpu::merge(ctx, a.data(), a.size(), b.data(), b.size(), out.data(), comp);
}

template <class K, class V, class Comp, class = std::enable_if_t<detail::is_comparator_v<Comp>>>
void merge_by_key(const context& ctx, detail::no_deduce_t<span<const K>> a_keys,
                  detail::no_deduce_t<span<const V>> a_values,
                  detail::no_deduce_t<span<const K>> b_keys,
                  detail::no_deduce_t<span<const V>> b_values, span<K> keys_out,
                  span<V> values_out, Comp comp, workspace* ws = nullptr) {
  detail::check_element_type<K>();
  detail::check_element_type<V>();
  detail::checker c(ctx, "merge_by_key");
  detail::check_merge_args(c, a_keys, "a_keys", b_keys, "b_keys", keys_out, "keys_out", ws);
  detail::check_merge_args(c, a_values, "a_values", b_values, "b_values", values_out,
                           "values_out", nullptr);
  c.same_size(a_keys.size(), "a_keys", a_values.size(), "a_values");
  c.no_overlap(keys_out, "keys_out", values_out, "values_out", false);
  c.no_overlap(a_keys, "a_keys", values_out, "values_out", false);
  c.no_overlap(b_keys, "b_keys", values_out, "values_out", false);
  c.no_overlap(a_values, "a_values", keys_out, "keys_out", false);
  c.no_overlap(b_values, "b_values", keys_out, "keys_out", false);
  if (keys_out.size() == 0) return;
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::merge_tag, detail::with_nvcc<K>>::run(
        ctx, "merge_by_key", std::true_type{}, a_keys.data(), a_values.data(), a_keys.size(),
        b_keys.data(), b_values.data(), b_keys.size(), keys_out.data(), values_out.data(), comp,
        ws);
  detail::check_merge_sorted(c, a_keys, "a_keys", b_keys, "b_keys", comp);
  detail::cpu::merge_by_key(ctx, a_keys.data(), a_values.data(), a_keys.size(), b_keys.data(),
                            b_values.data(), b_keys.size(), keys_out.data(), values_out.data(),
                            comp);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/merge.cuh"
#endif
