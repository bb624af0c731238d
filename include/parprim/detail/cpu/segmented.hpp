// CPU body of the segmented primitives (detail/segmented.hpp), for any value type and
// associative operator: fixed blocks of the input, three phases.
//   1. each block's run state (heads seen, value since the last head, tag of the last head):
//      the scans find the last head and fold from it; segmented_reduce folds every run and
//      writes those that start in the block;
//   2. the block states are scanned in block order (a few thousand at most);
//   3. the scans walk each block again from its exclusive prefix and write; segmented_reduce
//      only closes the run each block continues. A run is written when the next one starts
//      (by the block holding that head) or at the end.
// Blocks depend on n only, so float results are the same on any number of threads; values
// are combined left to right, so the operator need not be commutative.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/cpu/scan_parts.hpp"
#include "parprim/detail/cpu/segment_runs.hpp"
#include "parprim/detail/segmented.hpp"

namespace parprim::detail::cpu::segments {

// One non-head element of a scan: s folds it and its output is written. With `carry` (a float
// run carried in from earlier blocks, s folded from the block's first element) the outputs
// combine the carry in.
template <class V, class Op>
inline void scan_element(state<V>& s, const segments_job<V>& job, std::int64_t i, Op op,
                         const state<V>* carry) {
  const V before = !carry ? s.value : s.valid ? op(carry->value, s.value) : carry->value;
  step(s, job, i, false, 0, op);
  job.scan_out[i] = job.inclusive ? (carry ? op(carry->value, s.value) : s.value) : before;
}

// Float stretches of scan_parts_from elements or more scan in parts side by side
// (cpu/scan_parts.hpp) instead of one chain of dependent adds: writes out[i, h) from `before`,
// the run's value before x[i], and says whether it did. 2^24 f32 in one segment on 2 threads:
// 11.2-12.4 -> 7.1-9.8 ms (builds alternated three times; one run 11.6).
template <class V, class Op>
bool scan_in_parts(const V* x, V* out, std::int64_t i, std::int64_t h, V before, bool inclusive,
                   Op op) {
  if constexpr (std::is_floating_point_v<V>) {
    if (h - i >= scan_parts_from) {
      const auto parts = fold_parts<V>(x, i, h, identity_map{}, op);
      scan_by_parts(x, out, i, h, before, parts, inclusive, identity_map{}, op);
      return true;
    }
  }
  return false;
}

// The scan's outputs of the elements [i, h) before a block's first head, none of them a head:
// the run carried in from earlier blocks continues (`carry`: a float run, s folded from the
// block's first element, the outputs combining the carry in). Each value is read before its
// output is written (the scans may run in place). The state is taken by value: taken by
// reference, it escaped into this call and was kept in memory, reloaded after every output
// store (segments of 1, 2^22 f32 on 2 threads: 5.4-7.2 ms, by value 3.7-3.8 ms).
template <class V, class Op>
inline void scan_stretch(state<V> s, const segments_job<V>& job, std::int64_t i, std::int64_t h, Op op,
                         const state<V>* carry) {
  if (i < h && !s.valid) scan_element(s, job, i++, op, carry);
  const V* x = job.values;
  V* out = job.scan_out;
  V acc = s.value;
  if (scan_in_parts(x, out, i, h, carry ? op(carry->value, acc) : acc, job.inclusive, op)) return;
  if (!carry && job.inclusive) {
    for (; i < h; ++i) out[i] = acc = op(acc, x[i]);
  } else if (!carry) {
    for (; i < h; ++i) {
      const V v = x[i];
      out[i] = acc;
      acc = op(acc, v);
    }
  } else if (job.inclusive) {
    for (const V c = carry->value; i < h; ++i) {
      acc = op(acc, x[i]);
      out[i] = op(c, acc);
    }
  } else {
    for (const V c = carry->value; i < h; ++i) {
      const V v = x[i];
      out[i] = op(c, acc);
      acc = op(acc, v);
    }
  }
}

// Phase 3 of a scan by offsets from the head at h (segment `segment`) to the block's end, one
// segment at a time: the head's value, then a plain scan of the rest, with the job's fields
// in locals (the sequential loop's shape). Going through the head finder and the run state at
// every head, segments of 1 took 8.5 ms for 2^22 f32 on 2 threads, the sequential scan 2.5-3.4.
// Values are combined in the same order as in that walk, so the bits are the same.
template <class V, class Op>
void scan_segments(const segments_job<V>& job, std::int64_t h, std::int64_t segment, std::int64_t end,
                   Op op) {
  const V* x = job.values;
  V* out = job.scan_out;
  const std::int64_t* o = job.offsets;
  const std::int64_t first = o[0];
  const V init = job.init;
  const bool has_init = job.has_init, inclusive = job.inclusive;
  for (std::int64_t seg = segment; seg < job.segments && h < end; ++seg, h = o[seg] - first) {
    const std::int64_t stop = std::min(o[seg + 1] - first, end);
    if (stop <= h) continue;  // empty
    V acc = has_init ? op(init, x[h]) : x[h];
    out[h] = inclusive ? acc : init;
    if (scan_in_parts(x, out, h + 1, stop, acc, inclusive, op)) continue;
    if (inclusive) {
      for (std::int64_t i = h + 1; i < stop; ++i) out[i] = acc = op(acc, x[i]);
    } else {
      for (std::int64_t i = h + 1; i < stop; ++i) {
        const V v = x[i];
        out[i] = acc;
        acc = op(acc, v);
      }
    }
  }
}

// The same for a scan by head flags: from the head at h, each run's head value, then a plain
// scan up to the next set flag.
template <class V, class Op>
void scan_flagged_runs(const segments_job<V>& job, std::int64_t h, std::int64_t end, Op op) {
  const V* x = job.values;
  V* out = job.scan_out;
  const std::uint8_t* flags = job.flags;
  const V init = job.init;
  const bool has_init = job.has_init, inclusive = job.inclusive;
  while (h < end) {
    V acc = has_init ? op(init, x[h]) : x[h];
    out[h] = inclusive ? acc : init;
    std::int64_t i = h + 1;
    if (inclusive) {
      for (; i < end && flags[i] == 0; ++i) out[i] = acc = op(acc, x[i]);
    } else {
      for (; i < end && flags[i] == 0; ++i) {
        const V v = x[i];
        out[i] = acc;
        acc = op(acc, v);
      }
    }
    h = i;
  }
}

// Phase 3 of a scan, block [begin, end): walks it again from its exclusive prefix and writes
// (the scan jobs have values and a scan output, and no reduced output). Floating-point values
// fold from the block's first element, and the outputs of the run carried in from earlier
// blocks combine the prefix in: the running value stays one block's sum (cpu/by_key.hpp's
// folds_within_block says why: one f32 segment of 2^26 values in [0, 1) otherwise ends half
// its sum short). From the block's first head on, every run starts afresh.
template <class V, class Op>
void write_block(const segments_job<V>& job, const state<V>& carry, std::int64_t begin, std::int64_t end,
                 Op op) {
  head_finder<V> heads(job, begin);
  std::int64_t tag = 0;
  const std::int64_t h = heads.next(begin, end, tag, false);
  // The stretch before the block's first head continues the run carried in.
  if (begin < h) {
    const bool continuing = std::is_floating_point_v<V> && carry.valid;
    scan_stretch(continuing ? state<V>{} : carry, job, begin, h, op, continuing ? &carry : nullptr);
  }
  if (job.offsets) scan_segments(job, h, tag, end, op);
  else scan_flagged_runs(job, h, end, op);
}

// segmented_reduce (one value per segment, no scan): phase 1 writes every run that starts in
// its block as the next head closes it, so phase 3 only finishes the run each block continues
// instead of folding the whole block again. Both passes folded every value before: 2^22 f32
// in segments of 4096 took 2.3 ms on 2 threads, the sequential loop 2.2 ms.
template <class V>
bool closes_runs_in_phase_one(const segments_job<V>& job) {
  return job.reduced_out && job.by_segment && !job.scan_out;
}

// Phase 3 of closes_runs_in_phase_one: the run carried into block [begin, end) folds on to
// the block's first head, where it closes (a run reaching the end of the input is closed by
// the caller, from the whole input's state).
template <class V, class Op>
void close_carried_run(const segments_job<V>& job, const state<V>& carry, std::int64_t begin,
                       std::int64_t end, Op op) {
  if (!carry.valid) return;
  head_finder<V> heads(job, begin);
  std::int64_t tag = 0;
  const std::int64_t h = heads.next(begin, end, tag, false);
  if (h == end) return;
  constexpr bool from_block = std::is_floating_point_v<V>;  // write_block says why
  state<V> s = from_block ? state<V>{} : carry;
  fold_stretch(s, job, begin, h, op);
  close_run(job, from_block ? combine(carry, s, op) : s);
}

// fold_and_close_runs by offsets: the block's segments straight off the offsets, the open
// run in locals (value, segment) and written when the next non-empty segment starts. Through
// the head finder and step() at every head, with the state in memory, segments of 1 took
// 37 ms for 2^24 f32 on 2 threads, now 20-21 ms (15-17 with the vectorized offsets check).
// Same order of operations, so the same bits.
template <class V, class Op>
state<V> fold_and_close_segments(const segments_job<V>& job, std::int64_t begin, std::int64_t end,
                                 Op op) {
  const std::int64_t* o = job.offsets;
  const std::int64_t first = o[0];
  const V* x = job.values;
  V* out = job.reduced_out;
  const V init = job.init;
  const bool has_init = job.has_init;
  std::int64_t seg = std::lower_bound(o, o + job.segments + 1, first + begin) - o;
  state<V> s;
  // Before the block's first segment start: the run carried in from earlier blocks.
  fold_stretch(s, job, begin, seg < job.segments ? std::min(o[seg] - first, end) : end, op);
  V value{};
  std::int64_t open = -1, heads = 0;  // open: the segment of the run being folded
  for (; seg < job.segments && o[seg] - first < end; ++seg) {
    const std::int64_t start = o[seg] - first;
    const std::int64_t stop = std::min(o[seg + 1] - first, end);
    if (stop == start) {
      out[seg] = init;  // empty
      continue;
    }
    if (open >= 0) out[open] = value;
    value = fold_values(x, start + 1, stop, has_init ? op(init, x[start]) : x[start], op);
    open = seg;
    ++heads;
  }
  if (heads > 0) {
    s.value = value;
    s.valid = true;
    s.heads += heads;
    s.tag = open;
  }
  return s;
}

// Phase 1 of closes_runs_in_phase_one: folds block [begin, end) run by run, writing each run
// that starts in the block when the next head closes it; returns the block's state.
template <class V, class Op>
state<V> fold_and_close_runs(const segments_job<V>& job, std::int64_t begin, std::int64_t end, Op op) {
  if (job.offsets && job.values) return fold_and_close_segments(job, begin, end, op);
  head_finder<V> heads(job, begin);
  state<V> s;
  for (std::int64_t i = begin; i < end;) {
    std::int64_t tag = 0;
    const std::int64_t h = heads.next(i, end, tag, true);
    fold_stretch(s, job, i, h, op);
    if (h == end) break;
    if (s.heads > 0) close_run(job, s);  // a run that started in this block
    step(s, job, h, true, tag, op);
    i = h + 1;
  }
  return s;
}

// Phase 1 of the other jobs (the scans): a block's state is whether it holds a head and the
// fold since its last head, so only the last head is looked for (a binary search in the
// offsets, then back over empty segments; with flags, back from the block's end) and only
// the values after it are read. Walking every run here made the scans in segments of 1 take
// 13 ms for 2^22 f32 on 2 threads, 3-4x the sequential scan; counting the heads still read
// every offset of the block, a third of the scan's traffic in segments of 1. The state's
// `heads` is then 0 or 1, all that combine() and the scans look at.
template <class V, class Op>
state<V> block_state(const segments_job<V>& job, std::int64_t begin, std::int64_t end, Op op) {
  std::int64_t last = -1, tag = 0;
  if (job.offsets) {
    const std::int64_t* o = job.offsets;
    // Segment s starts at o[s] - o[0]; `after` is the first segment starting at or past end.
    const std::int64_t* after = std::lower_bound(o, o + job.segments, o[0] + end);
    for (const std::int64_t* seg = after - 1; seg >= o && *seg - o[0] >= begin; --seg)
      if (seg[1] > seg[0]) {  // non-empty: its start is a head
        last = *seg - o[0];
        tag = seg - o;
        break;
      }
  } else {
    for (std::int64_t i = end - 1; i >= begin; --i)
      if (i == 0 || job.flags[i] != 0) {
        last = tag = i;
        break;
      }
  }
  state<V> s;
  std::int64_t from = begin;
  if (last >= 0) {
    step(s, job, last, true, tag, op);
    from = last + 1;
  }
  fold_stretch(s, job, from, end, op);
  return s;
}

// Runs the job with operator `op` (the segmented primitives do not ask for the run count).
template <class V, class Op>
void run(const context& ctx, const segments_job<V>& job, Op op) {
  const std::int64_t n = job.n;
  const std::int64_t blocks = block_count(n, block_elements);
  std::vector<state<V>> prefix(static_cast<std::size_t>(blocks) + 1);
  if (n == 0) {  // only empty segments
    head_finder<V>(job, 0).finish(true);
    return;
  }
  const bool early = closes_runs_in_phase_one(job);

  // Phase 1: one state per block.
  blocked_for(ctx, n, block_elements, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    prefix[b + 1] = early ? fold_and_close_runs(job, begin, end, op) : block_state(job, begin, end, op);
  });
  // Phase 2: exclusive prefixes in block order; prefix[blocks] is the whole input's state.
  for (std::int64_t b = 0; b < blocks; ++b) prefix[b + 1] = combine(prefix[b], prefix[b + 1], op);

  // Phase 3: walk again from each block's prefix and write.
  if (early) {
    blocked_for(ctx, n, block_elements, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      close_carried_run(job, prefix[b], begin, end, op);
    });
    close_run(job, prefix[blocks]);
    head_finder<V>(job, n).finish(true);
    return;
  }
  if (!job.scan_out) return;
  blocked_for(ctx, n, block_elements, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    write_block(job, prefix[b], begin, end, op);
  });
}

}  // namespace parprim::detail::cpu::segments
