// The per-thread phases of the by-key kernel (by_key.cuh, which describes the phases): a
// thread's heads and own fold (phases 2 and 3), and the staging of its outputs from its
// prefix (phase 5), with the copy of the reduction's per-run outputs. nvcc only.
//
// Each element costs few instructions (the kernels were instruction-bound on the H100: ncu
// at 2^26 u32/f32 counted 0.37 issued warps per scheduler against CUB's 0.21): threads whose
// elements all lie in the tile (every thread of a full tile) run Whole instantiations
// without bounds checks, folds restart at heads instead of branching on where a tail
// starts, and ranks and bounds are tile-local ints. The float fold order is fixed: thread
// chunks left to right, then the block scan (by_key.cuh); every function here keeps it.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/cuda/by_key_prefix.cuh"
#include "parprim/detail/runs.hpp"

namespace parprim::cuda_kernels::by_key {

using parprim::detail::runs_io;
using parprim::detail::runs_kind;

// The value element i folds: its staged value; an exclusive scan folds init into the value
// of each run's head.
template <runs_kind Kind, class K, class V, class Op>
__device__ __forceinline__ V element_value(const runs_io<K, V>& io, const V* values, int i,
                                           bool head, const Op& op) {
  V x = values[i];
  if (Kind == runs_kind::scan && head && !io.inclusive) x = op(io.init, x);
  return x;
}

// Phase 2: bit j set where element first + j (< count) starts a run; element 0 of the input
// (at_start) always does. Whole: all Shape::items elements of the thread lie in the tile (every
// thread of a full tile), so no element needs a bounds check: the checks of a partial tile
// made ptxas keep each element's check as a predicate (spilled to registers with P2R), about
// 10 instructions per key instead of 3-4 (sm_90 SASS).
template <class K, class Eq, class Shape, bool Whole>
__device__ __forceinline__ std::uint32_t find_heads(const K* keys, const K& previous_key,
                                                    int first, int count, bool at_start,
                                                    const Eq& eq) {
  K previous = threadIdx.x == 0 ? previous_key : keys[first - 1];
  std::uint32_t mask = 0;
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    if (Whole || first + j < count) {
      const K key = keys[first + j];
      const bool head = (j == 0 && at_start) || !eq(previous, key);
      previous = key;
      mask |= head ? 1u << j : 0u;
    }
  }
  return mask;
}

// Index of the thread's first head, or Shape::items when it holds none.
template <class Shape>
__device__ __forceinline__ int first_head(std::uint32_t head_mask) {
  return head_mask == 0 ? Shape::items : __ffs(int(head_mask)) - 1;
}

// Phase 3: the thread's run state (first < count): its heads, and the fold of its values
// from its last head on (all of them without a head), in fold_element's order (same bits).
// The fold runs over all the thread's elements, restarting at each head, so only the tail
// from the last head on reaches the result: the same bits as folding that tail alone, with
// no per-element test of where the tail starts (a branch per element, sm_90 SASS). The
// scans write the results from the first head on in place at once (they need nothing from
// before the thread), so phase 5 refolds only the elements before the first head (none for
// most threads with runs of mean length 1). Whole as in find_heads.
template <runs_kind Kind, bool Whole, class K, class V, class Op, class Shape>
__device__ __forceinline__ tile_state<V> fold_own(const runs_io<K, V>& io, V* values, int first,
                                                  int count, std::uint32_t head_mask,
                                                  const Op& op) {
  // Bit j set for j at or after the first head: the scan results written here.
  const std::uint32_t written = head_mask | (0u - head_mask);
  V value{};
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    if (Whole || first + j < count) {
      const bool head = (head_mask >> j) & 1u;
      const V x = element_value<Kind>(io, values, first + j, head, op);
      const V before = value;
      value = head || j == 0 ? x : op(value, x);
      if (Kind == runs_kind::scan && ((written >> j) & 1u))
        values[first + j] = io.inclusive ? value : (head ? io.init : before);
    }
  }
  return tile_state<V>{2u * std::uint32_t(__popc(head_mask)) + 1u, value};
}

// Phase 5's copy of the reduction's staged per-run outputs to their places: keys of the
// tile's runs at [first_run, first_run + heads); values at [first_run - 1, ...), one more for
// the last tile (the final run's fold); slots below 0 or at or past io.capacity skipped. By
// the Shape::threads threads numbered `thread` (the block, or a squad of a pipelined one). The
// bounds become tile-local int ranges once, so each run costs a load and a store, not a
// 64-bit test (sm_90 SASS, the keys' 16-run loop body: ~6.6 -> ~2.5 instructions a run).
template <class K, class V, class Storage, class Shape>
__device__ __forceinline__ void store_runs(const runs_io<K, V>& io, const Storage& s,
                                           std::int64_t first_run, int heads, bool last_tile,
                                           int thread) {
  const std::int64_t room = io.capacity - first_run;  // slots from first_run on below capacity
  if (io.keys_out && room > 0) {
    const int keys = room < heads ? int(room) : heads;
    K* out = io.keys_out + first_run;
    for (int l = thread; l < keys; l += Shape::threads) out[l] = s.keys[l];
  }
  if (!io.values_out || room < 0) return;
  // Slot l holds run first_run - 1 + l: slot 0 of tile 0 (first_run 0) holds no run.
  const int slots = heads + (last_tile ? 1 : 0);
  const int end = room + 1 < slots ? int(room + 1) : slots;
  V* out = io.values_out + first_run;
  for (int l = thread + (first_run == 0 ? 1 : 0); l < end; l += Shape::threads)
    out[l - 1] = s.values[l];
}

// Phase 5 of the scan kind: each thread rewrites its own staged values before its first
// head (fold_own wrote the rest) with its scan results, so no thread reads what another
// writes and no barrier is needed in between. The loop stops at the first head: with short
// runs most threads have nothing to do (no predicated-off iterations to issue).
template <class K, class V, class Op, class Shape>
__device__ __forceinline__ void stage_scan(const runs_io<K, V>& io, V* values, int first,
                                           int count, std::uint32_t head_mask,
                                           const tile_state<V>& run, const Op& op) {
  const int until = min(first_head<Shape>(head_mask), count - first);
  V value = run.value;
  bool open = run.valid();  // a run is open before the element
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    if (j >= until) break;  // no head among these elements
    const V before = value;
    const V x = element_value<runs_kind::scan>(io, values, first + j, false, op);
    value = open ? op(value, x) : x;
    open = true;
    values[first + j] = io.inclusive ? value : before;
  }
}

// Phase 5 of the reduction, before the barrier: the thread's values (and keys, when keys are
// written) into registers. Whole as in find_heads.
template <bool Whole, class K, class V, class Storage, class Shape>
__device__ __forceinline__ void read_own(const runs_io<K, V>& io, const Storage& s, int first,
                                         int count, K (&k)[Shape::items],
                                         V (&v)[Shape::items]) {
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    if (Whole || first + j < count) {
      if (io.keys_out) k[j] = s.keys[first + j];  // the heads' keys are staged
      v[j] = s.values[first + j];
    }
  }
}

// Phase 5 of the reduction, after the barrier: refolds the thread's elements from its prefix
// `run` (fold_element's order and bits) and stages each run's outputs at its rank within the
// tile: a head closes the run open before it (slot rank, the run's place minus one) and
// writes its key (slot rank); the thread holding the input's last element (holds_last: its
// last element, since the input ends with the tile) closes the final run after the loop.
// The rank is a tile-local int, so an element costs no 64-bit arithmetic.
template <bool Whole, class K, class V, class Op, class Storage, class Shape>
__device__ __forceinline__ void stage_own_runs(const runs_io<K, V>& io, Storage& s, int first,
                                               int count, std::uint32_t head_mask, int rank,
                                               bool holds_last, const tile_state<V>& run,
                                               const K (&k)[Shape::items],
                                               const V (&v)[Shape::items], const Op& op) {
  V value = run.value;
  bool open = run.valid();  // a run is open before the element
#pragma unroll
  for (int j = 0; j < Shape::items; ++j) {
    if (Whole || first + j < count) {
      const bool head = (head_mask >> j) & 1u;
      if (head) {
        if (open) s.values[rank] = value;
        if (io.keys_out) s.keys[rank] = k[j];
        ++rank;
      }
      value = head || !open ? v[j] : op(value, v[j]);
      open = true;
    }
  }
  if (holds_last) s.values[rank] = value;
}

// Phase 5 of the reduction: a run's outputs are staged at its rank within the tile, which
// may lie among the elements of an earlier thread that has not read them yet. So each thread
// first reads its elements into registers (only now, not across the block scan and the
// look-back), and stages after `barrier` (of the block, or of a pipelined block's squad).
template <class K, class V, class Op, class Storage, class Shape, class Barrier>
__device__ __forceinline__ void stage_runs(const runs_io<K, V>& io, Storage& s,
                                           std::int64_t base, int first, int count,
                                           std::uint32_t head_mask, const tile_state<V>& run,
                                           const Op& op, Barrier barrier) {
  constexpr int I = Shape::items;
  K k[I];
  V v[I];
  const bool whole = first + I <= count;
  if (whole) read_own<true, K, V, Storage, Shape>(io, s, first, count, k, v);
  else read_own<false, K, V, Storage, Shape>(io, s, first, count, k, v);
  barrier();
  const int rank = int(run.heads());  // rank in the tile of the thread's next head
  const bool holds_last = base + count == io.n && first < count && count <= first + I;
  if (whole)
    stage_own_runs<true, K, V, Op, Storage, Shape>(io, s, first, count, head_mask, rank,
                                                   holds_last, run, k, v, op);
  else
    stage_own_runs<false, K, V, Op, Storage, Shape>(io, s, first, count, head_mask, rank,
                                                    holds_last, run, k, v, op);
}

}  // namespace parprim::cuda_kernels::by_key
