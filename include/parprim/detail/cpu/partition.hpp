// CPU compaction and partition, the one body behind copy_if and partition on the CPU
// backend: the course's lock-free split on threads.
//
// Each fixed-size block (one per task, independent of the thread count) is handled by one
// thread in three steps: (1) count its selected elements, (2) an exclusive scan of the counts
// gives each block its write positions, (3) each block writes its elements in input order.
// Stable by construction (the reversed partition writes its rejected run backwards from the
// end). The predicate is evaluated twice per element.
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/select_mode.hpp"
#include "parprim/span.hpp"

namespace parprim::detail::cpu {

inline constexpr std::int64_t select_block = 1 << 16;

// Selected elements to out[0..count) in order, the rejected ones after them as `mode` says
// (select_mode.hpp). Returns count.
template <class T, class Pred>
std::int64_t select(const context& ctx, span<const T> in, span<T> out, Pred pred,
                    select_mode mode) {
  const std::int64_t n = in.size();
  if (n == 0) return 0;
  const T* x = in.data();
  T* y = out.data();
  const std::int64_t blocks = block_count(n, select_block);
  std::vector<std::int64_t> selected(static_cast<std::size_t>(blocks));
  // Step 1: selected elements per block.
  blocked_for(ctx, n, select_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    std::int64_t c = 0;
    for (std::int64_t i = s; i < e; ++i) c += pred(x[i]) ? 1 : 0;
    selected[static_cast<std::size_t>(b)] = c;
  });
  // Step 2: exclusive scan; the rejected elements of block b start after every selected one
  // and the rejected ones of earlier blocks: total + (block start - selected before).
  std::int64_t total = 0;
  for (auto& c : selected) {
    std::int64_t t = c;
    c = total;
    total += t;
  }
  // Step 3: write in input order. The reversed layout puts the r-th rejected element
  // (counting from 0 in input order) at n - 1 - r.
  blocked_for(ctx, n, select_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    std::int64_t so = selected[static_cast<std::size_t>(b)];
    if (mode == select_mode::compact) {
      for (std::int64_t i = s; i < e; ++i)
        if (pred(x[i])) y[so++] = x[i];
    } else if (mode == select_mode::stable_partition) {
      std::int64_t ro = total + (s - so);
      for (std::int64_t i = s; i < e; ++i) {
        if (pred(x[i])) y[so++] = x[i];
        else y[ro++] = x[i];
      }
    } else {
      std::int64_t ro = n - 1 - (s - so);
      for (std::int64_t i = s; i < e; ++i) {
        if (pred(x[i])) y[so++] = x[i];
        else y[ro--] = x[i];
      }
    }
  });
  return total;
}

}  // namespace parprim::detail::cpu
