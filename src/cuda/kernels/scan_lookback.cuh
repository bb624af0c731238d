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
// a sequential fold of up to 31 values by one warp (about 150 cycles) instead of a shuffle
// tree; it is paid once per tile and hidden behind other tiles' memory traffic.
#pragma once

#include <cstdint>

#include "cuda/primitives/block_scan.cuh"
#include "cuda/primitives/tile_status.cuh"
#include "cuda/primitives/vector_io.cuh"
#include "cuda/primitives/warp_scan.cuh"

namespace parprim::cuda_kernels {

template <class T, int Threads, int Items, bool Speculate, int LookbackPerLane>
struct lookback_shape {
  static constexpr int threads = Threads;
  static constexpr int lookback_per_lane = LookbackPerLane;
  static constexpr bool speculate = Speculate;
  static constexpr int items = Items;
  static constexpr int vec = cuda_prim::vec16<T>::size;
  static constexpr int rows = Items / vec;  // 16-byte vectors per thread
  static constexpr int warps = Threads / cuda_prim::warp_size;
  static constexpr int warp_items = cuda_prim::warp_size * Items;
  static constexpr int tile_items = Threads * Items;
  static_assert(Items % vec == 0, "items per thread must fill whole 16-byte vectors");
};

// Elements of the tile starting at `base` (Threads * Items except for the last tile).
template <class Shape>
__device__ __forceinline__ int tile_size(std::int64_t n, std::int64_t base) {
  return n - base < Shape::tile_items ? static_cast<int>(n - base) : Shape::tile_items;
}

__device__ __forceinline__ void spin_pause(unsigned sleep_ns) {
  if (sleep_ns != 0) __nanosleep(sleep_ns);
}

// The exclusive prefix E_tile of tile > 0, computed by the 32 lanes of one warp; every lane
// returns it. Spins until enough predecessors have published.
//
// Why a wide window. The fold below makes each inclusive prefix depend on an earlier one, so
// the front of published inclusive prefixes advances by at most one window per round trip to
// L2. With a window of 32 tiles that front, not memory bandwidth, limited the scan (measured on
// H100: ~22 ns per tile at 2^28). Each lane therefore polls PerLane consecutive tiles at once,
// a window of 32 * PerLane tiles per round trip; the longer sequential fold (one dependent op
// per tile) is cheap next to the round trip.
template <class T, class Op, int PerLane, class Status>
__device__ T look_back(const Status& status, int tile, Op op, unsigned sleep_ns) {
  using namespace cuda_prim;
  const int lane = lane_id();
  constexpr int window = warp_size * PerLane;

  // ---- Fast path: the `window` tiles just before this one, both slots read at once. Lane l
  // holds tiles first + l * PerLane + k, k < PerLane, so window position q = l * PerLane + k.
  const int first = tile - window;
  T inclusive[PerLane], aggregate[PerLane];
  bool has_inclusive[PerLane], has_aggregate[PerLane];
#pragma unroll
  for (int k = 0; k < PerLane; ++k) {
    const int t = first + lane * PerLane + k;
    inclusive[k] = aggregate[k] = Op::identity();
    has_inclusive[k] = has_aggregate[k] = false;
    if (t >= 0) {
      has_inclusive[k] = status.poll_inclusive(t, inclusive[k]);
      has_aggregate[k] = status.poll_aggregate(t, aggregate[k]);
    }
  }
  // The nearest tile with an inclusive prefix: the highest lane that has one, and its highest k.
  int my_last = -1;
#pragma unroll
  for (int k = 0; k < PerLane; ++k)
    if (has_inclusive[k]) my_last = k;
  const unsigned lanes_with = __ballot_sync(full_warp, my_last >= 0);
  if (lanes_with != 0) {
    const int src_lane = warp_size - 1 - __clz(lanes_with);
    const int src_k = __shfl_sync(full_warp, my_last, src_lane);
    const int p = src_lane * PerLane + src_k;  // window position of that tile
    // Wait until every tile after it has its aggregate out.
    auto have_needed = [&] {
      bool ok = true;
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (lane * PerLane + k > p && !has_aggregate[k]) ok = false;
      return ok;
    };
    while (!__all_sync(full_warp, have_needed())) {
      spin_pause(sleep_ns);
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (lane * PerLane + k > p && !has_aggregate[k])
          has_aggregate[k] = status.poll_aggregate(first + lane * PerLane + k, aggregate[k]);
    }
    // Left fold P_j op A_(j+1) op ... op A_(tile-1), one value at a time, in tile order.
    T mine = inclusive[0];
#pragma unroll
    for (int k = 1; k < PerLane; ++k)
      if (k == src_k) mine = inclusive[k];
    T acc = shfl_idx(mine, src_lane);
#pragma unroll
    for (int l = 0; l < warp_size; ++l)
#pragma unroll
      for (int k = 0; k < PerLane; ++k) {
        const T a = shfl_idx(aggregate[k], l);
        if (l * PerLane + k > p) acc = op(acc, a);
      }
    return acc;
  }

  // ---- Slow path: walk back 32 tiles at a time to the nearest inclusive prefix (starting
  // over from the top if none is out yet: tile 0 always publishes one without waiting) ...
  int base = 0;
  T acc = Op::identity();
  for (int hi = tile - window;; hi -= warp_size) {
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
    for (int k = 0; k < count; ++k) acc = op(acc, shfl_idx(agg, k));
  }
  return acc;
}

// One block per tile. num_tiles == 1: no counter, no status, no look-back (small inputs run
// in a single launch). `start` is the exclusive prefix of tile 0: init for exclusive scans,
// the identity for inclusive ones.
template <class T, class Op, class Shape>
__global__ void __launch_bounds__(Shape::threads)
    scan_lookback_kernel(const T* in, T* out, std::int64_t n, int num_tiles,
                         cuda_prim::tile_status<T> status, int* tile_counter, bool inclusive,
                         T start, bool vectorized, unsigned sleep_ns, bool speculate) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  constexpr int rows = Shape::rows;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  __shared__ typename block_scan_t::storage s_scan;
  __shared__ int s_tile;
  __shared__ T s_tile_prefix;
  Op op;
  const int lane = lane_id();
  const int warp = warp_id();

  // ---- Phases 1 and 2: claim a tile and load it.
  // The counter's answer takes an L2 round trip. Blocks start in (nearly) blockIdx order, so
  // the answer is almost always blockIdx.x: with Shape::speculate the block loads that tile
  // while the atomic is in flight and reloads only when the guess was wrong. The host turns
  // this off for in-place scans (`speculate` false), where a wrong guess could read a tile
  // that its owner is already rewriting.
  T x[rows][vec];
  const int my_offset = warp * Shape::warp_items + lane * vec;  // vector k is 32 * vec further on
  auto load_tile = [&](int t) {
    const std::int64_t base = static_cast<std::int64_t>(t) * Shape::tile_items;
    const int count = tile_size<Shape>(n, base);
    const T* src = in + base + my_offset;
    if (vectorized && count == Shape::tile_items) {
#pragma unroll
      for (int k = 0; k < rows; ++k) {
        const vec16<T> v = load_vec16(src + k * warp_size * vec);
#pragma unroll
        for (int j = 0; j < vec; ++j) x[k][j] = v.v[j];
      }
    } else {
#pragma unroll
      for (int k = 0; k < rows; ++k)
#pragma unroll
        for (int j = 0; j < vec; ++j) {
          const int e = k * warp_size * vec + j;
          x[k][j] = my_offset + e < count ? src[e] : Op::identity();
        }
    }
  };
  int tile = 0;
  if (num_tiles == 1) {
    load_tile(0);
  } else {
    if (threadIdx.x == 0) s_tile = atomicAdd(tile_counter, 1);
    if (speculate) load_tile(static_cast<int>(blockIdx.x));
    __syncthreads();
    tile = s_tile;
    if (!speculate || tile != static_cast<int>(blockIdx.x)) load_tile(tile);
  }
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
  block_scan_t::store_warp_total(s_scan, warp_total);
  __syncthreads();
  if (warp == 0) {
    const T aggregate = block_scan_t::scan_warp_totals(s_scan, op);
    T prefix = start;
    if (tile > 0) {
      // Publish the aggregate first: later tiles may be waiting for it right now.
      if (lane == 0 && tile < num_tiles - 1) status.publish_aggregate(tile, aggregate);
      prefix = look_back<T, Op, Shape::lookback_per_lane>(status, tile, op, sleep_ns);
    }
    if (lane == 0) {
      if (tile < num_tiles - 1) status.publish_inclusive(tile, op(prefix, aggregate));
      s_tile_prefix = prefix;
    }
  }
  __syncthreads();

  // ---- Phase 5: combine the prefixes and store.
  const T warp_prefix = op(s_tile_prefix, s_scan.warp_prefix[warp]);
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

}  // namespace parprim::cuda_kernels
