// The tile-level steps of the decoupled look-back scan (parprim/cuda/scan.cuh explains the
// tiles, their layout and the phases): the shape, loading a tile, the scan of one warp's
// stretch (phase 3), its stores (phase 5), and scan_tile, which runs phases 3 to 5 for a block
// that holds one tile in registers. The pipelined kernel (scan_pipelined.cuh) runs the same
// stretch steps from shared memory, so both kernels give the same bits.
#pragma once

#include <cstdint>

#include "parprim/cuda/detail/block_scan.cuh"
#include "parprim/cuda/detail/look_back.cuh"
#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/detail/warp_scan.cuh"
#include "parprim/detail/generic.hpp"

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
  static constexpr int vec = cuda_prim::unit_size<T>;
  static constexpr int rows = items / vec;  // units per thread
  static constexpr int warps = threads / cuda_prim::warp_size;
  static constexpr int warp_items = cuda_prim::warp_size * items;
  static constexpr int tile_items = threads * items;
  static_assert(items % vec == 0, "items per thread must fill whole 16-byte vectors");
};

// Elements of the tile starting at `base` (Threads * Items except for the last tile).
template <class Shape>
__device__ __forceinline__ int tile_size(std::int64_t n, std::int64_t base) {
  return n - base < Shape::tile_items ? static_cast<int>(n - base) : Shape::tile_items;
}

template <class T, class Op, class Shape>
struct lookback_storage {
  typename cuda_prim::block_scan<T, Op, Shape::threads>::storage scan;
  T tile_prefix;
  T window[Shape::fold_in_shared ? Shape::window : 1];  // the look-back's aggregates, in order
  int tile;
};

// Loads tile `t` into registers, mapped: whole units when the tile is full and the data
// aligned (`vectorized`), guarded elements otherwise (padding: the tile's first element).
template <class In, class T, class Shape, class Map>
__device__ __forceinline__ void load_tile(T (&x)[Shape::rows][Shape::vec], const In* in,
                                          std::int64_t n, int t, bool vectorized, Map map) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  const int my_offset = warp_id() * Shape::warp_items + lane_id() * vec;
  const std::int64_t base = static_cast<std::int64_t>(t) * Shape::tile_items;
  const int count = tile_size<Shape>(n, base);
  const In* src = in + base + my_offset;
  bool whole_units = false;
  if constexpr (unit_size<In> == vec) {  // transform scans may change the element size
    whole_units = vectorized && count == Shape::tile_items;
    if (whole_units) {
#pragma unroll
      for (int k = 0; k < Shape::rows; ++k) {
        In v[vec];
        load_unit(v, src + k * warp_size * vec);
#pragma unroll
        for (int j = 0; j < vec; ++j) x[k][j] = map(v[j]);
      }
    }
  }
  if (!whole_units) {
    const In pad = in[base];
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = k * warp_size * vec + j;
        x[k][j] = map(my_offset + e < count ? src[e] : pad);
      }
  }
}

// a op b where either may be missing (has_a / has_b); the result exists if either does.
template <class T, class Op>
__device__ __forceinline__ T combine(bool has_a, const T& a, bool has_b, const T& b, Op op) {
  return has_a ? (has_b ? op(a, b) : a) : b;
}

// Phase 3 for the stretch of one warp: each unit scanned in place (inclusive), the unit totals
// of each row scanned across the warp, and the rows chained. row_prefix[k] is op over the
// stretch's elements before unit k of this lane (lane 0 of row 0 has none unless Op has an
// identity); warp_total is op over the whole stretch, in every lane.
template <class T, class Op, class Shape>
__device__ __forceinline__ void stretch_scan(T (&x)[Shape::rows][Shape::vec],
                                             T (&row_prefix)[Shape::rows], T& warp_total, Op op) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  constexpr int rows = Shape::rows;
  constexpr bool ident = parprim::detail::has_identity<Op>::value;
  const int lane = lane_id();
#pragma unroll
  for (int k = 0; k < rows; ++k)
#pragma unroll
    for (int j = 1; j < vec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);
  T row_inclusive[rows];
#pragma unroll
  for (int k = 0; k < rows; ++k) row_inclusive[k] = warp_inclusive_scan(x[k][vec - 1], op);
#pragma unroll
  for (int k = 0; k < rows; ++k) {
    T exclusive = shfl_up(row_inclusive[k], 1);
    if constexpr (ident)
      if (lane == 0) exclusive = Op::identity();
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

// Phase 5 for the stretch of warp `warp` of the tile that starts at `tile_out`: every element
// gets the warp's prefix (tile prefix op the earlier warps' totals; missing where
// has_warp_prefix is false), its row prefix and the scanned unit, and is stored (16-byte
// vectors when full_vectors, else the elements before tile_count).
template <class T, class Op, class Shape>
__device__ __forceinline__ void store_stretch(const T (&x)[Shape::rows][Shape::vec],
                                              const T (&row_prefix)[Shape::rows],
                                              bool has_warp_prefix, const T& warp_prefix,
                                              bool inclusive, T* tile_out, int tile_count,
                                              bool full_vectors, int warp, Op op) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  constexpr bool ident = parprim::detail::has_identity<Op>::value;
  const int lane = lane_id();
  const int my_offset = warp * Shape::warp_items + lane * vec;
  T* dst = tile_out + my_offset;
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k) {
    const bool has_row = ident || k > 0 || lane > 0;
    const bool has_prefix = has_warp_prefix || has_row;
    const T prefix = combine(has_warp_prefix, warp_prefix, has_row, row_prefix[k], op);
    T y[vec];
#pragma unroll
    for (int j = 0; j < vec; ++j) {
      if (inclusive) y[j] = has_prefix ? op(prefix, x[k][j]) : x[k][j];
      else y[j] = j == 0 ? prefix : op(prefix, x[k][j - 1]);  // exclusive: a prefix exists
    }
    if (full_vectors) {
      store_unit(dst + k * warp_size * vec, y);
    } else {
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = k * warp_size * vec + j;
        if (my_offset + e < tile_count) dst[e] = y[j];
      }
    }
  }
}

// Phases 3 to 5 of tile `tile`, whose elements are in x. Every thread of the block calls it;
// it contains two barriers. from_init: tile 0's prefix is `start` (exclusive scans, inclusive
// ones from init); otherwise tile 0 has none (with an identity, `start` is the identity).
template <class T, class Op, class Shape>
__device__ __forceinline__ void scan_tile(lookback_storage<T, Op, Shape>& s,
                                          T (&x)[Shape::rows][Shape::vec], int tile, T* out,
                                          std::int64_t n, int num_tiles,
                                          const cuda_prim::tile_status<T>& status, bool inclusive,
                                          bool from_init, T start, bool vectorized,
                                          unsigned sleep_ns, Op op) {
  using namespace cuda_prim;
  constexpr bool ident = parprim::detail::has_identity<Op>::value;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  const int lane = lane_id();
  const int warp = warp_id();
  const std::int64_t tile_base = static_cast<std::int64_t>(tile) * Shape::tile_items;
  const int tile_count = tile_size<Shape>(n, tile_base);

  // ---- Phase 3: scan each unit in registers, then each row across the warp.
  T row_prefix[Shape::rows];
  T warp_total;
  stretch_scan<T, Op, Shape>(x, row_prefix, warp_total, op);

  // ---- Phase 4: scan the warp totals; warp 0 resolves the tile prefix.
  const bool has_tile_prefix = ident || tile > 0 || from_init;
  block_scan_t::store_warp_total(s.scan, warp_total);
  __syncthreads();
  if (warp == 0) {
    const T aggregate = block_scan_t::scan_warp_totals(s.scan, op);
    T prefix = start;
    if (tile > 0) {
      // Publish the aggregate first: later tiles may be waiting for it right now.
      if (lane == 0 && tile < num_tiles - 1) status.publish_aggregate(tile, aggregate);
      prefix = look_back<T, Op, Shape::lookback_per_lane, Shape::fold_in_shared>(
          status, tile, op, sleep_ns, s.window);
    }
    if (lane == 0) {
      if (tile < num_tiles - 1)
        status.publish_inclusive(tile, combine(has_tile_prefix, prefix, true, aggregate, op));
      s.tile_prefix = prefix;
    }
  }
  __syncthreads();

  // ---- Phase 5: combine the prefixes and store.
  const T warp_prefix =
      combine(has_tile_prefix, s.tile_prefix, ident || warp > 0, s.scan.warp_prefix[warp], op);
  store_stretch<T, Op, Shape>(x, row_prefix, has_tile_prefix || ident || warp > 0, warp_prefix,
                              inclusive, out + tile_base, tile_count,
                              vectorized && tile_count == Shape::tile_items, warp, op);
}

}  // namespace parprim::cuda_kernels
