// The CUDA body of inclusive_scan, exclusive_scan and transform_scan (nvcc only): the single-
// pass scan with decoupled look-back (Merrill & Garland, NVR-2016-002), for any element type
// and associative operator. Every element is read once and written once, so the scan runs
// near copy bandwidth. The precompiled scans (src/cuda/kernels/scan.cu) are this code
// instantiated for the library's op functors.
//
// Tiles and layout. A tile is Threads * Items elements; warp w owns the contiguous stretch
// [w * 32 * Items, (w + 1) * 32 * Items) of it, split into Items / Vec "rows" of 32 units (a
// 16-byte vector, or one element whose size does not divide 16): unit k of lane l covers
// elements (k * 32 + l) * Vec .. + Vec - 1 of the stretch, so every load and store instruction
// of a warp moves contiguous bytes. The scan order inside the stretch is row by row, lane by
// lane, element by element, which is the element order: nothing assumes commutativity.
//
// Phases of one tile (one block):
//   1. claim the next tile id from a global counter (atomicAdd). Ids follow the order in
//      which blocks start, so a tile only ever waits for tiles whose blocks already run or
//      have finished: no deadlock whatever order the hardware schedules blocks in;
//   2. load the tile (16-byte vectors, or guarded scalars for the last tile / misaligned
//      data), speculatively overlapped with step 1;
//   3. scan each unit in registers; scan the unit totals of each row across the warp
//      (shuffles) and chain the rows: per-unit prefixes and the warp total;
//   4. scan the warp totals (shared memory, warp 0). Warp 0 publishes the tile aggregate,
//      looks back for the tile's exclusive prefix (look_back.cuh: a fixed left fold, so float
//      results are bitwise reproducible), and publishes the inclusive prefix;
//   5. every thread combines tile prefix, warp prefix and unit prefix with its values and
//      stores (16-byte vectors or guarded scalars).
//
// No identity is needed. The last tile's missing elements are padded with a copy of its first
// element: padding only ever comes after real elements in scan order and is never stored, and
// the last tile publishes nothing. The prefixes that do not exist (tile 0 of an inclusive
// scan, warp 0, lane 0 of row 0) are tracked as flags; with an operator that has an identity
// (the library's op functors) the flags are constant true and the identity stands in, which
// compiles to the same code as before the operator became generic.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "parprim/cuda/detail/block_scan.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/look_back.cuh"
#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/detail/warp_scan.cuh"
#include "parprim/cuda/tuning/scan_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/span.hpp"

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

// Phases 3 to 5 of tile `tile`, whose elements are in x. Every thread of the block calls it;
// it contains two barriers.
template <class T, class Op, class Shape>
__device__ __forceinline__ void scan_tile(lookback_storage<T, Op, Shape>& s,
                                          T (&x)[Shape::rows][Shape::vec], int tile, T* out,
                                          std::int64_t n, int num_tiles,
                                          const cuda_prim::tile_status<T>& status, bool inclusive,
                                          T start, bool vectorized, unsigned sleep_ns, Op op) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  constexpr int rows = Shape::rows;
  constexpr bool ident = parprim::detail::has_identity<Op>::value;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  const int lane = lane_id();
  const int warp = warp_id();
  const std::int64_t tile_base = static_cast<std::int64_t>(tile) * Shape::tile_items;
  const int tile_count = tile_size<Shape>(n, tile_base);
  const bool full_vectors = vectorized && tile_count == Shape::tile_items;

  // ---- Phase 3: scan each unit in registers (inclusive), then each row across the warp.
#pragma unroll
  for (int k = 0; k < rows; ++k)
#pragma unroll
    for (int j = 1; j < vec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);

  T row_prefix[rows];  // op over the warp's elements before unit k of this lane (k, lane > 0)
  T warp_total;
  {
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

  // ---- Phase 4: scan the warp totals; warp 0 resolves the tile prefix.
  const bool has_tile_prefix = ident || tile > 0 || !inclusive;
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
  const bool has_warp_prefix = has_tile_prefix || ident || warp > 0;
  const T warp_prefix =
      combine(has_tile_prefix, s.tile_prefix, ident || warp > 0, s.scan.warp_prefix[warp], op);
  const int my_offset = warp * Shape::warp_items + lane * vec;
  T* dst = out + tile_base + my_offset;
#pragma unroll
  for (int k = 0; k < rows; ++k) {
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

// One block per tile. num_tiles == 1: no counter, no status, no look-back (small inputs run
// in a single launch). `start` is the exclusive prefix of tile 0: init for exclusive scans
// (for inclusive ones the identity where Op has one, else unused).
// The block waits at phase 4's second barrier while warp 0 looks back; resident blocks that
// cp.async their next tile during the look-back were slower on the H100 (exclusive u32 scan
// of 2^28: 0.9581 ms against this kernel's 0.8412 ms, 0.92x vs 1.05x of CUB;
// bench/results/2026-11-21-h100-experiments.md).
template <class In, class T, class Map, class Op, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    scan_kernel(const In* in, T* out, std::int64_t n, int num_tiles,
                cuda_prim::tile_status<T> status, int* tile_counter, bool inclusive, T start,
                bool vectorized, unsigned sleep_ns, bool speculate, Map map, Op op) {
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
    load_tile<In, T, Shape>(x, in, n, 0, vectorized, map);
  } else {
    if (threadIdx.x == 0) s.tile = atomicAdd(tile_counter, 1);
    if (speculate) load_tile<In, T, Shape>(x, in, n, static_cast<int>(blockIdx.x), vectorized, map);
    __syncthreads();
    tile = s.tile;
    if (!speculate || tile != static_cast<int>(blockIdx.x))
      load_tile<In, T, Shape>(x, in, n, tile, vectorized, map);
  }
  scan_tile<T, Op, Shape>(s, x, tile, out, n, num_tiles, status, inclusive, start, vectorized,
                          sleep_ns, op);
}

// Scratch bytes of scan_into for n elements of T: the tile counter (first 256 bytes), then
// the status slots; none when the input fits one tile.
template <class T>
std::size_t scan_scratch_bytes(std::int64_t n) {
  using shape = lookback_shape<T, cuda_tuning::scan_lookback_tuning<sizeof(T)>>;
  const std::int64_t tiles = ceil_div(n, shape::tile_items);
  if (tiles <= 1 || tiles > INT_MAX) return 0;
  return 256 + cuda_prim::tile_status<T>::bytes(static_cast<int>(tiles));
}

// Launches: one kernel when the input fits one tile; otherwise a cudaMemsetAsync of the tile
// status words and the tile counter (in `scratch`, scan_scratch_bytes<T>(n) of them), then
// one kernel with one block per tile. No host synchronization. n > 0. In place (in == out)
// is allowed.
template <class In, class T, class Map, class Op>
void scan_into(const context& ctx, const In* in, T* out, std::int64_t n, bool inclusive, T init,
               Map map, Op op, void* scratch, const char* who) {
  using tuning = cuda_tuning::scan_lookback_tuning<sizeof(T)>;
  using shape = lookback_shape<T, tuning>;
  using status_t = cuda_prim::tile_status<T>;
  use_device(ctx, who);
  const std::int64_t tiles = ceil_div(n, shape::tile_items);
  if (tiles > INT_MAX)
    throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx.name() +
                                            "]: n=" + std::to_string(n) + " is too large");
  const int num_tiles = static_cast<int>(tiles);
  // Whole-unit loads need the same unit for input and output (transform_scan may change size).
  const bool same_unit = cuda_prim::unit_size<In> == shape::vec;
  const bool vectorized = same_unit && (!cuda_prim::vector_unit<T> ||
                                        (cuda_prim::aligned16(in) && cuda_prim::aligned16(out)));
  T start = init;
  if constexpr (detail::has_identity<Op>::value)
    if (inclusive) start = Op::identity();
  const cudaStream_t s = stream_of(ctx);
  auto kernel = scan_kernel<In, T, Map, Op, shape>;
  if (num_tiles == 1) {
    kernel<<<1, shape::threads, 0, s>>>(in, out, n, 1, status_t{}, nullptr, inclusive, start,
                                        vectorized, tuning::spin_sleep_ns, false, map, op);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  const std::size_t counter_bytes = 256;
  auto* base = static_cast<unsigned char*>(scratch);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(base, 0, scan_scratch_bytes<T>(n), s));
  const status_t status = status_t::bind(base + counter_bytes, num_tiles);
  kernel<<<static_cast<unsigned>(num_tiles), shape::threads, 0, s>>>(
      in, out, n, num_tiles, status, reinterpret_cast<int*>(base), inclusive, start, vectorized,
      tuning::spin_sleep_ns,
      /*speculate=*/shape::speculate && static_cast<const void*>(in) != out, map, op);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// scan_into with its scratch from the workspace or the context's allocator.
template <class In, class T, class Map, class Op>
void scan(const context& ctx, const In* in, T* out, std::int64_t n, bool inclusive, T init,
          Map map, Op op, workspace* ws, const char* who) {
  detail::temp_memory scratch(ctx, ws, scan_scratch_bytes<T>(n));
  scan_into(ctx, in, out, n, inclusive, init, map, op, scratch.get(), who);
}

}  // namespace parprim::cuda_kernels

namespace parprim::detail {

template <>
struct cuda_body<scan_tag, true> {
  template <class In, class T, class Map, class Op>
  static void run(const context& ctx, const char* function, span<const In> in, span<T> out,
                  bool inclusive, T init, Map map, Op op, workspace* ws) {
    cuda_kernels::scan(ctx, in.data(), out.data(), in.size(), inclusive, init, map, op, ws, function);
  }
};

}  // namespace parprim::detail
