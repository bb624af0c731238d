// Comparisons, binary searches and merge-path splits on key words, shared by the CPU and CUDA
// bodies of merge and lower_bound / upper_bound. Keys travel as their raw 32- or 64-bit
// words and are compared through the order-preserving image of sort_keys.hpp, so both
// primitives use radix_sort's order: -0.0 before +0.0, NaNs after +inf, and inputs sorted by
// radix_sort are sorted for them.
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"

namespace parprim::detail {

template <class U>
struct key_order {
  key_kind kind;
  bool descending;
  PARPRIM_HD bool less(U a, U b) const {
    return ordered_bits(a, kind, descending) < ordered_bits(b, kind, descending);
  }
  // As a comparator (the merge path searches of parprim/cuda/detail/merge_path_warp.cuh).
  PARPRIM_HD bool operator()(U a, U b) const { return less(a, b); }
};

// First i in [0, n) with !(a[i] < q) (lower) or q < a[i] (upper); n if none.
template <class U, bool Upper>
PARPRIM_HD std::int64_t bound(const U* a, std::int64_t n, U q, key_order<U> ord) {
  std::int64_t lo = 0, len = n;
  while (len > 0) {
    const std::int64_t half = len / 2;
    const std::int64_t mid = lo + half;
    const bool right = Upper ? !ord.less(q, a[mid]) : ord.less(a[mid], q);
    if (right) {
      lo = mid + 1;
      len -= half + 1;
    } else {
      len = half;
    }
  }
  return lo;
}

// How many of the first `diag` elements of the stable merge of a and b (a first on ties)
// come from a (Green, McColl & Bader's merge path, as in moderngpu's merge_path).
template <class U>
PARPRIM_HD std::int64_t merge_path(const U* a, std::int64_t na, const U* b, std::int64_t nb,
                                   std::int64_t diag, key_order<U> ord) {
  std::int64_t lo = diag > nb ? diag - nb : 0;
  std::int64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (!ord.less(b[diag - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace parprim::detail
