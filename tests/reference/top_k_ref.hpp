// Sequential oracle for top_k: a stable sort of the positions by the documented key order
// (reference::key_less, radix_sort's order), the first k taken.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "reference/sort_ref.hpp"

namespace parprim::reference {

// All positions, largest (or smallest) key first, ties in input order.
template <class K>
std::vector<std::int64_t> ranked_positions(const std::vector<K>& x, bool largest) {
  std::vector<std::int64_t> p(x.size());
  std::iota(p.begin(), p.end(), 0);
  std::stable_sort(p.begin(), p.end(), [&](std::int64_t a, std::int64_t b) {
    return largest ? key_less(x[b], x[a]) : key_less(x[a], x[b]);
  });
  return p;
}

// Positions of the k chosen elements: in key order (sorted) or in input order.
inline std::vector<std::int64_t> top_k_positions(const std::vector<std::int64_t>& ranked,
                                                 std::int64_t k, bool sorted) {
  std::vector<std::int64_t> p(ranked.begin(), ranked.begin() + k);
  if (!sorted) std::sort(p.begin(), p.end());
  return p;
}

}  // namespace parprim::reference
