// The CPU body of the generic merge and merge_by_key (parprim/merge.hpp): the output is cut
// into fixed blocks, each finds its inputs by merge path and merges them serially (the pieces
// of merge_sort's merge rounds, parprim/merge_sort.hpp), so every thread merges as many
// elements as the others whatever the distribution of the keys.
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/merge_sort.hpp"

namespace parprim::detail::cpu {

// Outputs per block: large enough that the two merge-path searches per block are negligible.
inline constexpr std::int64_t merge_block = std::int64_t(1) << 16;

// The first i with comp(x[i + 1], x[i]) (element i + 1 ordered before element i), or -1.
template <class T, class Comp>
std::int64_t first_unsorted(const context& ctx, const T* x, std::int64_t n, Comp comp) {
  if (n < 2) return -1;
  std::vector<std::int64_t> first(std::size_t(block_count(n - 1, merge_block)), -1);
  blocked_for(ctx, n - 1, merge_block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i)
      if (comp(x[i + 1], x[i])) {
        first[std::size_t(b)] = i;
        return;
      }
  });
  for (std::int64_t p : first)
    if (p >= 0) return p;
  return -1;
}

template <class T, class Comp>
void merge(const context& ctx, const T* a, std::int64_t na, const T* b, std::int64_t nb, T* out,
           Comp comp) {
  blocked_for(ctx, na + nb, merge_block, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    merge_detail::merge_piece(a, na, b, nb, begin, end, out + begin, comp);
  });
}

// merge with values: each value goes where its key goes (ties take a first).
template <class K, class V, class Comp>
void merge_by_key(const context& ctx, const K* a, const V* a_values, std::int64_t na, const K* b,
                  const V* b_values, std::int64_t nb, K* keys_out, V* values_out, Comp comp) {
  blocked_for(ctx, na + nb, merge_block, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    std::int64_t i = merge_detail::merge_path(a, na, b, nb, begin, comp);
    const std::int64_t i_end = merge_detail::merge_path(a, na, b, nb, end, comp);
    std::int64_t j = begin - i;
    const std::int64_t j_end = end - i_end;
    for (std::int64_t o = begin; o < end; ++o) {
      const bool take_a = j >= j_end || (i < i_end && !comp(b[j], a[i]));
      keys_out[o] = take_a ? a[i] : b[j];
      values_out[o] = take_a ? a_values[i++] : b_values[j++];
    }
  });
}

}  // namespace parprim::detail::cpu
