// The CPU backend's radix select (parprim/top_k.hpp) on raw key words: writes the k chosen
// elements in input order. U = u32 or u64, W = the value word (values may be null).
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"

namespace parprim::cpu_backend {

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest);

// Segmented: segment s's min(k, length) chosen elements to out[s*k ...], in order of the
// selection image (sorted) or in input order. Offsets are checked, absolute positions.
template <class U, class W>
void segmented_top_k(const context& ctx, const U* in, const W* values,
                     const std::int64_t* offsets, std::int64_t segments, std::int64_t k, U* out,
                     W* out_values, detail::key_kind kind, bool largest, bool sorted);

}  // namespace parprim::cpu_backend
