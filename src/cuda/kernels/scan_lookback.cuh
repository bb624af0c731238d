// Single-pass scan with decoupled look-back (Merrill & Garland, NVR-2016-002): every element
// is read once and written once, so the scan runs near copy bandwidth.
//
// Tiles and layout. A tile is Threads * Items elements; warp w owns the contiguous stretch
// [w * 32 * Items, (w + 1) * 32 * Items) of it, split into Items / Vec "rows" of 32 vectors:
// vector k of lane l covers elements (k * 32 + l) * Vec .. + Vec - 1 of the stretch, so every
// load and store instruction of a warp moves 512 contiguous bytes. The scan order inside the
// stretch is row by row, lane by lane, element by element, which is the element order.
//
// Phases of one tile (one block):
//   1. claim the next tile id from a global counter (atomicAdd). Ids follow the order in
//      which blocks start, so a tile only ever waits for tiles whose blocks already run or
//      have finished: no deadlock whatever order the hardware schedules blocks in;
//   2. load the tile (16-byte vectors, or guarded scalars for the last tile / misaligned
//      data), speculatively overlapped with step 1;
//   3. scan each vector in registers; scan the vector totals of each row across the warp
//      (shuffles) and chain the rows: per-vector prefixes and the warp total;
//   4. scan the warp totals (shared memory, warp 0). Warp 0 publishes the tile aggregate,
//      looks back for the tile's exclusive prefix, and publishes the inclusive prefix;
//   5. every thread combines tile prefix, warp prefix and vector prefix with its values and
//      stores (16-byte vectors or guarded scalars).
//
// Determinism. A look-back that sums whatever predecessors have published so far combines
// aggregates in an order that depends on timing, which changes float results from run to run.
// Here the tile prefix is *defined* as the left fold over tile aggregates,
//   E_0 = start,  E_i = (...((E_0 op A_0) op A_1) ... ) op A_(i-1),   P_i = E_i op A_i,
// and the look-back computes exactly that value whichever P_j (j < i) it finds: it folds
// P_j op A_(j+1) op ... op A_(i-1) one value at a time, left to right. Since P_j = E_(j+1)
// bit for bit (induction on j), every path gives the same bits. This is why the aggregates
// keep their own slot after the inclusive prefix is published (tile_status.cuh). The price is
// a sequential fold by one warp instead of a shuffle tree; it is paid once per tile.
//
// Where the time goes, and the two remedies behind tuning switches (scan_tuning.hpp).
// During phase 4 the whole block waits at a barrier for warp 0's look-back: at least one L2
// round trip, with no loads of this block in flight. With 2-3 blocks per SM (the tile lives
// in registers) the SM's memory pipe often runs dry during those waits, and the scan stays
// well below copy bandwidth.
//   * `persistent`: a grid of resident blocks loops over tiles it claims ahead of time
//     (scan_lookback_persistent_kernel below). The next tile's loads go straight to shared
//     memory (cp.async, no registers) before the block waits for the current tile's data, so
//     they are in flight during the scan, the look-back and the stores: the barrier wait no
//     longer empties the memory pipe. The tile-claim atomic also leaves the critical path.
//   * `fold_in_shared`: the fold above, done with one shuffle per window position, is a
//     chain of (shuffle -> select -> op) of about 30 cycles per position, which made windows
//     wider than 32 tiles slower than the round trips they save. Folding from shared memory
//     (broadcast reads issued ahead, one dependent op per position, starting right after the
//     inclusive prefix found) costs a few cycles per position, so wide windows become cheap.
// Both compute exactly the same fold, so every setting gives the same bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/primitives/async_copy.cuh"
#include "cuda/primitives/block_scan.cuh"
#include "cuda/primitives/tile_status.cuh"
#include "cuda/primitives/vector_io.cuh"
#include "cuda/primitives/warp_scan.cuh"

namespace parprim::cuda_kernels {

// Compile-time shape of the scan, from a cuda_tuning::scan_lookback_tuning<sizeof(T)>.
template <class T, class Tuning>
struct lookback_shape {
  static constexpr int threads = Tuning::threads;
  static constexpr int items = Tuning::items;
  static constexpr bool speculate = Tuning::speculative_load;
  static constexpr int lookback_per_lane = Tuning::lookback_per_lane;
  static constexpr int window = cuda_prim::warp_size * Tuning::lookback_per_lane;
  static constexpr bool fold_in_shared = Tuning::fold_in_shared;
  static constexpr int min_blocks = Tuning::min_blocks_per_sm;
  static constexpr bool persistent = Tuning::persistent;
  static constexpr int stages = Tuning::stages;
  static constexpr int vec = cuda_prim::vec16<T>::size;
  static constexpr int rows = items / vec;  // 16-byte vectors per thread
  static constexpr int warps = threads / cuda_prim::warp_size;
  static constexpr int warp_items = cuda_prim::warp_size * items;
  static constexpr int tile_items = threads * items;
  static constexpr std::size_t stage_bytes = static_cast<std::size_t>(tile_items) * sizeof(T);
  static_assert(items % vec == 0, "items per thread must fill whole 16-byte vectors");
  static_assert(!persistent || stages >= 2, "a pipeline needs at least two stages");
};

// Elements of the tile starting at `base` (Threads * Items except for the last tile).
template <class Shape>
__device__ __forceinline__ int tile_size(std::int64_t n, std::int64_t base) {
  return n - base < Shape::tile_items ? static_cast<int>(n - base) : Shape::tile_items;
}

__device__ __forceinline__ void spin_pause(unsigned sleep_ns) {
  if (sleep_ns != 0) __nanosleep(sleep_ns);
}

// Shared memory of a block besides the staged tiles of the persistent kernel.
template <class T, class Op, class Shape>
struct lookback_storage {
  typename cuda_prim::block_scan<T, Op, Shape::threads>::storage scan;
  T tile_prefix;
  T window[Shape::fold_in_shared ? Shape::window : 1];  // the look-back's aggregates, in order
  int tile[Shape::stages];  // persistent kernel: claimed tile ids, a ring indexed by iteration
};

// The exclusive prefix E_tile of tile > 0, computed by the 32 lanes of one warp; every lane
// returns it. Spins until enough predecessors have published. `window` (Shape::window values
// of shared memory, used only with Shape::fold_in_shared) is free again when it returns.
//
// Why a wide window. The fold below makes each inclusive prefix depend on an earlier one, so
// the front of published inclusive prefixes advances by at most one window per round trip to
// L2. With a window of 32 tiles that front, not memory bandwidth, limited the scan (measured on
// H100: ~22 ns per tile at 2^28). Each lane therefore polls PerLane tiles at once, a window
// of 32 * PerLane tiles per round trip. The fold must then be cheap per tile: with one
// shuffle per position (fold_in_shared off) windows of 128 and 256 measured slower than 32.
template <class T, class Op, class Shape, class Status>
__device__ T look_back(const Status& status, int tile, Op op, unsigned sleep_ns, T* window) {
  using namespace cuda_prim;
  constexpr int PerLane = Shape::lookback_per_lane;
  constexpr int W = Shape::window;
  const int lane = lane_id();

  // ---- Fast path: the W tiles just before this one, both slots read at once. Lane l holds
  // tiles first + k * 32 + l, k < PerLane: window position q = k * 32 + l, so each poll
  // instruction of the warp reads 32 consecutive status words.
  const int first = tile - W;
  T inclusive[PerLane], aggregate[PerLane];
  bool has_inclusive[PerLane], has_aggregate[PerLane];
#pragma unroll
  for (int k = 0; k < PerLane; ++k) {
    const int t = first + k * warp_size + lane;
    inclusive[k] = aggregate[k] = Op::identity();
    has_inclusive[k] = has_aggregate[k] = false;
    if (t >= 0) {
      has_inclusive[k] = status.poll_inclusive(t, inclusive[k]);
      has_aggregate[k] = status.poll_aggregate(t, aggregate[k]);
    }
  }
  // The nearest tile with an inclusive prefix: the highest k that has one, its highest lane.
  int p = -1;  // its window position
#pragma unroll
  for (int k = 0; k < PerLane; ++k) {
    const unsigned lanes_with = __ballot_sync(full_warp, has_inclusive[k]);
    if (lanes_with != 0) p = k * warp_size + warp_size - 1 - __clz(lanes_with);
  }
  if (p >= 0) {
    // Wait until every tile after it has its aggregate out.
    auto have_needed = [&] {
      bool ok = true;
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (k * warp_size + lane > p && !has_aggregate[k]) ok = false;
      return ok;
    };
    while (!__all_sync(full_warp, have_needed())) {
      spin_pause(sleep_ns);
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (k * warp_size + lane > p && !has_aggregate[k])
          has_aggregate[k] = status.poll_aggregate(first + k * warp_size + lane, aggregate[k]);
    }
    // Left fold P_j op A_(j+1) op ... op A_(tile-1), one value at a time, in tile order.
    // Lane p % 32's highest published k is p / 32 (no lane has a higher one), so taking each
    // lane's last published value avoids a run-time index (which would go to local memory).
    T mine = Op::identity();
#pragma unroll
    for (int k = 0; k < PerLane; ++k)
      if (has_inclusive[k]) mine = inclusive[k];
    T acc = shfl_idx(mine, p % warp_size);
    if constexpr (Shape::fold_in_shared) {
      // Every lane folds the same values in the same order (broadcast reads, no conflicts),
      // so all lanes end with the result and no shuffle chain is needed.
#pragma unroll
      for (int k = 0; k < PerLane; ++k) window[k * warp_size + lane] = aggregate[k];
      __syncwarp();
#pragma unroll 8
      for (int q = p + 1; q < W; ++q) acc = op(acc, window[q]);
      __syncwarp();  // all lanes done reading before the buffer is written again
    } else {
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
#pragma unroll
        for (int l = 0; l < warp_size; ++l) {
          const T a = shfl_idx(aggregate[k], l);
          if (k * warp_size + l > p) acc = op(acc, a);
        }
    }
    return acc;
  }

  // ---- Slow path: walk back 32 tiles at a time to the nearest inclusive prefix (starting
  // over from the top if none is out yet: tile 0 always publishes one without waiting) ...
  int base = 0;
  T acc = Op::identity();
  for (int hi = tile - W;; hi -= warp_size) {
    if (hi <= 0) {
      hi = tile;
      spin_pause(sleep_ns);
    }
    const int t = hi - warp_size + lane;
    T inc = Op::identity();
    const bool has = t >= 0 && status.poll_inclusive(t, inc);
    const unsigned found = __ballot_sync(full_warp, has);
    if (found != 0) {
      const int j = warp_size - 1 - __clz(found);
      base = hi - warp_size + j;
      acc = shfl_idx(inc, j);
      break;
    }
  }
  // ... then fold the aggregates after it, 32 per round, in tile order.
  for (int from = base + 1; from < tile; from += warp_size) {
    const int t = from + lane;
    T agg = Op::identity();
    bool has = t >= tile || status.poll_aggregate(t, agg);
    while (!__all_sync(full_warp, has)) {
      spin_pause(sleep_ns);
      if (!has) has = status.poll_aggregate(t, agg);
    }
    const int count = min(warp_size, tile - from);
    if constexpr (Shape::fold_in_shared) {
      window[lane] = agg;  // W >= 32
      __syncwarp();
#pragma unroll 8
      for (int k = 0; k < count; ++k) acc = op(acc, window[k]);
      __syncwarp();
    } else {
      for (int k = 0; k < count; ++k) acc = op(acc, shfl_idx(agg, k));
    }
  }
  return acc;
}

// Loads tile `t` into registers: 16-byte vectors when the tile is full and the data aligned,
// guarded scalars (identity past the end) otherwise.
template <class T, class Op, class Shape>
__device__ __forceinline__ void load_tile(T (&x)[Shape::rows][Shape::vec], const T* in,
                                          std::int64_t n, int t, bool vectorized) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  const int my_offset = warp_id() * Shape::warp_items + lane_id() * vec;
  const std::int64_t base = static_cast<std::int64_t>(t) * Shape::tile_items;
  const int count = tile_size<Shape>(n, base);
  const T* src = in + base + my_offset;
  if (vectorized && count == Shape::tile_items) {
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k) {
      const vec16<T> v = load_vec16(src + k * warp_size * vec);
#pragma unroll
      for (int j = 0; j < vec; ++j) x[k][j] = v.v[j];
    }
  } else {
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = k * warp_size * vec + j;
        x[k][j] = my_offset + e < count ? src[e] : Op::identity();
      }
  }
}

// Phases 3 to 5 of tile `tile`, whose elements are in x. Every thread of the block calls it;
// it contains two barriers. `before_second_barrier()` runs in every thread after warp 0's
// look-back and before the barrier that releases the other warps (the persistent kernel
// records its next claimed tile there).
template <class T, class Op, class Shape, class Hook>
__device__ __forceinline__ void scan_tile(lookback_storage<T, Op, Shape>& s,
                                          T (&x)[Shape::rows][Shape::vec], int tile, T* out,
                                          std::int64_t n, int num_tiles,
                                          const cuda_prim::tile_status<T>& status, bool inclusive,
                                          T start, bool vectorized, unsigned sleep_ns,
                                          Hook before_second_barrier) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  constexpr int rows = Shape::rows;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  Op op;
  const int lane = lane_id();
  const int warp = warp_id();
  const std::int64_t tile_base = static_cast<std::int64_t>(tile) * Shape::tile_items;
  const int tile_count = tile_size<Shape>(n, tile_base);
  const bool full_vectors = vectorized && tile_count == Shape::tile_items;

  // ---- Phase 3: scan each vector in registers (inclusive), then each row across the warp.
#pragma unroll
  for (int k = 0; k < rows; ++k)
#pragma unroll
    for (int j = 1; j < vec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);

  T row_prefix[rows];  // op over the warp's elements before vector k of this lane
  T warp_total;
  {
    T row_inclusive[rows];
#pragma unroll
    for (int k = 0; k < rows; ++k) row_inclusive[k] = warp_inclusive_scan(x[k][vec - 1], op);
#pragma unroll
    for (int k = 0; k < rows; ++k) {
      const T exclusive = warp_exclusive_from_inclusive(row_inclusive[k], Op::identity());
      const T row_total = shfl_idx(row_inclusive[k], warp_size - 1);
      if (k == 0) {
        row_prefix[0] = exclusive;
        warp_total = row_total;
      } else {
        row_prefix[k] = lane == 0 ? warp_total : op(warp_total, exclusive);
        warp_total = op(warp_total, row_total);
      }
    }
  }

  // ---- Phase 4: scan the warp totals; warp 0 resolves the tile prefix.
  block_scan_t::store_warp_total(s.scan, warp_total);
  __syncthreads();
  if (warp == 0) {
    const T aggregate = block_scan_t::scan_warp_totals(s.scan, op);
    T prefix = start;
    if (tile > 0) {
      // Publish the aggregate first: later tiles may be waiting for it right now.
      if (lane == 0 && tile < num_tiles - 1) status.publish_aggregate(tile, aggregate);
      prefix = look_back<T, Op, Shape>(status, tile, op, sleep_ns, s.window);
    }
    if (lane == 0) {
      if (tile < num_tiles - 1) status.publish_inclusive(tile, op(prefix, aggregate));
      s.tile_prefix = prefix;
    }
  }
  before_second_barrier();
  __syncthreads();

  // ---- Phase 5: combine the prefixes and store.
  const T warp_prefix = op(s.tile_prefix, s.scan.warp_prefix[warp]);
  const int my_offset = warp * Shape::warp_items + lane * vec;
  T* dst = out + tile_base + my_offset;
#pragma unroll
  for (int k = 0; k < rows; ++k) {
    const T prefix = op(warp_prefix, row_prefix[k]);
    vec16<T> y;
#pragma unroll
    for (int j = 0; j < vec; ++j) {
      if (inclusive) y.v[j] = op(prefix, x[k][j]);
      else y.v[j] = j == 0 ? prefix : op(prefix, x[k][j - 1]);
    }
    if (full_vectors) {
      store_vec16(dst + k * warp_size * vec, y);
    } else {
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = k * warp_size * vec + j;
        if (my_offset + e < tile_count) dst[e] = y.v[j];
      }
    }
  }
}

// One block per tile. num_tiles == 1: no counter, no status, no look-back (small inputs run
// in a single launch). `start` is the exclusive prefix of tile 0: init for exclusive scans,
// the identity for inclusive ones.
template <class T, class Op, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    scan_lookback_kernel(const T* in, T* out, std::int64_t n, int num_tiles,
                         cuda_prim::tile_status<T> status, int* tile_counter, bool inclusive,
                         T start, bool vectorized, unsigned sleep_ns, bool speculate) {
  __shared__ lookback_storage<T, Op, Shape> s;

  // ---- Phases 1 and 2: claim a tile and load it.
  // The counter's answer takes an L2 round trip. Blocks start in (nearly) blockIdx order, so
  // the answer is almost always blockIdx.x: with Shape::speculate the block loads that tile
  // while the atomic is in flight and reloads only when the guess was wrong. The host turns
  // this off for in-place scans (`speculate` false), where a wrong guess could read a tile
  // that its owner is already rewriting.
  T x[Shape::rows][Shape::vec];
  int tile = 0;
  if (num_tiles == 1) {
    load_tile<T, Op, Shape>(x, in, n, 0, vectorized);
  } else {
    if (threadIdx.x == 0) s.tile[0] = atomicAdd(tile_counter, 1);
    if (speculate) load_tile<T, Op, Shape>(x, in, n, static_cast<int>(blockIdx.x), vectorized);
    __syncthreads();
    tile = s.tile[0];
    if (!speculate || tile != static_cast<int>(blockIdx.x))
      load_tile<T, Op, Shape>(x, in, n, tile, vectorized);
  }
  scan_tile<T, Op, Shape>(s, x, tile, out, n, num_tiles, status, inclusive, start, vectorized,
                          sleep_ns, [] {});
}

// Persistent variant (Shape::persistent): a grid of at most as many blocks as fit on the
// device at once, each looping over tiles. Block-local pipeline of Shape::stages tiles:
// iteration k scans tile t_k while the loads of t_(k+1) .. t_(k+stages-1) are in flight into
// shared memory, and the id t_(k+stages) is being claimed.
//
//   iteration k:  start loads of t_(k+stages-1) (cp.async into its stage, no registers)
//                 issue the atomic that claims t_(k+stages) (answer needed only later)
//                 wait for this thread's copies of t_k, move them to registers
//                 phases 3-5 on t_k; between the two barriers thread 0 stores the claim
//
// Slot k % stages of s.tile holds t_k and stage k % stages holds its elements. Each thread
// reads back exactly the 16-byte vectors it copied itself, so cp.async.wait_group is all the
// synchronization the staged data needs; the ring of ids is ordered by the barriers of
// scan_tile (slot k % stages is read at the start of iterations k - stages + 1 and k and
// rewritten after the first barrier of iteration k).
//
// No deadlock: a block claims ids in increasing order and finishes them in that order, and a
// look-back waits only for smaller ids. The smallest unfinished id therefore belongs to a
// running block that is working on it and whose look-back finds everything published.
// In-place scans are safe: a block only ever reads tiles it has claimed, before it rewrites
// them. Tiles that are partial or misaligned are not staged; they are read from global memory
// when their turn comes (at most one per scan unless the data is misaligned).
template <class T, class Op, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    scan_lookback_persistent_kernel(const T* in, T* out, std::int64_t n, int num_tiles,
                                    cuda_prim::tile_status<T> status, int* tile_counter,
                                    bool inclusive, T start, bool vectorized, unsigned sleep_ns) {
  using namespace cuda_prim;
  constexpr int stages = Shape::stages;
  constexpr int vec = Shape::vec;
  __shared__ lookback_storage<T, Op, Shape> s;
  extern __shared__ uint4 s_staged[];  // stages * Shape::tile_items elements, 16-byte aligned
  T* const staged = reinterpret_cast<T*>(s_staged);
  const int my_offset = warp_id() * Shape::warp_items + lane_id() * vec;
  // One tile (num_tiles == 1): no counter and no status; ids 0, 1, ... end the loop at once.
  const bool single = num_tiles == 1;

  auto staged_tile = [&](int t) {
    return vectorized && t < num_tiles &&
           tile_size<Shape>(n, static_cast<std::int64_t>(t) * Shape::tile_items) ==
               Shape::tile_items;
  };
  // Starts the loads of tile t into stage `stage` and closes the group (empty if not staged).
  auto prefetch = [&](int t, int stage) {
    if (staged_tile(t)) {
      const T* src = in + static_cast<std::int64_t>(t) * Shape::tile_items + my_offset;
      T* dst = staged + stage * Shape::tile_items + my_offset;
#pragma unroll
      for (int k = 0; k < Shape::rows; ++k)
        async_copy_16(dst + k * warp_size * vec, src + k * warp_size * vec);
    }
    async_copy_commit();
  };

  // ---- Prologue: claim `stages` tiles and start loading all but the last.
  // The claims go out one after the other, a round trip apart, not together: ids should follow
  // the order in which tiles will be scanned. If a block took two ids at once (say 2b and
  // 2b + 1), tile 2b + 1 would be scanned an iteration after tile 2b + 2 of the next block,
  // which waits for its aggregate, and so on through every block: a serial chain over the
  // whole first wave. Claimed in turn, all blocks' first tiles come before all second tiles.
  for (int i = 0; i < stages; ++i) {
    if (threadIdx.x == 0) s.tile[i] = single ? i : atomicAdd(tile_counter, 1);
    __syncthreads();
    if (i + 1 < stages) prefetch(s.tile[i], i);
  }

  for (int k = 0;; ++k) {
    const int slot = k % stages;
    const int tile = s.tile[slot];
    if (tile >= num_tiles) break;  // ids only grow: every later claim is past the end too
    // ---- Keep the pipeline full, then claim the tile after the last one in flight.
    const int ahead = (k + stages - 1) % stages;
    prefetch(s.tile[ahead], ahead);
    const int claimed =
        threadIdx.x == 0 ? (single ? num_tiles : atomicAdd(tile_counter, 1)) : 0;
    // ---- This tile's data: this thread's copies are complete once at most the
    // stages - 1 newer groups are pending.
    async_copy_wait<stages - 1>();
    T x[Shape::rows][vec];
    if (staged_tile(tile)) {
      const T* src = staged + slot * Shape::tile_items + my_offset;
#pragma unroll
      for (int k2 = 0; k2 < Shape::rows; ++k2) {
        const vec16<T> v = load_vec16(src + k2 * warp_size * vec);
#pragma unroll
        for (int j = 0; j < vec; ++j) x[k2][j] = v.v[j];
      }
    } else {
      load_tile<T, Op, Shape>(x, in, n, tile, vectorized);
    }
    scan_tile<T, Op, Shape>(s, x, tile, out, n, num_tiles, status, inclusive, start, vectorized,
                            sleep_ns, [&] {
                              if (threadIdx.x == 0) s.tile[slot] = claimed;
                            });
  }
}

}  // namespace parprim::cuda_kernels
