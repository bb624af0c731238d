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
//
// With a comparator: lower_bound(ctx, sorted, queries, out, comp) and upper_bound(..., comp)
// for any trivially copyable T and strict weak order `comp(x, y)` ("x before y"; a functor,
// or on CUDA a __host__ __device__ functor or extended lambda): out[q] is the first i with
// !comp(sorted[i], queries[q]) (lower) or comp(queries[q], sorted[i]) (upper). `sorted`
// must be sorted by comp; this is not checked, and an unsorted range still gives every out[q]
// within [0, sorted.size()]. Which one a call gets: without a comparator the precompiled
// search above (tiled, the fast path for the six types); with one, the generic search
// compiled where it is called: one binary search per query on either backend (on CUDA one
// thread per query, so a comparator on a CUDA context needs the call compiled by nvcc;
// elsewhere a parprim::error says so).
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/search.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/span.hpp"

namespace parprim {

template <class T>
void lower_bound(const context& ctx, span<const T> sorted, span<const T> queries,
                 span<std::int64_t> out);

template <class T>
void upper_bound(const context& ctx, span<const T> sorted, span<const T> queries,
                 span<std::int64_t> out);

namespace detail {

// The arguments of every search, with or without a comparator.
template <class T>
void check_search(const checker& c, span<const T> sorted, span<const T> queries,
                  span<std::int64_t> out) {
  c.valid(sorted, "sorted");
  c.valid(queries, "queries");
  c.valid(out, "out");
  c.same_size(queries.size(), "queries", out.size(), "out");
  c.no_overlap(sorted, "sorted", out, "out", false);
  c.no_overlap(queries, "queries", out, "out", false);
}

}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {
namespace search_detail {

// In the inline namespace: its CUDA branch differs between nvcc and other compilers.
template <bool Upper, class T, class Comp>
void search_generic(const context& ctx, const char* who, span<const T> sorted,
                    span<const T> queries, span<std::int64_t> out, Comp comp) {
  detail::check_element_type<T>();
  detail::checker c(ctx, who);
  detail::check_search(c, sorted, queries, out);
  if (queries.size() == 0) return;
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::search_tag, detail::with_nvcc<T>>::run(ctx, who, std::bool_constant<Upper>{},
                                                    sorted.data(), sorted.size(), queries.data(),
                                                    queries.size(), out.data(), comp);
  detail::cpu::search<Upper>(ctx, sorted.data(), sorted.size(), queries.data(), queries.size(),
                     out.data(), comp);
}

}  // namespace search_detail

template <class E, class Comp>
void lower_bound(const context& ctx, detail::no_deduce_t<span<const detail::value_t<E>>> sorted,
                 span<E> queries, span<std::int64_t> out, Comp comp) {
  search_detail::search_generic<false>(ctx, "lower_bound", sorted, detail::as_input(queries), out, comp);
}

template <class E, class Comp>
void upper_bound(const context& ctx, detail::no_deduce_t<span<const detail::value_t<E>>> sorted,
                 span<E> queries, span<std::int64_t> out, Comp comp) {
  search_detail::search_generic<true>(ctx, "upper_bound", sorted, detail::as_input(queries), out, comp);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/search.cuh"
#endif
