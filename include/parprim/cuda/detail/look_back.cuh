// The decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled
// Look-back", NVR-2016-002) over tile_status words, for any associative operator and any
// trivially copyable value: the one look-back of the single-pass kernels.
//
// Determinism. A look-back that combines whatever predecessors have published so far combines
// aggregates in an order that depends on timing, which changes float results from run to run.
// Here the tile prefix is *defined* as the left fold over tile aggregates,
//   E_0 = start,  E_i = (...((E_0 op A_0) op A_1) ... ) op A_(i-1),   P_i = E_i op A_i,
// and the look-back computes exactly that value whichever P_j (j < i) it finds: it folds
// P_j op A_(j+1) op ... op A_(i-1) one value at a time, left to right. Since P_j = E_(j+1)
// bit for bit (induction on j), every path gives the same bits. This is why the aggregates
// keep their own slot after the inclusive prefix is published (tile_status.cuh). The price is
// a sequential fold by one warp instead of a shuffle tree; it is paid once per tile. No
// identity is needed: unpublished slots are never combined.
//
// Protocol for a kernel using it (one block per tile, tile ids claimed from a counter in
// block start order, so a tile only waits for running or finished tiles: no deadlock):
//   tile 0:   publish_inclusive(0, A_0 or start op A_0)
//   tile > 0: publish_aggregate(tile, A); E = look_back(...); publish_inclusive(tile, E op A)
// The last tile need publish nothing. For counts (copy_if, partition) the operator is +.
#pragma once

#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/cuda/detail/warp_shuffle.cuh"

namespace parprim::cuda_prim {

__device__ __forceinline__ void spin_pause(unsigned sleep_ns) {
  if (sleep_ns != 0) __nanosleep(sleep_ns);
}

namespace look_back_steps {

// Fast path, the fold: P_j op A_(j+1) op ... op A_(tile-1), one value at a time in tile order,
// where window position p holds the nearest inclusive prefix P_j and every later position its
// aggregate. Lane p % 32's highest published k is p / 32 (no lane has a higher one), so taking
// each lane's last published value avoids a run-time index (which would go to local memory).
template <class T, class Op, int PerLane, bool FoldInShared>
__device__ __forceinline__ T fold_window_from(int p, const T (&inclusive)[PerLane],
                                              const bool (&has_inclusive)[PerLane],
                                              const T (&aggregate)[PerLane], Op op, T* window) {
  constexpr int W = warp_size * PerLane;
  const int lane = lane_id();
  T mine = T{};
#pragma unroll
  for (int k = 0; k < PerLane; ++k)
    if (has_inclusive[k]) mine = inclusive[k];
  T acc = shfl_idx(mine, p % warp_size);
  if constexpr (FoldInShared) {
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

// Fast path: the W tiles just before this one, both slots read at once. Lane l holds tiles
// first + k * 32 + l, k < PerLane: window position q = k * 32 + l, so each poll instruction of
// the warp reads 32 consecutive status words. Returns false, with `result` untouched, when no
// tile of the window has its inclusive prefix out yet.
template <class T, class Op, int PerLane, bool FoldInShared, class Status>
__device__ __forceinline__ bool in_window(const Status& status, int tile, Op op, unsigned sleep_ns,
                                          T* window, T& result) {
  constexpr int W = warp_size * PerLane;
  const int lane = lane_id();
  const int first = tile - W;
  T inclusive[PerLane], aggregate[PerLane];
  bool has_inclusive[PerLane], has_aggregate[PerLane];
#pragma unroll
  for (int k = 0; k < PerLane; ++k) {
    const int t = first + k * warp_size + lane;
    inclusive[k] = aggregate[k] = T{};
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
  if (p < 0) return false;
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
  result = fold_window_from<T, Op, PerLane, FoldInShared>(p, inclusive, has_inclusive, aggregate,
                                                          op, window);
  return true;
}

// Slow path, first half: walk back 32 tiles at a time from below the window to the nearest
// inclusive prefix (starting over from the top if none is out yet: tile 0 always publishes
// one without waiting). Sets `base` to its tile and returns it.
template <class T, int W, class Status>
__device__ __forceinline__ T nearest_inclusive(const Status& status, int tile, unsigned sleep_ns,
                                               int& base) {
  const int lane = lane_id();
  for (int hi = tile - W;; hi -= warp_size) {
    if (hi <= 0) {
      hi = tile;
      spin_pause(sleep_ns);
    }
    const int t = hi - warp_size + lane;
    T inc = T{};
    const bool has = t >= 0 && status.poll_inclusive(t, inc);
    const unsigned found = __ballot_sync(full_warp, has);
    if (found != 0) {
      const int j = warp_size - 1 - __clz(found);
      base = hi - warp_size + j;
      return shfl_idx(inc, j);
    }
  }
}

// Slow path, second half: fold the aggregates of tiles base + 1 .. tile - 1 into acc, 32 per
// round, in tile order.
template <class T, class Op, bool FoldInShared, class Status>
__device__ __forceinline__ T fold_aggregates_after(const Status& status, int base, int tile, T acc,
                                                   Op op, unsigned sleep_ns, T* window) {
  const int lane = lane_id();
  for (int from = base + 1; from < tile; from += warp_size) {
    const int t = from + lane;
    T agg = T{};
    bool has = t >= tile || status.poll_aggregate(t, agg);
    while (!__all_sync(full_warp, has)) {
      spin_pause(sleep_ns);
      if (!has) has = status.poll_aggregate(t, agg);
    }
    const int count = min(warp_size, tile - from);
    if constexpr (FoldInShared) {
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

}  // namespace look_back_steps

// The exclusive prefix E_tile of tile > 0, computed by the 32 lanes of one warp; every lane
// returns it. Spins until enough predecessors have published. `window` (32 * PerLane values
// of shared memory, used only with FoldInShared) is free again when it returns.
//
// Why a wide window. The fold makes each inclusive prefix depend on an earlier one, so the
// front of published inclusive prefixes advances by at most one window per round trip to L2.
// With a window of 32 tiles that front, not memory bandwidth, limited the scan (measured on
// H100: ~22 ns per tile at 2^28). Each lane therefore polls PerLane tiles at once, a window
// of 32 * PerLane tiles per round trip. The fold must then be cheap per tile: with one
// shuffle per position (fold_in_shared off) windows of 128 and 256 measured slower than 32.
template <class T, class Op, int PerLane, bool FoldInShared, class Status>
__device__ T look_back(const Status& status, int tile, Op op, unsigned sleep_ns, T* window) {
  namespace steps = look_back_steps;
  T result;
  if (steps::in_window<T, Op, PerLane, FoldInShared>(status, tile, op, sleep_ns, window, result))
    return result;
  int base = 0;
  const T acc = steps::nearest_inclusive<T, warp_size * PerLane>(status, tile, sleep_ns, base);
  return steps::fold_aggregates_after<T, Op, FoldInShared>(status, base, tile, acc, op, sleep_ns,
                                                          window);
}

// The exclusive prefix of tile > 0 over tile_count_status (element counts, +), computed by
// the 32 lanes of one warp; every lane returns it. Integer sums do not depend on the order of
// the additions, so the ordered fold above is not needed, and the walk is Merrill & Garland's
// single backward pass with a wide window: each round polls the W = 32 * PerLane tiles below
// the ones already summed (both slots at once), and either finds the nearest inclusive prefix
// and adds the aggregates above it (done), or waits for all W aggregates, adds them and moves
// W tiles down. A round costs one round trip to L2 however far the front of published
// inclusive prefixes lags; look_back's slow path walks 32 tiles per round trip, twice (back to
// an inclusive prefix, then forward over the aggregates). Tile 0 publishes only its inclusive
// prefix, so a round keeps polling both slots until it is complete.
template <int PerLane>
__device__ long long look_back_count(const tile_count_status& status, int tile,
                                     unsigned sleep_ns) {
  constexpr int W = warp_size * PerLane;
  const int lane = lane_id();
  long long sum = 0;
  for (int hi = tile;; hi -= W) {  // this round: tiles hi - W .. hi - 1
    long long inclusive[PerLane], aggregate[PerLane];
    bool has_inclusive[PerLane], has_aggregate[PerLane];
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      inclusive[k] = aggregate[k] = 0;
      has_inclusive[k] = false;
      has_aggregate[k] = hi - W + k * warp_size + lane < 0;  // below tile 0: nothing to add
    }
    int p;  // window position (k * 32 + lane) of the nearest inclusive prefix, or -1
    for (;;) {
#pragma unroll
      for (int k = 0; k < PerLane; ++k) {
        const int t = hi - W + k * warp_size + lane;
        if (t < 0) continue;
        if (!has_inclusive[k]) has_inclusive[k] = status.poll_inclusive(t, inclusive[k]);
        if (!has_aggregate[k]) has_aggregate[k] = status.poll_aggregate(t, aggregate[k]);
      }
      p = -1;
#pragma unroll
      for (int k = 0; k < PerLane; ++k) {
        const unsigned lanes_with = __ballot_sync(full_warp, has_inclusive[k]);
        if (lanes_with != 0) p = k * warp_size + warp_size - 1 - __clz(lanes_with);
      }
      bool ready = true;  // every tile above the nearest inclusive prefix has its aggregate
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (k * warp_size + lane > p && !has_aggregate[k]) ready = false;
      if (__all_sync(full_warp, ready)) break;
      spin_pause(sleep_ns);
    }
    long long part = 0;
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      const int q = k * warp_size + lane;
      if (q > p) part += aggregate[k];
      else if (q == p) part += inclusive[k];
    }
#pragma unroll
    for (int d = warp_size / 2; d > 0; d /= 2) part += shfl_xor(part, d);
    sum += part;
    if (p >= 0) return sum;
  }
}

}  // namespace parprim::cuda_prim
