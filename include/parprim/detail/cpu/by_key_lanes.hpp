// Phase 3 of the by-key primitives (cpu/by_key.hpp) without a branch on the heads, for keys
// and values that are arithmetic types of 4 or 8 bytes: a block's stretch is cut into lanes
// that start at heads, the heads of each chunk of a lane are found first as masks, and each
// element is blended on those masks where the plain loop selects; the keys of the kinds that
// write per run are compacted. g++ 12 compiles the plain loop's selects to branches, which
// mispredict about once a run in runs of random length (mean 8).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "parprim/detail/runs.hpp"

namespace parprim::detail::cpu {

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

// Phase 3 of the kinds that write per run (reduce_by_key, run_length_encode, unique) without a
// branch per head. The plain loop writes a run's total and the next run's key when the next
// run starts, a branch that one head in eight at random (runs of mean 8) mispredicts: 2^24 u32
// keys on 2 threads, runs of 8 took as long as runs of 1 for unique, and longer for
// run_length_encode, whose output is 8 times smaller.
//   Keys are compacted: element p stores its key at slot `pos`, then pos advances by its head
//   flag, so a slot's last store is from its run's head (the elements after a head store into
//   the next run's slot, which that run's head overwrites later).
//   Folds (reduce_by_key's totals, the lengths) go in lanes that start at heads, as the scans'
//   (cpu/by_key.hpp): each element stores its run's fold so far at its run's slot, so a
//   slot's last store is from its run's last element: the run's total, as the plain loop's.
//   One lane writes each run; its first slot comes from the compaction.
// 2^24 u32 keys / f32 values, 2 threads, runs of 1 / 8 / 512, best of four alternated runs
// on a loaded host, ms: unique 26.6 / 28.2 / 12.9 -> 14.1 / 12.5 / 12.7, run_length_encode
// 24.7 / 31.3 / 16.8 -> 28.0 / 23.8 / 17.5, reduce_by_key 40.4 / 32.5 / 17.2 -> 28.0 / 24.0 /
// 22.4 (runs of 512 take the plain loop, unchanged on one thread; reduce_by_key in runs of 1
// took 71 -> 26 ms on one thread) (bench/results/2026-11-25-cpu2-reduce_by_key-branchless.md).
// A key blend carried in each lane instead of the compaction ran out of registers (runs of
// 512: 9 -> 33 ms). unique_by_key's values compacted with its keys took 12 or 37 ms from run
// to run (runs of 8 and 512, against 9-18), so it keeps the plain loop. Where a sample of
// dense_sample elements holds runs of mean dense_mean_run or more, the branch predicts well
// enough: the plain loop (lanes took reduce_by_key in runs of 512 from 9 to 12 ms).
inline constexpr std::int64_t dense_sample = 1024;
inline constexpr std::int64_t dense_mean_run = 32;
template <runs_kind Kind, class K, class V>
inline constexpr bool writes_runs_in_lanes =
    Kind != runs_kind::scan && blends_values<K> && blends_values<V>;

// The keys of [begin, end) compacted from slot pos; returns pos past the last head. Writes the
// slot after the last run too: [begin, end) must end before a head, which then overwrites it.
template <class K, class V, class Eq>
std::int64_t compact_heads(const runs_io<K, V>& io, const Eq& eq, std::int64_t begin,
                           std::int64_t end, std::int64_t pos) {
  const K* const keys = io.keys;
  K* const keys_out = io.keys_out;
  K before = keys[begin - 1];
  for (std::int64_t p = begin; p < end; ++p) {  // loads first: an output may alias an input
    const K key = keys[p];
    const std::int64_t head = eq(before, key) ? 0 : 1;
    keys_out[pos] = key;
    pos += head;
    before = key;
  }
  return pos;
}

// One element of a lane: m its head mask, x its value, run the slot of the lane's current
// run, value its fold: x at a head, op(value, x) elsewhere, the plain loop's operations.
template <class V, class Op>
inline void run_lane_step(const Op& op, head_mask_t<V> m, V x, std::int64_t& run, V& value,
                          V* values_out) {
  run -= m;
  value = blend<V>(m, x, op(value, x));
  values_out[run] = value;
}

// The lanes [start[k], start[k + 1]) of a fold: their first `common` elements side by side in
// chunks whose masks are computed first, then the rest of each lane alone. run[k] is the slot
// before lane k's first head; value[k] the value a lane's first step folds onto (its head
// replaces it), and on return lane k's last fold.
template <runs_kind Kind, class K, class V, class Eq, class Op>
void fold_lanes_walk(const runs_io<K, V>& io, const Eq& eq, const Op& op,
                     const std::int64_t (&start)[scan_lanes + 1], std::int64_t common,
                     const std::int64_t (&run)[scan_lanes], V (&value)[scan_lanes]) {
  using M = head_mask_t<V>;
  M mask[scan_lanes][lane_chunk];
  std::int64_t r[scan_lanes];
  V v[scan_lanes];  // locals: an output store may alias `value` as far as the compiler knows
  for (int k = 0; k < scan_lanes; ++k) r[k] = run[k], v[k] = value[k];
  const K* const keys = io.keys;
  const V* const values = io.values;
  V* const values_out = io.values_out;
  auto x_at = [&](std::int64_t p) {
    if constexpr (Kind == runs_kind::lengths) return V(1);
    else return values[p];
  };
  for (std::int64_t j0 = 0; j0 < common; j0 += lane_chunk) {
    const std::int64_t c = std::min(lane_chunk, common - j0);
    for (int k = 0; k < scan_lanes; ++k) {
      const K* key = keys + start[k] + j0;
      for (std::int64_t t = 0; t < c; ++t) mask[k][t] = eq(key[t - 1], key[t]) ? M(0) : M(-1);
    }
    for (std::int64_t t = 0; t < c; ++t) {
      for (int k = 0; k < scan_lanes; ++k) {
        const std::int64_t p = start[k] + j0 + t;
        run_lane_step(op, mask[k][t], x_at(p), r[k], v[k], values_out);
      }
    }
  }
  for (int k = 0; k < scan_lanes; ++k) {
    for (std::int64_t p = start[k] + common; p < start[k + 1]; ++p) {
      const M m = eq(keys[p - 1], keys[p]) ? M(0) : M(-1);
      run_lane_step(op, m, x_at(p), r[k], v[k], values_out);
    }
    value[k] = v[k];
  }
}

// Phase 3 of the kinds that write per run from the head i on, s the state before i: [i, last)
// without a branch per head, last the block's last head, and the plain loop goes on from last
// (which rewrites the run before it with the same bits). The block's last run may continue
// into the next block, which writes it. Returns last, s the state before it; or i, nothing
// written, where this does not apply: a short stretch, long runs (the sample, or a search
// past lane_search), unique_by_key, an output missing, or slots that could reach past the
// outputs' capacity.
template <runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t write_runs_in_lanes(const runs_io<K, V>& io, const Eq& eq, const Op& op,
                                 std::int64_t i, std::int64_t end, run_state<V>& s) {
  const bool outputs = Kind == runs_kind::heads ? !io.values : io.values_out != nullptr;
  if (!io.keys_out || !outputs) return i;
  const std::int64_t floor = std::max(i, end - lane_search);
  std::int64_t last = end - 1;
  while (last > floor && eq(io.keys[last - 1], io.keys[last])) --last;
  if (last - i < scan_lanes * lane_chunk || eq(io.keys[last - 1], io.keys[last]) ||
      s.heads + (last - i) >= io.capacity)
    return i;
  std::int64_t sample = 0;
  for (std::int64_t p = i; p < i + dense_sample; ++p)
    sample += eq(io.keys[p - 1], io.keys[p]) ? 0 : 1;
  if (sample * dense_mean_run < dense_sample) return i;
  if constexpr (Kind == runs_kind::heads) {
    s.heads = compact_heads(io, eq, i, last, s.heads);
  } else {
    std::int64_t start[scan_lanes + 1];
    if (!lane_starts(io, eq, i, last, start)) return i;
    std::int64_t run[scan_lanes];
    std::int64_t pos = s.heads;
    for (int k = 0; k < scan_lanes; ++k) {
      run[k] = pos - 1;
      pos = compact_heads(io, eq, start[k], start[k + 1], pos);
    }
    io.values_out[s.heads - 1] = s.value;  // the run that ends at i - 1
    std::int64_t common = last - i;
    for (int k = 0; k < scan_lanes; ++k) common = std::min(common, start[k + 1] - start[k]);
    V value[scan_lanes];
    for (int k = 0; k < scan_lanes; ++k) value[k] = s.value;
    fold_lanes_walk<Kind>(io, eq, op, start, common, run, value);
    s.heads = pos;
    s.value = value[scan_lanes - 1];
  }
  return last;
}

}  // namespace parprim::detail::cpu
