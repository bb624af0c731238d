// CPU compaction and partition, the one body behind copy_if and partition on the CPU
// backend: the course's lock-free split on threads.
//
// Fixed-size blocks (independent of the thread count). Each block counts its selected
// elements, learns where it writes, and writes its elements in input order: stable by
// construction. Where a block learns its write position differs:
//   * copy_if: a chained single pass (block_chain, as in scan.hpp): the block waits for the
//     count of all earlier blocks, publishes its own, and writes while its elements are still
//     in the core's L2 (2^16 4-byte elements, 256 KiB), so the input is read from memory once;
//   * partition: the rejected elements go after every selected one, so the blocks need the
//     total first: count every block, scan the counts, then a second parallel pass writes
//     (the reversed partition writes its rejected run backwards from the end).
// The predicate is evaluated twice per element. copy_if's write loop is branch-free (a 50%
// selection would mispredict every other branch).
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/select_mode.hpp"
#include "parprim/span.hpp"

namespace parprim::detail::cpu {

inline constexpr std::int64_t select_block = 1 << 16;

template <class T, class Pred>
std::int64_t count_selected(const T* x, std::int64_t s, std::int64_t e, Pred pred) {
  std::int64_t c = 0;
  for (std::int64_t i = s; i < e; ++i) c += pred(x[i]) ? 1 : 0;
  return c;
}

// Writes the `count` selected elements of x[s..) to y[at..at + count). Branch-free: every
// element is written at `at`, and only the selected ones advance it; the loop ends at the
// last selected element, so no write lands past at + count, where the next block writes.
template <class T, class Pred>
void write_selected(const T* x, std::int64_t s, T* y, std::int64_t at, std::int64_t count,
                    Pred pred) {
  const std::int64_t end = at + count;
  for (std::int64_t i = s; at < end; ++i) {
    const T v = x[i];
    y[at] = v;
    at += pred(v) ? 1 : 0;
  }
}

// copy_if: the chained single pass.
template <class T, class Pred>
std::int64_t select_chained(const context& ctx, span<const T> in, span<T> out, Pred pred) {
  const std::int64_t n = in.size();
  const T* x = in.data();
  T* y = out.data();
  const std::int64_t blocks = block_count(n, select_block);
  block_chain<std::int64_t> chain(blocks);
  blocked_for_in_order(ctx, n, select_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    const std::int64_t count = count_selected(x, s, e, pred);
    const std::int64_t at = b == 0 ? 0 : chain.wait(b);
    chain.publish(b, at + count);
    write_selected(x, s, y, at, count, pred);
  });
  return chain.wait(blocks);
}

// Selected elements to out[0..count) in order, the rejected ones after them as `mode` says
// (select_mode.hpp). Returns count.
template <class T, class Pred>
std::int64_t select(const context& ctx, span<const T> in, span<T> out, Pred pred,
                    select_mode mode) {
  const std::int64_t n = in.size();
  if (n == 0) return 0;
  if (mode == select_mode::compact) return select_chained(ctx, in, out, pred);
  const T* x = in.data();
  T* y = out.data();
  const std::int64_t blocks = block_count(n, select_block);
  std::vector<std::int64_t> selected(static_cast<std::size_t>(blocks));
  // Step 1: selected elements per block.
  blocked_for(ctx, n, select_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    selected[static_cast<std::size_t>(b)] = count_selected(x, s, e, pred);
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
    if (mode == select_mode::stable_partition) {
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
