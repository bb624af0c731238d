// The OpenMP backend's radix sorts. Keys arrive as raw 1-, 2-, 4- or 8-byte words (sort_keys.hpp);
// the front end has validated sizes, pointers and the bit range, and n > 1.
#pragma once

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/sort.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cpu_backend {

// Parallel LSD radix sort with 8-bit digits (per-thread histograms, prefix, stable scatter).
void radix_sort_lsd(const context& ctx, const detail::sort_request& r, workspace* ws);

// The course's 1-bit split radix sort (e, f, totalFalses, t, d), one split per bit.
void radix_sort_split_1bit(const context& ctx, const detail::sort_request& r, workspace* ws);

}  // namespace parprim::cpu_backend
