// The pipelined decoupled look-back scan (Hopper and later): persistent blocks, one per SM,
// whose warps each do one job, so that no warp that loads data ever waits for a look-back.
//
// Why. scan_kernel holds a tile in a block's registers from its load to its store, and the
// whole block waits while warp 0 looks back. Per-tile time stamps on the H100 (u32, 2^28,
// bench/results/2026-11-21-h100-experiments.md): 3.3 us from the block's start to its local
// scan, 6.3 us in the look-back, 0.5 us issuing the stores. A tile waits for the aggregates of
// the ~100 tiles before it, so for the slowest of their loads; meanwhile its block moves no
// bytes. The same kernel with the look-back taken out ran at 98.5% of a memcpy, with it at
// 85.5%. Here a tile's aggregate depends only on its own bytes, and loads run ahead into a
// ring of shared-memory stages while earlier tiles wait for their prefixes.
//
// Roles (Shape::warps = 8 warps per squad, each warp owning one stretch of the tile exactly as
// in scan_kernel):
//   warps 0-7    reduce: once a stage has landed, phase 3 and the scan of the warp totals (the
//                same code as scan_tile, so the same aggregate bits); publishes the aggregate;
//   warps 8-15   scan: once the stage's tile prefix is known, phase 3 again and phase 5 from
//                the stage; frees the stage for the next load;
//   warp 16      load: claims tile ids from the counter, in order, and brings each tile into a
//                free stage with one bulk copy (TMA); the last tile's tail below 16 bytes by
//                plain loads;
//   warp 17      look-back: the tile prefixes in order (look_back.cuh), inclusive prefixes
//                published.
// A stage passes four mbarriers in turn: full (bytes in) -> reduced (aggregate known) ->
// prefixed (tile prefix known) -> freed (done with). Every thread of the three roles that
// read a stage arrives on freed after its own accesses, not through a chain of other
// barriers: when only the scan squad arrived, racecheck found the stage's tile id rewritten
// past the reads of other roles' threads (f64 on the H100). Every role walks the stages in
// the same order: pass `it` uses stage it % Stages in round it / Stages, whose
// parity is the barriers' phase. When the counter runs out the load warp marks the stage with
// tile -1, and every role stops there.
//
// No deadlock: ids are claimed in order, a tile's aggregate needs only its own bytes, and a
// block resolves its tiles in the order it claimed them, so the lowest unresolved tile always
// belongs to a running block whose predecessors are resolved.
//
// Requirements (launch_pipelined checks the device side): input 16-byte aligned, In and T of
// the same unit size; in place is fine (a tile's bytes are read before any of its stores, and
// no other tile writes them).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "parprim/cuda/detail/bulk_copy.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/pipelined.cuh"
#include "parprim/cuda/detail/scan_tile.cuh"

namespace parprim::cuda_kernels {

template <class In, class T, class Op, class Shape, int Stages>
struct pipelined_storage {
  alignas(128) In tile[Stages][Shape::tile_items];
  typename cuda_prim::block_scan<T, Op, Shape::threads>::storage scan[Stages];
  T aggregate[Stages];
  T tile_prefix[Stages];
  int tile_id[Stages];
  T window[Shape::window];  // the look-back warp's fold
  std::uint64_t full[Stages], reduced[Stages], prefixed[Stages], freed[Stages];
};

// Stretch `warp` of the staged tile into registers, mapped; elements past `count` padded with
// the tile's first (as load_tile does).
template <class In, class T, class Shape, class Map>
__device__ __forceinline__ void load_stretch_from_stage(T (&x)[Shape::rows][Shape::vec],
                                                        const In* stage, int count, int warp,
                                                        Map map) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  const int my_offset = warp * Shape::warp_items + lane_id() * vec;
  if (count == Shape::tile_items) {
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k) {
      In v[vec];
      load_unit(v, stage + my_offset + k * warp_size * vec);
#pragma unroll
      for (int j = 0; j < vec; ++j) x[k][j] = map(v[j]);
    }
  } else {
    const In pad = stage[0];
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = my_offset + k * warp_size * vec + j;
        x[k][j] = map(e < count ? stage[e] : pad);
      }
  }
}

// Everything one pass of any role needs to know.
template <class In, class T, class Map, class Op>
struct pipelined_args {
  const In* in;
  T* out;
  std::int64_t n;
  int num_tiles;
  cuda_prim::tile_status<T> status;
  int* tile_counter;
  bool inclusive;
  bool from_init;  // tile 0's prefix is `start` (see scan_tile)
  T start;
  bool out_vectorized;
  Map map;
  Op op;
};

template <class In, class T, class Map, class Op, class Shape, int Stages>
__device__ __forceinline__ void load_role(pipelined_storage<In, T, Op, Shape, Stages>& s,
                                          const pipelined_args<In, T, Map, Op>& a) {
  using namespace cuda_prim;
  load_stages<Stages>(s, a.tile_counter, a.num_tiles, [&](int st, int tile) {
    const std::int64_t base = std::int64_t(tile) * Shape::tile_items;
    const int count = tile_size<Shape>(a.n, base);
    const unsigned bulk = stage_elements(s.tile[st], a.in + base, count);
    if (bulk != 0) {
      mbarrier_arrive_expect_tx(&s.full[st], bulk);
      bulk_copy_to_shared(s.tile[st], a.in + base, bulk, &s.full[st]);
    } else {
      mbarrier_arrive(&s.full[st]);
    }
  });
}

template <class In, class T, class Map, class Op, class Shape, int Stages>
__device__ __forceinline__ void look_back_role(pipelined_storage<In, T, Op, Shape, Stages>& s,
                                               const pipelined_args<In, T, Map, Op>& a) {
  using namespace cuda_prim;
  constexpr bool ident = parprim::detail::has_identity<Op>::value;
  for (int it = 0;; ++it) {
    const auto [st, parity, tile] = wait_for_stage<Stages>(s, it);
    if (tile < 0) return;
    mbarrier_wait_parity(&s.reduced[st], parity);
    const T aggregate = s.aggregate[st];
    T prefix = a.start;
    if (tile > 0)
      prefix = look_back<T, Op, Shape::lookback_per_lane, Shape::fold_in_shared>(a.status, tile,
                                                                                a.op, 0, s.window);
    if (lane_id() == 0) {
      const bool has_tile_prefix = ident || tile > 0 || a.from_init;
      if (tile < a.num_tiles - 1)
        a.status.publish_inclusive(tile, combine(has_tile_prefix, prefix, true, aggregate, a.op));
      s.tile_prefix[st] = prefix;
      mbarrier_arrive(&s.prefixed[st]);
    }
    mbarrier_arrive(&s.freed[st]);  // every lane, after its reads of the tile id and aggregate
  }
}

template <class In, class T, class Map, class Op, class Shape, int Stages>
__device__ __forceinline__ void reduce_role(pipelined_storage<In, T, Op, Shape, Stages>& s,
                                            const pipelined_args<In, T, Map, Op>& a) {
  using namespace cuda_prim;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  const int warp = warp_id();  // 0 .. Shape::warps - 1
  for (int it = 0;; ++it) {
    const stage_pass pass = wait_for_stage<Stages>(s, it);
    const int st = pass.stage, tile = pass.tile;
    if (tile < 0) return;
    const int count = tile_size<Shape>(a.n, std::int64_t(tile) * Shape::tile_items);
    T x[Shape::rows][Shape::vec], row_prefix[Shape::rows], warp_total;
    load_stretch_from_stage<In, T, Shape>(x, s.tile[st], count, warp, a.map);
    stretch_scan<T, Op, Shape>(x, row_prefix, warp_total, a.op);
    block_scan_t::store_warp_total(s.scan[st], warp_total);
    squad_barrier(1, Shape::threads);
    if (warp == 0) {
      const T aggregate = block_scan_t::scan_warp_totals(s.scan[st], a.op);
      if (lane_id() == 0) {
        s.aggregate[st] = aggregate;
        if (tile > 0 && tile < a.num_tiles - 1) a.status.publish_aggregate(tile, aggregate);
      }
      // Every lane arrives, each after its own writes (the warp prefixes are written by
      // several lanes): the barrier itself orders them before the look-back and scan warps.
      mbarrier_arrive(&s.reduced[st]);
    }
    mbarrier_arrive(&s.freed[st]);  // every thread, after its own accesses to the stage
  }
}

template <class In, class T, class Map, class Op, class Shape, int Stages>
__device__ __forceinline__ void scan_role(pipelined_storage<In, T, Op, Shape, Stages>& s,
                                          const pipelined_args<In, T, Map, Op>& a) {
  using namespace cuda_prim;
  constexpr bool ident = parprim::detail::has_identity<Op>::value;
  const int warp = warp_id() - Shape::warps;  // its stretch
  for (int it = 0;; ++it) {
    const auto [st, parity, tile] = wait_for_stage<Stages>(s, it);
    if (tile < 0) return;
    const std::int64_t tile_base = std::int64_t(tile) * Shape::tile_items;
    const int count = tile_size<Shape>(a.n, tile_base);
    mbarrier_wait_parity(&s.prefixed[st], parity);
    T x[Shape::rows][Shape::vec], row_prefix[Shape::rows], warp_total;
    load_stretch_from_stage<In, T, Shape>(x, s.tile[st], count, warp, a.map);
    stretch_scan<T, Op, Shape>(x, row_prefix, warp_total, a.op);
    const bool has_tile_prefix = ident || tile > 0 || a.from_init;
    const T warp_prefix = combine(has_tile_prefix, s.tile_prefix[st], ident || warp > 0,
                                  s.scan[st].warp_prefix[warp], a.op);
    mbarrier_arrive(&s.freed[st]);  // every thread, after its own reads of the stage
    store_stretch<T, Op, Shape>(x, row_prefix, has_tile_prefix || ident || warp > 0, warp_prefix,
                                a.inclusive, a.out + tile_base, count,
                                a.out_vectorized && count == Shape::tile_items, warp, a.op);
  }
}

template <class In, class T, class Map, class Op, class Shape, int Stages>
__global__ void __launch_bounds__(pipelined_threads<Shape>, 1)
    scan_pipelined_kernel(pipelined_args<In, T, Map, Op> a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace cuda_prim;
  extern __shared__ __align__(128) unsigned char pipelined_shared[];
  auto& s = *reinterpret_cast<pipelined_storage<In, T, Op, Shape, Stages>*>(pipelined_shared);
  if (threadIdx.x == 0) init_stages<Stages>(s, warp_size, freed_arrivals<Shape>);
  __syncthreads();
  const int warp = warp_id();
  if (warp < Shape::warps) reduce_role(s, a);
  else if (warp < 2 * Shape::warps) scan_role(s, a);
  else if (warp == 2 * Shape::warps) load_role(s, a);
  else look_back_role(s, a);
#else
  __trap();  // launch_pipelined never launches a build for an older architecture
#endif
}

// Launches the pipelined scan (scratch as for scan_kernel: the zeroed tile counter and
// status) and returns true, or returns false without launching when this build of the kernel
// predates sm_90 or the device cannot give a block its shared memory. The answer is kept per
// device.
template <class In, class T, class Map, class Op, class Shape, int Stages>
bool launch_pipelined(const context& ctx, const pipelined_args<In, T, Map, Op>& a,
                      const char* who) {
  constexpr int bytes = int(sizeof(pipelined_storage<In, T, Op, Shape, Stages>));
  return launch_if_usable<scan_pipelined_kernel<In, T, Map, Op, Shape, Stages>>(
      ctx, std::min(ctx.multiprocessors(), a.num_tiles), pipelined_threads<Shape>, bytes, a, who);
}

}  // namespace parprim::cuda_kernels
