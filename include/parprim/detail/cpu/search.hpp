// The CPU body of the generic lower_bound / upper_bound (parprim/search.hpp): one binary
// search per query, queries split into fixed blocks over the library's threads.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/merge_sort.hpp"

namespace parprim::detail::cpu {

// lower bound: the first i with !comp(sorted[i], x); upper bound: the first i with
// comp(x, sorted[i]); n when there is none. Also the per-query search of the CUDA body.
template <bool Upper, class T, class Comp>
PARPRIM_HOST_DEVICE std::int64_t bound_of(const T* sorted, std::int64_t n, const T& x, Comp comp) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    const bool after = Upper ? !comp(x, sorted[mid]) : comp(sorted[mid], x);
    if (after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

template <bool Upper, class T, class Comp>
void search(const context& ctx, const T* sorted, std::int64_t n, const T* queries,
            std::int64_t nq, std::int64_t* out, Comp comp) {
  constexpr std::int64_t block = std::int64_t(1) << 14;
  blocked_for(ctx, nq, block, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t q = begin; q < end; ++q) out[q] = bound_of<Upper>(sorted, n, queries[q], comp);
  });
}

}  // namespace parprim::detail::cpu
