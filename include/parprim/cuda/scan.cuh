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
// Two kernels run these phases. scan_kernel gives each tile a block that holds it in registers
// (small and misaligned inputs); for 4-, 8- and 16-byte elements from pipelined_min_tiles
// tiles on, the pipelined kernel (detail/scan_pipelined.cuh) runs them in warps with one job
// each over tiles staged in shared memory, so loads go on while tiles wait in the look-back.
// Both run the same stretch steps (detail/scan_tile.cuh): their results are the same bits.
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

#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/scan_pipelined.cuh"
#include "parprim/cuda/detail/scan_tile.cuh"
#include "parprim/cuda/tuning/scan_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/scan_kind.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda_kernels {

// One block per tile. num_tiles == 1: no counter, no status, no look-back (small inputs run
// in a single launch). `start` is the exclusive prefix of tile 0: init for exclusive scans and
// inclusive ones from init (from_init); for plain inclusive ones the identity where Op has
// one, else unused.
// The block waits at phase 4's second barrier while warp 0 looks back (62% of a block's time
// at 2^28 on the H100), which is what the pipelined kernel removes; resident blocks that
// cp.async their next tile during the look-back were slower than this kernel (0.92x vs 1.05x
// of CUB; bench/results/2026-11-21-h100-experiments.md).
template <class In, class T, class Map, class Op, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    scan_kernel(const In* in, T* out, std::int64_t n, int num_tiles,
                cuda_prim::tile_status<T> status, int* tile_counter, bool inclusive, bool from_init,
                T start, bool vectorized, unsigned sleep_ns, bool speculate, Map map, Op op) {
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
  scan_tile<T, Op, Shape>(s, x, tile, out, n, num_tiles, status, inclusive, from_init, start,
                          vectorized, sleep_ns, op);
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
void scan_into(const context& ctx, const In* in, T* out, std::int64_t n, detail::scan_kind kind,
               T init, Map map, Op op, void* scratch, const char* who) {
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
  constexpr bool same_unit = cuda_prim::unit_size<In> == shape::vec;
  const bool vectorized = same_unit && (!cuda_prim::vector_unit<T> ||
                                        (cuda_prim::aligned16(in) && cuda_prim::aligned16(out)));
  const bool inclusive = detail::includes_own(kind);
  const bool from_init = detail::starts_from_init(kind);
  T start = init;
  if constexpr (detail::has_identity<Op>::value)
    if (!from_init) start = Op::identity();
  const cudaStream_t s = stream_of(ctx);
  auto kernel = scan_kernel<In, T, Map, Op, shape>;
  if (num_tiles == 1) {
    kernel<<<1, shape::threads, 0, s>>>(in, out, n, 1, status_t{}, nullptr, inclusive, from_init,
                                        start, vectorized, tuning::spin_sleep_ns, false, map, op);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  const std::size_t counter_bytes = 256;
  auto* base = static_cast<unsigned char*>(scratch);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(base, 0, scan_scratch_bytes<T>(n), s));
  const status_t status = status_t::bind(base + counter_bytes, num_tiles);
  if constexpr (tuning::pipeline_stages > 0 && same_unit) {
    if (num_tiles >= tuning::pipelined_min_tiles && cuda_prim::aligned16(in)) {
      const pipelined_args<In, T, Map, Op> args{
          in,        out,   n, num_tiles, status, reinterpret_cast<int*>(base), inclusive,
          from_init, start,
          !cuda_prim::vector_unit<T> || cuda_prim::aligned16(out), map, op};
      if (launch_pipelined<In, T, Map, Op, shape, tuning::pipeline_stages>(ctx, args, who)) return;
    }
  }
  kernel<<<static_cast<unsigned>(num_tiles), shape::threads, 0, s>>>(
      in, out, n, num_tiles, status, reinterpret_cast<int*>(base), inclusive, from_init, start,
      vectorized,
      tuning::spin_sleep_ns,
      /*speculate=*/shape::speculate && static_cast<const void*>(in) != out, map, op);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// scan_into with its scratch from the workspace or the context's allocator.
template <class In, class T, class Map, class Op>
void scan(const context& ctx, const In* in, T* out, std::int64_t n, detail::scan_kind kind,
          T init, Map map, Op op, workspace* ws, const char* who) {
  detail::temp_memory scratch(ctx, ws, scan_scratch_bytes<T>(n));
  scan_into(ctx, in, out, n, kind, init, map, op, scratch.get(), who);
}

}  // namespace parprim::cuda_kernels

namespace parprim::detail {

template <>
struct cuda_body<scan_tag, true> {
  template <class In, class T, class Map, class Op>
  static void run(const context& ctx, const char* function, span<const In> in, span<T> out,
                  detail::scan_kind kind, T init, Map map, Op op, workspace* ws) {
    cuda_kernels::scan(ctx, in.data(), out.data(), in.size(), kind, init, map, op, ws, function);
  }
};

}  // namespace parprim::detail
