// CPU body of the by-key, unique and run-length primitives (detail/runs.hpp), for any key,
// value, equality and associative operator: fixed blocks of the input, three phases.
//   1. each block folds its elements into a run state (heads seen, fold since the last head);
//   2. the block states are combined in block order (the segmented operator);
//   3. each block walks its elements again from its exclusive prefix and writes. A run's fold
//      is written where the next run starts, or at the end of the input.
// Blocks depend on n only, so float results are the same on any number of threads; values
// are combined left to right, so the operator need not be commutative.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/runs.hpp"

namespace parprim::detail::cpu {

inline constexpr std::int64_t runs_block = 1 << 16;

// The kinds that write one fold per run: reduce, and lengths (a one per element under +).
template <runs_kind Kind>
inline constexpr bool folds_per_run = Kind == runs_kind::reduce || Kind == runs_kind::lengths;

template <class K, class V>
void put_run(const runs_io<K, V>& io, V* out, std::int64_t run, const V& x) {
  if (out && run < io.capacity) out[run] = x;
}

// Whether phase 3 folds each block from its own first element and combines the carry in at
// each output (below) instead of folding on from the carry: for floating-point folds. A
// running f32 total past 2^24 stops growing by elements under 1 (half its ulp), so one run of
// 2^26 values in [0, 1) scanned on from the carry fell short by half its sum; folded within
// the block, the running value stays the size of one block's sum. Integers (exact either way)
// and the kinds that fold no values keep the cheaper loop.
template <runs_kind Kind, class V>
inline constexpr bool folds_within_block =
    std::is_floating_point_v<V> && (Kind == runs_kind::scan || Kind == runs_kind::reduce);

// Counts the heads of [begin, end) into s without a branch per element: unique_count, and
// the first pass of unique and its kin. With a branch on each head, keys with runs of mean
// length 8 (a head in one element of eight, at random) took 2.6 ms on 2 threads for 2^22 u32
// keys where the sequential count took 1.1 ms.
template <class K, class V, class Eq>
void count_heads(const runs_io<K, V>& io, Eq eq, std::int64_t begin, std::int64_t end,
                 run_state<V>& s) {
  if (begin >= end) return;
  std::int64_t heads = begin == 0 ? 1 : 0;
  for (std::int64_t i = std::max<std::int64_t>(begin, 1); i < end; ++i)
    heads += eq(io.keys[i - 1], io.keys[i]) ? 0 : 1;
  s.heads += heads;
  s.valid = 1;
}

// Folds (write false) or folds and writes (write true) elements [begin, end) into s. Under
// folds_within_block, s starts as the identity and carry is the state before the block: the
// outputs of the run carried in combine carry in, and at the block's first head s becomes the
// whole prefix's state, after which the loop is the plain one.
template <runs_kind Kind, class K, class V, class Eq, class Op>
void walk_runs(const runs_io<K, V>& io, Eq eq, Op op, std::int64_t begin, std::int64_t end,
               run_state<V>& s, bool write, const run_state<V>& carry = segmented_op<V, Op>::identity()) {
  if constexpr (Kind == runs_kind::heads) {
    if (!write) return count_heads(io, eq, begin, end, s);
  }
  const segmented_op<V, Op> combine{op};
  bool continuing = folds_within_block<Kind, V> && write && carry.valid;
  for (std::int64_t i = begin; i < end; ++i) {
    const bool head = i == 0 || !eq(io.keys[i - 1], io.keys[i]);
    if constexpr (Kind == runs_kind::heads) {
      if (head) ++s.heads;
      s.valid = 1;
      if (write && head) {
        if (io.keys_out && s.heads - 1 < io.capacity) io.keys_out[s.heads - 1] = io.keys[i];
        if (io.values) put_run(io, io.values_out, s.heads - 1, io.values[i]);
      }
      continue;
    } else {
      V x{};
      if constexpr (Kind == runs_kind::lengths) x = V(1);
      else x = io.values[i];
      if (Kind == runs_kind::scan && head && !io.inclusive) x = op(io.init, x);
      if (!write) {
        fold_element(s, head, x, op);
        continue;
      }
      if (continuing && head) {
        s = combine(carry, s);
        continuing = false;
      }
      if (folds_per_run<Kind> && head && s.valid) put_run(io, io.values_out, s.heads - 1, s.value);
      const V before = !continuing ? s.value : s.valid ? op(carry.value, s.value) : carry.value;
      fold_element(s, head, x, op);
      if (folds_per_run<Kind> && head && io.keys_out && s.heads - 1 < io.capacity)
        io.keys_out[s.heads - 1] = io.keys[i];
      if (Kind == runs_kind::scan)
        io.values_out[i] = io.inclusive ? (continuing ? op(carry.value, s.value) : s.value) : (head ? io.init : before);
    }
  }
  if (continuing) s = combine(carry, s);
  if (folds_per_run<Kind> && write && end == io.n) put_run(io, io.values_out, s.heads - 1, s.value);
}

// Runs the call; returns the number of runs. io.n > 0.
template <runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t runs(const context& ctx, const runs_io<K, V>& io, Eq eq, Op op) {
  using sop = segmented_op<V, Op>;
  const std::int64_t n = io.n;
  const bool writes = Kind == runs_kind::scan || io.keys_out || io.values_out;
  if (n <= runs_block) {
    run_state<V> s = sop::identity();
    walk_runs<Kind>(io, eq, op, 0, n, s, writes);
    return s.heads;
  }
  const std::int64_t blocks = block_count(n, runs_block);
  std::vector<run_state<V>> prefix(static_cast<std::size_t>(blocks) + 1, sop::identity());
  // Phase 1: one state per block.
  blocked_for(ctx, n, runs_block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    run_state<V> s = sop::identity();
    walk_runs<Kind>(io, eq, op, begin, end, s, false);
    prefix[static_cast<std::size_t>(b) + 1] = s;
  });
  // Phase 2: exclusive prefixes in block order; prefix[blocks] covers the whole input.
  const sop combine{op};
  for (std::size_t b = 0; b < static_cast<std::size_t>(blocks); ++b)
    prefix[b + 1] = combine(prefix[b], prefix[b + 1]);
  if (!writes) return prefix.back().heads;
  // Phase 3: walk again from each block's prefix and write (folds_within_block: from the block's
  // first element, the prefix combined in at each output).
  blocked_for(ctx, n, runs_block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    const run_state<V>& carry = prefix[static_cast<std::size_t>(b)];
    run_state<V> s = folds_within_block<Kind, V> ? sop::identity() : carry;
    walk_runs<Kind>(io, eq, op, begin, end, s, true, carry);
  });
  return prefix.back().heads;
}

}  // namespace parprim::detail::cpu
