// CPU body of the by-key, unique and run-length primitives (detail/runs.hpp), for any key,
// value, equality and associative operator: fixed blocks of the input, three phases in one
// pass (runs() below says how).
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

// Element i's value as the fold sees it: its value (a one for the lengths); an exclusive scan
// folds init into each run head's value. Both candidates are computed and one is selected.
template <runs_kind Kind, class K, class V, class Op>
V value_at(const runs_io<K, V>& io, const Op& op, std::int64_t i, bool head) {
  if constexpr (Kind == runs_kind::lengths) {
    return V(1);
  } else {
    const V x = io.values[i];
    if (Kind != runs_kind::scan || io.inclusive) return x;
    const V with_init = op(io.init, x);
    return head ? with_init : x;
  }
}

// Phase 1 of the folding kinds, [begin, end) into s (the identity): a block's state is its
// head count and the fold from its last head on (of all its elements when it has none), so
// the block is searched backward for its last head, the heads before it are counted without
// a branch and only the elements from that head on are folded, in
// fold_element's order: the same bits. The operator runs once per element of the block's last
// run instead of once per element (the CUDA thread fold does the same, by_key_thread.cuh).
// Folding every element and selecting on its head cost reduce_by_key in runs of 8 a
// mispredicted branch per run here too: 2 threads, 2^24 u32/f32, runs of 1 / 8 / 512 went
// 14.7 / 22.8 / 8.1 -> 11.9 / 13.0 / 5.8 ms (bench/results/2026-11-24-cpu2-by_key-phase1.md).
// The head count is its own loop: calling count_heads here too slowed unique (which calls it
// for its phase 1) from 3.5 to 5.1 ms in runs of 512, the same source compiled differently.
template <runs_kind Kind, class K, class V, class Eq, class Op>
void fold_block(const runs_io<K, V>& io, const Eq& eq, const Op& op, std::int64_t begin,
                std::int64_t end, run_state<V>& s) {
  if (begin >= end) return;
  auto is_head = [&](std::int64_t i) { return i == 0 || !eq(io.keys[i - 1], io.keys[i]); };
  std::int64_t last = end - 1;
  while (last > begin && !is_head(last)) --last;
  const bool head = is_head(last);  // false only for a block without heads (last == begin)
  V value = value_at<Kind>(io, op, last, head);
  for (std::int64_t i = last + 1; i < end; ++i) value = op(value, value_at<Kind>(io, op, i, false));
  std::int64_t heads = (head ? 1 : 0) + (begin == 0 && last > 0 ? 1 : 0);
  for (std::int64_t i = std::max<std::int64_t>(begin, 1); i < last; ++i)
    heads += eq(io.keys[i - 1], io.keys[i]) ? 0 : 1;
  s.heads += heads;
  s.value = value;
  s.valid = 1;
}

// Phase 3 of the scans without a branch on the heads, for arithmetic values of 4 or 8 bytes.
// g++ 12 compiles `head ? x : op(value, x)` to a branch, whatever the hint
// (__builtin_expect_with_probability changed nothing), and one head in eight at random (runs
// of mean 8) mispredicts it: 2^24 u32/f32 on 2 threads took 18.7 ms against 8.2 / 10.1 ms for
// runs of 1 / 512. The select is a blend of the bits instead, which alone lengthens the
// dependent chain of a scan (op, then blend, then the next op: 2^24 in 33 ms on one thread at
// every run length, against 17 / 39 / 20 ms with the branch), so the block's tail is cut into
// scan_lanes lanes that start at heads, and the lanes' chains run side by side: 7.9 / 8.0 /
// 8.0 ms for runs of 1 / 8 / 512 (bench/results/2026-11-25-cpu2-by_key-branchless.md).
template <class V>
inline constexpr bool blends_values =
    std::is_arithmetic_v<V> && !std::is_same_v<V, bool> && (sizeof(V) == 4 || sizeof(V) == 8);
// A head's mask: all ones, or zero where the element continues its run; the value's width.
template <class V>
using head_mask_t = std::conditional_t<sizeof(V) == 4, std::int32_t, std::int64_t>;

template <class V>
struct blend_vector;
template <>
struct blend_vector<float> {
  typedef float value __attribute__((vector_size(16)));
  typedef std::int32_t mask __attribute__((vector_size(16)));
};
template <>
struct blend_vector<double> {
  typedef double value __attribute__((vector_size(16)));
  typedef std::int64_t mask __attribute__((vector_size(16)));
};

// a where m is all ones, b where it is zero, bit for bit. Floats stay in a vector register:
// the same blend through a general register (memcpy to an integer and back) put two moves
// on the chain and took every run length to 23-25 ms (the experiments file).
template <class V>
V blend(head_mask_t<V> m, V a, V b) {
  if constexpr (std::is_integral_v<V>) {
    using U = std::make_unsigned_t<V>;
    const U um = static_cast<U>(m);
    return static_cast<V>((static_cast<U>(a) & um) | (static_cast<U>(b) & ~um));
  } else {
    using vv = typename blend_vector<V>::value;
    using mv = typename blend_vector<V>::mask;
    const mv vm = {m};
    const mv bits = ((mv)(vv){a} & vm) | ((mv)(vv){b} & ~vm);
    return ((vv)bits)[0];
  }
}

// Phase 3 of the scans over [i, end) from `running`, one element after the other: each element
// folded onto the running value and the result or the element itself kept. Returns the heads.
template <bool Inclusive, class K, class V, class Eq, class Op>
std::int64_t scan_stretch(const runs_io<K, V>& io, const Eq& eq, const Op& op, std::int64_t i,
                          std::int64_t end, V& running) {
  V value = running;
  std::int64_t heads = 0;
  for (; i < end; ++i) {
    const bool head = !eq(io.keys[i - 1], io.keys[i]);
    const V x = value_at<runs_kind::scan>(io, op, i, head);
    const V before = value;
    const V folded = op(value, x);
    value = head ? x : folded;
    heads += head ? 1 : 0;
    if constexpr (Inclusive) io.values_out[i] = value;
    else io.values_out[i] = head ? io.init : before;
  }
  running = value;
  return heads;
}

// Four chains hide the op and the blend (some five cycles) behind the loads and stores of the
// others; eight (in chunks of 128) were up to 30% slower on one thread. The heads of lane_chunk
// elements per lane are found first, as masks in a local buffer (a vectorized compare), so
// the select loop only loads them.
inline constexpr int scan_lanes = 4;
inline constexpr std::int64_t lane_chunk = 256;
// How far past its nominal start a lane looks for its first head: runs longer than this take
// the plain loop, whose branch then mispredicts once a run.
inline constexpr std::int64_t lane_search = 2048;

// Where the lanes of [i, end) start: i, then the first head at or past i + k * part. False when
// one of the searches finds no head. part is an odd number of cache lines, so the lanes'
// streams fall into different L1 sets. A quarter of 2^16 f64 is 128 KiB: lanes that far apart
// (runs of 1 start them there exactly) put all their streams in one set, and the f64 exclusive
// scan of 2^24 in runs of 1 took 24-29 ms on one thread instead of 20.5.
template <class K, class V, class Eq>
bool lane_starts(const runs_io<K, V>& io, const Eq& eq, std::int64_t i, std::int64_t end,
                 std::int64_t (&start)[scan_lanes + 1]) {
  constexpr std::int64_t line = 64 / sizeof(V);  // values per cache line
  const std::int64_t lines = (end - i) / scan_lanes / line;
  const std::int64_t part = (lines % 2 == 1 ? lines : lines - 1) * line;
  start[0] = i;
  start[scan_lanes] = end;
  for (int k = 1; k < scan_lanes; ++k) {
    std::int64_t p = i + k * part;
    const std::int64_t stop = std::min(p + lane_search, k + 1 < scan_lanes ? p + part : end);
    while (p < stop && eq(io.keys[p - 1], io.keys[p])) ++p;
    if (p == stop) return false;
    start[k] = p;
  }
  return true;
}

// The first `common` elements of every lane, the lanes side by side; `running` holds each
// lane's value (every lane but the first starts at a head, which replaces it). Returns the
// heads. The same operations as scan_stretch in the same order, so the same bits: an
// exclusive output is init at a head and the value before otherwise, and the next value is
// that output op x.
template <bool Inclusive, class K, class V, class Eq, class Op>
std::int64_t scan_lanes_walk(const runs_io<K, V>& io, const Eq& eq, const Op& op,
                             const std::int64_t (&start)[scan_lanes + 1], std::int64_t common,
                             V (&running)[scan_lanes]) {
  using M = head_mask_t<V>;
  M mask[scan_lanes][lane_chunk];
  V value[scan_lanes];  // locals, as in walk_runs: an output store may alias `running`
  for (int k = 0; k < scan_lanes; ++k) value[k] = running[k];
  const K* const keys = io.keys;
  const V* const values = io.values;
  V* const out = io.values_out;
  const V init = io.init;
  std::int64_t heads = 0;
  for (std::int64_t j0 = 0; j0 < common; j0 += lane_chunk) {
    const std::int64_t c = std::min(lane_chunk, common - j0);
    for (int k = 0; k < scan_lanes; ++k) {
      const K* key = keys + start[k] + j0;
      M count = 0;
      for (std::int64_t t = 0; t < c; ++t) {
        const M m = eq(key[t - 1], key[t]) ? M(0) : M(-1);
        mask[k][t] = m;
        count -= m;
      }
      heads += count;
    }
    for (std::int64_t t = 0; t < c; ++t) {
      for (int k = 0; k < scan_lanes; ++k) {
        const std::int64_t p = start[k] + j0 + t;
        const M m = mask[k][t];
        const V x = values[p];
        if constexpr (Inclusive) {
          value[k] = blend(m, x, op(value[k], x));
          out[p] = value[k];
        } else {
          const V before = blend(m, init, value[k]);
          out[p] = before;
          value[k] = op(before, x);
        }
      }
    }
  }
  for (int k = 0; k < scan_lanes; ++k) running[k] = value[k];
  return heads;
}

// Phase 3 of the scans from element i on, once s holds the state before it (s.valid, no carry
// left to combine in): one output per element. Values that blend_values covers go in lanes
// (the rest of each lane, past the length they share, in the plain loop); other value types,
// short tails and long runs take the plain loop.
template <bool Inclusive, class K, class V, class Eq, class Op>
void scan_block_tail(const runs_io<K, V>& io, const Eq& eq, const Op& op, std::int64_t i,
                     std::int64_t end, run_state<V>& s) {
  if constexpr (blends_values<V>) {
    std::int64_t start[scan_lanes + 1];
    if (end - i >= scan_lanes * lane_chunk && lane_starts(io, eq, i, end, start)) {
      std::int64_t common = end - i;
      for (int k = 0; k < scan_lanes; ++k) common = std::min(common, start[k + 1] - start[k]);
      V value[scan_lanes];
      for (int k = 0; k < scan_lanes; ++k) value[k] = s.value;
      std::int64_t heads = scan_lanes_walk<Inclusive>(io, eq, op, start, common, value);
      for (int k = 0; k < scan_lanes; ++k)
        heads += scan_stretch<Inclusive>(io, eq, op, start[k] + common, start[k + 1], value[k]);
      s.value = value[scan_lanes - 1];
      s.heads += heads;
      return;
    }
  }
  s.heads += scan_stretch<Inclusive>(io, eq, op, i, end, s.value);
}

// Folds (Write false) or folds and writes (Write true) elements [begin, end) into s. Under
// folds_within_block, s starts as the identity and carry is the state before the block: the
// outputs of the run carried in combine carry in, and at the block's first head s becomes the
// whole prefix's state, after which the loop is the plain one. Write is a template argument:
// as a run-time flag the per-element tests stayed in the loop wherever the function was not
// inlined, as in the single-pass runs() with both walks in one block body (2^24 u32 / f32
// scan by key, runs of 512, one thread: 20 -> 52 ms).
template <runs_kind Kind, bool Write, class K, class V, class Eq, class Op>
void walk_runs(const runs_io<K, V>& io, Eq eq, Op op, std::int64_t begin, std::int64_t end,
               run_state<V>& state, const run_state<V>& carry = segmented_op<V, Op>::identity()) {
  if constexpr (!Write) {
    if constexpr (Kind == runs_kind::heads) return count_heads(io, eq, begin, end, state);
    else return fold_block<Kind>(io, eq, op, begin, end, state);
  }
  // A local copy: through the reference, every output store (a V, which may alias the state's
  // value as far as the compiler knows) sent the running value through memory, a store-to-
  // load round trip per element (2^24 f32 in runs longer than a block, one thread: 19 -> 44 ms).
  run_state<V> s = state;
  const segmented_op<V, Op> combine{op};
  bool continuing = folds_within_block<Kind, V> && carry.valid;
  std::int64_t i = begin;
  for (; i < end; ++i) {
    if constexpr (Kind == runs_kind::scan) {
      if (!continuing && s.valid) break;  // the rest in scan_block_tail
    }
    const bool head = i == 0 || !eq(io.keys[i - 1], io.keys[i]);
    if constexpr (Kind == runs_kind::heads) {
      if (head) ++s.heads;
      s.valid = 1;
      if (head) {
        if (io.keys_out && s.heads - 1 < io.capacity) io.keys_out[s.heads - 1] = io.keys[i];
        if (io.values) put_run(io, io.values_out, s.heads - 1, io.values[i]);
      }
      continue;
    } else {
      V x{};
      if constexpr (Kind == runs_kind::lengths) x = V(1);
      else x = io.values[i];
      if (Kind == runs_kind::scan && head && !io.inclusive) x = op(io.init, x);
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
  if constexpr (Kind == runs_kind::scan) {
    if (i < end) {
      if (io.inclusive) scan_block_tail<true>(io, eq, op, i, end, s);
      else scan_block_tail<false>(io, eq, op, i, end, s);
      state = s;
      return;
    }
  }
  if (continuing) s = combine(carry, s);
  if (folds_per_run<Kind> && end == io.n) put_run(io, io.values_out, s.heads - 1, s.value);
  state = s;
}

// Runs the call; returns the number of runs. io.n > 0.
template <runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t runs(const context& ctx, const runs_io<K, V>& io, Eq eq, Op op) {
  using sop = segmented_op<V, Op>;
  const std::int64_t n = io.n;
  const bool writes = Kind == runs_kind::scan || io.keys_out || io.values_out;
  if (n <= runs_block) {
    run_state<V> s = sop::identity();
    if (writes) walk_runs<Kind, true>(io, eq, op, 0, n, s);
    else walk_runs<Kind, false>(io, eq, op, 0, n, s);
    return s.heads;
  }
  const std::int64_t blocks = block_count(n, runs_block);
  const sop combine{op};
  if (!writes) {  // the count only: one state per block, combined in block order
    std::vector<run_state<V>> state(static_cast<std::size_t>(blocks), sop::identity());
    blocked_for(ctx, n, runs_block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      walk_runs<Kind, false>(io, eq, op, begin, end, state[static_cast<std::size_t>(b)]);
    });
    run_state<V> total = sop::identity();
    for (const run_state<V>& s : state) total = combine(total, s);
    return total.heads;
  }
  // Single pass, chained as the scan's (cpu/scan.hpp): each block folds its elements, waits
  // for the state after the block before it, publishes its own, then walks its elements again
  // from that prefix and writes (folds_within_block: from the block's first element, the
  // prefix combined in at each output). The second walk reads the block from the core's L2
  // (2^16 4-byte keys and values: 512 KiB); with the three phases in two passes over the
  // input it read it from memory again. The states combine in block order as before.
  block_chain<run_state<V>> chain(blocks);
  blocked_for(ctx, n, runs_block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    run_state<V> own = sop::identity();
    walk_runs<Kind, false>(io, eq, op, begin, end, own);
    const run_state<V> carry = b == 0 ? sop::identity() : chain.wait(b);
    chain.publish(b, combine(carry, own));
    run_state<V> s = folds_within_block<Kind, V> ? sop::identity() : carry;
    walk_runs<Kind, true>(io, eq, op, begin, end, s, carry);
  });
  return chain.wait(blocks).heads;  // the state after the last block
}

}  // namespace parprim::detail::cpu
