// The OpenMP backend's radix sorts. Keys arrive as raw 1-, 2-, 4- or 8-byte words (sort_keys.hpp);
// the front end has validated sizes, pointers and the bit range, and n > 1.
#pragma once

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/sort.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cpu_backend {

// The stable radix sort: large inputs split by their top digit into cache-sized buckets that
// are sorted in cache by LSD passes; small ones by parallel LSD passes over the whole array.
// argsort (r.argsort_keys): the scratch keys and the indices are written first.
void radix_sort_lsd(const context& ctx, const detail::sort_request& r, workspace* ws);

// The parallel LSD passes over the whole array alone, whatever the size (8-bit digits,
// fused histogram, write-combined stable scatter).
void radix_sort_lsd_passes(const context& ctx, const detail::sort_request& r, workspace* ws);

// The course's 1-bit split radix sort (e, f, totalFalses, t, d), one split per bit.
void radix_sort_split_1bit(const context& ctx, const detail::sort_request& r, workspace* ws);

}  // namespace parprim::cpu_backend
