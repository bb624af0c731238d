// CPU compaction and partition, the one body behind copy_if and partition on the CPU
// backend: the course's lock-free split on threads.
//
// One chained pass (block_chain under blocked_for, as in scan.hpp) over fixed-size
// blocks, independent of the thread count. Each block counts its selected elements, waits for
// the count of all earlier blocks, publishes its own, and writes while its elements are still
// in the core's L2 (2^16 4-byte elements, 256 KiB): the input is read from memory once.
// Selected elements go to the front in input order. The rejected ones need the total count
// for their place, which the pass cannot know; their place counted from the back it does know
// (block b has s_b - before_b rejected elements before it), so every mode first writes them
// from the back in reverse input order (select_mode::reversed_partition, final as it is for
// unstable_partition), and the stable partition then reverses that run in place.
//
// Why the reversal rather than a count pass first (the former two-pass layout) or a
// temporary: per element, counting write-allocate as a read, the count pass moves 4 elements
// (read to count, read again, write = read for ownership + write back); one pass plus the
// in-place reversal of the r rejected ones moves 3 + 2 r/n (each swapped line is read once and
// written back once, no fresh ownership read): the same at r = n/2, less below (25% less at
// r = 0), more above (25% more at r = n); a temporary for the rejected ones would move
// 3 + 5 r/n (written once, copied once) and allocate. The reversed partition moves 3 always.
// The predicate is evaluated up to three times per element, the last two on cache-hot data
// (count, selected, rejected); the write loops are branch-free (a 50% selection would
// mispredict every other branch). `parprim bench partition --backend cpu --sizes 2^24`
// (u32, 50%, 2 threads on a loaded 2-core host, two runs each, so only indicative): partition
// 345-548 ms with the former count pass and branchy write loop, 171-208 ms now;
// unstable_partition 364-544 ms, now 138-173 ms.
#pragma once

#include <cstdint>
#include <utility>

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

// Writes the `count` rejected elements of x[s..) to y[top], y[top - 1], ..., in input order:
// write_selected's mirror (every element is written at `top`, only rejected ones move it down;
// nothing lands below top - count + 1, where the next block writes).
template <class T, class Pred>
void write_rejected_reversed(const T* x, std::int64_t s, T* y, std::int64_t top, std::int64_t count,
                             Pred pred) {
  const std::int64_t end = top - count;
  for (std::int64_t i = s; top > end; ++i) {
    const T v = x[i];
    y[top] = v;
    top -= pred(v) ? 0 : 1;
  }
}

// The chained single pass: selected elements to y[0..count) in input order; with
// `rejected_too`, the rejected ones to y[count..n) in reverse input order. Returns count.
template <class T, class Pred>
std::int64_t select_chained(const context& ctx, span<const T> in, span<T> out, Pred pred,
                            bool rejected_too) {
  const std::int64_t n = in.size();
  const T* x = in.data();
  T* y = out.data();
  const std::int64_t blocks = block_count(n, select_block);
  block_chain<std::int64_t> chain(blocks);
  blocked_for(ctx, n, select_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    const std::int64_t count = count_selected(x, s, e, pred);
    const std::int64_t at = b == 0 ? 0 : chain.wait(b);
    chain.publish(b, at + count);
    write_selected(x, s, y, at, count, pred);
    // The s - at rejected elements before this block fill y[n - (s - at)..n).
    if (rejected_too) write_rejected_reversed(x, s, y, n - 1 - (s - at), (e - s) - count, pred);
  });
  return chain.wait(blocks);
}

// Reverses y[begin..end) in place, in parallel: block k swaps its part of the first half with
// the mirrored part of the second.
template <class T>
void reverse_in_place(const context& ctx, T* y, std::int64_t begin, std::int64_t end) {
  const std::int64_t half = (end - begin) / 2;
  blocked_for(ctx, half, select_block, [&](std::int64_t, std::int64_t s, std::int64_t e) {
    for (std::int64_t i = s; i < e; ++i) std::swap(y[begin + i], y[end - 1 - i]);
  });
}

// Selected elements to out[0..count) in order, the rejected ones after them as `mode` says
// (select_mode.hpp). Returns count.
template <class T, class Pred>
std::int64_t select(const context& ctx, span<const T> in, span<T> out, Pred pred,
                    select_mode mode) {
  const std::int64_t n = in.size();
  if (n == 0) return 0;
  const std::int64_t count = select_chained(ctx, in, out, pred, mode != select_mode::compact);
  if (mode == select_mode::stable_partition) reverse_in_place(ctx, out.data(), count, n);
  return count;
}

}  // namespace parprim::detail::cpu
