// The CUDA engine behind the segmented primitives (src/core/runs_job.hpp), written once over
// the value type, operator and head source (flags or offsets).
//
// Three launches:
//   1. tile kernel, fold pass: each block loads one tile (threads x items consecutive
//      elements), finds the heads (run starts), folds each thread's elements into a run
//      state and scans the states across the block; the block's total goes to tile_states;
//   2. one block scans the tile states in tile order (exclusive, in place), and stores the
//      whole input's state after the last tile;
//   3. tile kernel, write pass: each block recomputes its tile from its exclusive prefix and
//      writes. A run's reduction is written where the next run starts (or at the end), so no
//      element needs to see its successor.
// A run state is (value since the last head, heads seen, tag of the last head); the segmented
// operator restarts the value at a head. The fold order depends on n only: float results are
// bitwise reproducible. Between passes 2 and 3 the host may read the run count (outputs
// indexed by run are checked against it before anything is written).
//
// The input is read twice (passes 1 and 3). The by-key primitives left this engine for the
// single-pass body of parprim/cuda/by_key.cuh (look-back over run states in tile_status's
// flag-and-value slots); the segmented ones still run here.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"
#include "core/runs_job.hpp"
#include "parprim/cuda/detail/block_scan.cuh"
#include "cuda/tuning/runs_tuning.hpp"

namespace parprim::cuda_kernels::runs {

using tuning = cuda_tuning::runs_tuning;
using detail::head_source;

// Whole 32-bit words, so warp shuffles move it as is.
template <class V>
struct state {
  V value;
  std::int64_t heads;
  std::int64_t tag;
  std::uint32_t valid;
  std::uint32_t unused;
};

template <class V, class Op>
struct segmented_op {
  Op op;
  __device__ __forceinline__ state<V> operator()(const state<V>& a, const state<V>& b) const {
    if (!b.valid) return a;
    if (!a.valid) return b;
    state<V> r = b;
    r.heads = a.heads + b.heads;
    if (b.heads == 0) {
      r.value = op(a.value, b.value);
      r.tag = a.tag;
    }
    return r;
  }
  __device__ __forceinline__ static state<V> identity() {
    state<V> s{};
    return s;
  }
};

// The precompiled operators, chosen at run time (one uniform branch per combine).
template <class V>
struct runtime_op {
  op o;
  __device__ __forceinline__ V operator()(V a, V b) const {
    switch (o) {
      case op::min: return detail::min_op<V>{}(a, b);
      case op::max: return detail::max_op<V>{}(a, b);
      default: return detail::plus_op<V>{}(a, b);
    }
  }
};

// The launch's equality parameter: flags and offsets compare no keys (segmented.cu names it).
template <class K>
struct equal_to {
  __device__ __forceinline__ bool operator()(const K& a, const K& b) const { return a == b; }
};

// The job as the kernels see it (runs_job without its host callback).
template <class K, class V>
struct device_job {
  std::int64_t n;
  const std::uint8_t* flags;
  const std::int64_t* offsets;
  std::int64_t segments;
  const V* values;
  bool has_init;
  V init;
  V* reduced_out;
  V* scan_out;
  bool inclusive;
  bool by_segment;
  const std::int64_t* tile_first_segment;  // offsets: per tile, the first s with a start in it or later
};

template <class K, class V>
device_job<K, V> device_view(const detail::runs_job<K, V>& j) {
  return {j.n,    j.flags,       j.offsets,  j.segments,  j.values,     j.has_init,
          j.init, j.reduced_out, j.scan_out, j.inclusive, j.by_segment, nullptr};
}

template <class K, class V, class Op, head_source Heads>
struct tile_storage {
  static constexpr int tile = tuning::tile;
  std::uint8_t flags[tile];
  std::int64_t tags[Heads == head_source::offsets ? tile : 1];
  V values[tile];
  typename cuda_prim::block_scan<state<V>, segmented_op<V, Op>, tuning::threads>::storage scan;
};

// Offsets: marks the heads of the tile [b0, b0 + count) in s.flags / s.tags; in the write
// pass, empty segments placed in the tile (or at the end, for the last tile) get init.
template <class K, class V, class Storage>
__device__ void mark_segment_heads(const device_job<K, V>& a, Storage& s, std::int64_t b0,
                                   int count, bool write) {
  const std::int64_t* o = a.offsets;
  const std::int64_t o0 = o[0];
  for (int i = threadIdx.x; i < count; i += tuning::threads) s.flags[i] = 0;
  __syncthreads();
  const bool last_tile = b0 + count == a.n;
  const std::int64_t first_segment = a.tile_first_segment[blockIdx.x];
  for (std::int64_t seg = first_segment + threadIdx.x; seg < a.segments; seg += tuning::threads) {
    const std::int64_t p = o[seg] - o0;
    if (p > b0 + count || (p == b0 + count && !last_tile)) break;
    if (o[seg + 1] > o[seg]) {
      if (p < b0 + count) {
        s.flags[p - b0] = 1;
        s.tags[p - b0] = seg;
      }
    } else if (write && a.by_segment && a.reduced_out) {
      a.reduced_out[seg] = a.init;
    }
  }
  __syncthreads();
}

// Offsets: for every tile t, the first s with offsets[s] - offsets[0] >= t * tile (one binary
// search per tile, all tiles at once, so no block waits on a chain of dependent loads).
template <int Tile>
__global__ void tile_first_segment_kernel(const std::int64_t* offsets, std::int64_t segments,
                                          std::int64_t tiles, std::int64_t* first) {
  const std::int64_t t = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= tiles) return;
  const std::int64_t b0 = t * Tile;
  std::int64_t lo = 0, hi = segments;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] - offsets[0] < b0) lo = mid + 1;
    else hi = mid;
  }
  first[t] = lo;
}

// Loads the tile's flags and values into shared memory (coalesced, striped).
template <class K, class V, head_source Heads, class Storage>
__device__ void load_tile(const device_job<K, V>& a, Storage& s, std::int64_t b0, int count,
                          bool write) {
  if constexpr (Heads == head_source::flags) {
    for (int i = threadIdx.x; i < count; i += tuning::threads) s.flags[i] = a.flags[b0 + i];
  }
  if (a.values)
    for (int i = threadIdx.x; i < count; i += tuning::threads) s.values[i] = a.values[b0 + i];
  if constexpr (Heads == head_source::offsets) mark_segment_heads(a, s, b0, count, write);
  else __syncthreads();
}

template <class K, class V, head_source Heads, class Storage>
__device__ __forceinline__ bool is_head(const Storage& s, std::int64_t b0, int i) {
  return b0 + i == 0 || s.flags[i] != 0;
}

// Element i of the tile as a run state.
template <class K, class V, head_source Heads, class Storage, class Op>
__device__ __forceinline__ state<V> element_at(const device_job<K, V>& a, const Storage& s,
                                               Op op, std::int64_t b0, int i) {
  state<V> e = segmented_op<V, Op>::identity();
  const bool head = is_head<K, V, Heads>(s, b0, i);
  e.valid = 1;
  e.heads = head ? 1 : 0;
  if constexpr (Heads == head_source::offsets) e.tag = head ? s.tags[i] : 0;
  else e.tag = b0 + i;
  if (a.values) e.value = head && a.has_init ? op(a.init, s.values[i]) : s.values[i];
  return e;
}

template <class K, class V>
__device__ __forceinline__ void close_run(const device_job<K, V>& a, const state<V>& r) {
  if (a.reduced_out) a.reduced_out[a.by_segment ? r.tag : r.heads - 1] = r.value;
}

// Passes 1 and 3 (see the top of the file). tile_states: the fold pass writes each tile's
// total; the write pass reads each tile's exclusive prefix.
template <class K, class V, head_source Heads, class Op>
__global__ void __launch_bounds__(tuning::threads)
    runs_tile_kernel(device_job<K, V> a, Op op, state<V>* tile_states, bool write) {
  using storage = tile_storage<K, V, Op, Heads>;
  using sop_t = segmented_op<V, Op>;
  __shared__ storage s;
  const sop_t sop{op};
  const std::int64_t b0 = std::int64_t(blockIdx.x) * tuning::tile;
  const int count = a.n - b0 < tuning::tile ? int(a.n - b0) : tuning::tile;
  load_tile<K, V, Heads>(a, s, b0, count, write);

  // Each thread's elements: a blocked stretch of `items`, read from shared memory. The loops
  // stay rolled and elements are recomputed from shared memory in the write pass: unrolled,
  // with nine 32-byte states held in registers, each instantiation took minutes of nvcc
  // time, and the pass is meant to be bound by memory, not by these few instructions.
  const int first = int(threadIdx.x) * tuning::items;
  const int last = first + tuning::items < count ? first + tuning::items : count;
  state<V> mine = sop_t::identity();
#pragma unroll 1
  for (int i = first; i < last; ++i) mine = sop(mine, element_at<K, V, Heads>(a, s, op, b0, i));
  state<V> inclusive, exclusive, total;
  cuda_prim::block_scan<state<V>, sop_t, tuning::threads>::scan(s.scan, mine, sop, inclusive,
                                                                  exclusive, total);
  if (!write) {
    if (threadIdx.x == 0) tile_states[blockIdx.x] = total;
    return;
  }

  // Write pass: walk this thread's elements from its exclusive prefix.
  state<V> run = sop(tile_states[blockIdx.x], exclusive);
#pragma unroll 1
  for (int i = first; i < last; ++i) {
    const state<V> e = element_at<K, V, Heads>(a, s, op, b0, i);
    const bool head = e.heads != 0;
    if (head && run.valid) close_run(a, run);
    const state<V> before = run;
    run = sop(run, e);
    // Only this thread reads s.values[i], and it has just done so: safe to overwrite.
    if (a.scan_out) s.values[i] = a.inclusive ? run.value : (head ? a.init : before.value);
    if (b0 + i == a.n - 1) close_run(a, run);
  }
  if (a.scan_out) {  // back out through shared memory, coalesced
    __syncthreads();
    for (int i = threadIdx.x; i < count; i += tuning::threads) a.scan_out[b0 + i] = s.values[i];
  }
}

// Pass 2: exclusive scan of the tile states in tile order, by one block; states[tiles] gets
// the whole input's state.
template <class V, class Op>
__global__ void __launch_bounds__(tuning::scan_threads)
    scan_tile_states_kernel(state<V>* states, std::int64_t tiles, Op op) {
  using sop_t = segmented_op<V, Op>;
  constexpr int Items = tuning::scan_items;
  constexpr int Round = tuning::scan_threads * Items;
  __shared__ typename cuda_prim::block_scan<state<V>, sop_t, tuning::scan_threads>::storage s;
  const sop_t sop{op};
  state<V> carry = sop_t::identity();
  for (std::int64_t base = 0; base < tiles; base += Round) {
    const std::int64_t first = base + std::int64_t(threadIdx.x) * Items;
    state<V> mine = sop_t::identity();
    for (int j = 0; j < Items; ++j)
      if (first + j < tiles) mine = sop(mine, states[first + j]);
    state<V> inclusive, exclusive, total;
    cuda_prim::block_scan<state<V>, sop_t, tuning::scan_threads>::scan(s, mine, sop, inclusive,
                                                                       exclusive, total);
    state<V> run = sop(carry, exclusive);
    for (int j = 0; j < Items; ++j) {
      if (first + j >= tiles) break;
      const state<V> t = states[first + j];
      states[first + j] = run;
      run = sop(run, t);
    }
    carry = sop(carry, total);
    __syncthreads();
  }
  if (threadIdx.x == 0) states[tiles] = carry;
}

// Offsets covering no element: every segment is empty and gets init.
template <class V>
__global__ void fill_kernel(V* out, std::int64_t count, V value) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = value;
}

}  // namespace parprim::cuda_kernels::runs
