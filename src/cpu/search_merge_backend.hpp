// The CPU backend's entry points for lower_bound / upper_bound and merge, on raw key words
// (U = u32 or u64; V = the value word, values may be null) compared by detail::key_order.
#pragma once

#include <cstdint>

#include "core/merge_path.hpp"
#include "parprim/context.hpp"

namespace parprim::cpu_backend {

template <class U>
void search(const context& ctx, const U* sorted, std::int64_t n, const U* queries,
            std::int64_t m, std::int64_t* out, detail::key_order<U> ord, bool upper);

// Returns -1, or the first position p with x[p+1] < x[p] of a (p) or b (a_n + p).
template <class U>
std::int64_t first_unsorted(const context& ctx, const U* a, std::int64_t na, const U* b,
                            std::int64_t nb, detail::key_order<U> ord);

template <class U, class W>
void merge(const context& ctx, const U* a, const W* a_values, std::int64_t na, const U* b,
           const W* b_values, std::int64_t nb, U* out, W* out_values, detail::key_order<U> ord);

}  // namespace parprim::cpu_backend
