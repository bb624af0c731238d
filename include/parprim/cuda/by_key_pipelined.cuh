// The pipelined scans and reductions by key (Hopper and later): the folding kinds of the
// by-key kernel (by_key.cuh) in persistent blocks whose warps each do one job, as the
// pipelined scan does (detail/scan_pipelined.cuh, which says why): no warp that loads waits
// for a look-back.
//
// Why. The one-block-per-tile kernel works each tile through one serial chain (claim, load,
// heads and fold, block scan, look-back, store), and its SM overlaps only as many chains as
// it holds blocks: the scan by key of 2^28 u32 keys / f32 values moved its 3 GiB at about
// 2.1 TB/s on the H100 where a copy reaches 3.0 (by_key_tuning.hpp). Here the loads of later
// tiles go on while earlier ones wait for their carries.
//
// Roles, with the tile shape of the one-block kernel (Shape::threads threads of Shape::items
// elements; the same functions on the same elements, so the results are the same bits, for
// floats too):
//   squad 0 (Shape::threads)  fold: once a stage has landed, each thread's heads and fold
//                             (by_key_thread.cuh: the scans write their results from the
//                             thread's first head on into the stage at once), the warp scans
//                             of the run states, then warp 0 scans the warp totals and
//                             publishes the tile's carry (for a tile holding a head, its
//                             inclusive carry too) and, for the reduction, its run count;
//   squad 1 (Shape::threads)  output: once the tile's prefix is known, by_key.cuh's phase 5:
//                             the scans refold each thread's elements before its first head
//                             and store the stage; the reduction stages each run's fold and
//                             first key at its rank and stores them at the tile's run offset;
//                             then frees the stage;
//   one warp                  load: claims tile ids in order; brings the tile's keys and
//                             values into a free stage (two bulk copies, the tails below 16
//                             bytes by plain loads) with the key before the tile;
//   one warp                  look-back: the run count (reduction) and the value carry, in
//                             tile order (by_key_prefix.cuh).
// A stage passes the mbarriers full -> reduced -> prefixed -> freed, as in the pipelined scan;
// every thread of squad 0 arrives on reduced, and every thread that reads a stage on freed,
// after its own accesses. Each thread's head mask and exclusive run state within its warp go
// from squad 0 to squad 1 through the stage.
// No deadlock, for the pipelined scan's reason: ids are claimed in order, a tile's aggregates
// need only its own bytes, and a block resolves its tiles in claim order.
// Requirements (checked by the host): keys and values 16-byte aligned, sm_90.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "parprim/cuda/by_key_prefix.cuh"
#include "parprim/cuda/by_key_thread.cuh"
#include "parprim/cuda/detail/block_scan.cuh"
#include "parprim/cuda/detail/bulk_copy.cuh"
#include "parprim/cuda/detail/pipelined.cuh"
#include "parprim/cuda/detail/tile_copy.cuh"
#include "parprim/detail/runs.hpp"

namespace parprim::cuda_kernels::by_key {

template <class K, class V, class Op, class Shape, int Stages>
struct pipelined_storage {
  using state = tile_state<V>;
  alignas(128) K keys[Stages][Shape::tile];
  // The tile's values, then its results (scans) or its runs' folds (reduce: one more for the
  // last tile's final run); rows of whole 128-byte lines, where each stage's bulk copy lands.
  alignas(128) V values[Stages][Shape::value_row];
  std::uint32_t head_mask[Stages][Shape::threads];
  state in_warp_exclusive[Stages][Shape::threads];
  typename cuda_prim::block_scan<state, tile_state_op<V, Op>, Shape::threads>::storage scan[Stages];
  V carry[Stages];                // the value carry into the tile
  std::int64_t first_run[Stages];  // reduce: the runs started before the tile
  K previous_key[Stages];
  int tile_id[Stages];
  alignas(16) run_carry<V> carry_window[cuda_prim::warp_size * Shape::carry_per_lane];
  std::uint64_t full[Stages], reduced[Stages], prefixed[Stages], freed[Stages];
};

template <class K, class V, class Eq, class Op>
struct pipelined_args {
  runs_io<K, V> io;
  int num_tiles;
  cuda_prim::tile_status<run_carry<V>> carries;
  cuda_prim::tile_count_status counts;  // reduce: the run counts
  int* tile_counter;
  std::int64_t* run_count;  // reduce: the last tile's total
  Eq eq;
  Op op;
};

// A stage's keys and values as the reduction's staging functions (by_key_thread.cuh) see a
// block's storage.
template <class K, class V>
struct stage_view {
  K* keys;
  V* values;
};

template <class Shape>
__device__ __forceinline__ int tile_count(std::int64_t n, int tile) {
  const std::int64_t left = n - std::int64_t(tile) * Shape::tile;
  return left < Shape::tile ? int(left) : Shape::tile;
}

template <class K, class V, class Eq, class Op, class Shape, int Stages>
__device__ __forceinline__ void load_role(pipelined_storage<K, V, Op, Shape, Stages>& s,
                                          const pipelined_args<K, V, Eq, Op>& a) {
  using namespace cuda_prim;
  load_stages<Stages>(s, a.tile_counter, a.num_tiles, [&](int st, int tile) {
    const std::int64_t base = std::int64_t(tile) * Shape::tile;
    const int count = tile_count<Shape>(a.io.n, tile);
    if (base > 0) s.previous_key[st] = a.io.keys[base - 1];
    const unsigned key_bytes = stage_elements(s.keys[st], a.io.keys + base, count);
    const unsigned value_bytes = stage_elements(s.values[st], a.io.values + base, count);
    if (key_bytes + value_bytes == 0) return mbarrier_arrive(&s.full[st]);
    mbarrier_arrive_expect_tx(&s.full[st], key_bytes + value_bytes);
    if (key_bytes) bulk_copy_to_shared(s.keys[st], a.io.keys + base, key_bytes, &s.full[st]);
    if (value_bytes) bulk_copy_to_shared(s.values[st], a.io.values + base, value_bytes, &s.full[st]);
  });
}

// Squad 0: heads, fold and the tile's carry aggregate (by_key.cuh's phases 2 to 4 up to the
// look-back).
template <runs_kind Kind, class K, class V, class Eq, class Op, class Shape, int Stages>
__device__ __forceinline__ void reduce_role(pipelined_storage<K, V, Op, Shape, Stages>& s,
                                            const pipelined_args<K, V, Eq, Op>& a) {
  using namespace cuda_prim;
  using state = tile_state<V>;
  using sop_t = tile_state_op<V, Op>;
  using block_scan_t = block_scan<state, sop_t, Shape::threads>;
  const sop_t sop{a.op};
  const int first = int(threadIdx.x) * Shape::items;
  for (int it = 0;; ++it) {
    const stage_pass pass = wait_for_stage<Stages>(s, it);
    const int st = pass.stage, tile = pass.tile;
    if (tile < 0) return;
    const int count = tile_count<Shape>(a.io.n, tile);
    const bool at_start = tile == 0 && first == 0;
    std::uint32_t head_mask = 0;
    state mine = sop_t::identity();
    if (first + Shape::items <= count) {
      head_mask = find_heads<K, Eq, Shape, true>(s.keys[st], s.previous_key[st], first, count,
                                                 at_start, a.eq);
      mine = fold_own<Kind, true, K, V, Op, Shape>(a.io, s.values[st], first, count, head_mask,
                                                   a.op);
    } else if (first < count) {
      head_mask = find_heads<K, Eq, Shape, false>(s.keys[st], s.previous_key[st], first, count,
                                                  at_start, a.eq);
      mine = fold_own<Kind, false, K, V, Op, Shape>(a.io, s.values[st], first, count, head_mask,
                                                    a.op);
    }
    const warp_scan_result<state> in_warp = warp_scan(mine, sop);
    s.head_mask[st][threadIdx.x] = head_mask;
    s.in_warp_exclusive[st][threadIdx.x] = in_warp.exclusive;
    block_scan_t::store_warp_total(s.scan[st], in_warp.total);
    squad_barrier(1, Shape::threads);
    if (warp_id() == 0) {
      const state total = block_scan_t::scan_warp_totals(s.scan[st], sop);
      if (lane_id() == 0) s.scan[st].block_total = total;
      const run_carry<V> aggregate{total.value, total.heads() > 0 ? 1u : 0u};
      if (lane_id() == 0 && tile < a.num_tiles - 1) {
        a.carries.publish_aggregate(tile, aggregate);
        if (aggregate.head) a.carries.publish_inclusive(tile, aggregate);
        if (counts_runs<Kind> && tile > 0) a.counts.publish_aggregate(tile, total.heads());
      }
    }
    // Every thread of the squad, after its own accesses to the stage (warp 0: also the warp
    // prefixes and the total), so that each of its reads and writes is ordered before squad
    // 1's by the mbarriers alone: with only warp 0 arriving, after the squad barrier, racecheck
    // reported the other warps' head masks and states as racing with squad 1's reads, and
    // their folds' reads of the values with squad 1's writes (H100, 2026-11-24).
    mbarrier_arrive(&s.reduced[st]);
    mbarrier_arrive(&s.freed[st]);
  }
}

// The look-back warp: the value carry into each tile (resolve_carry's look-back, the
// aggregates having been published by squad 0).
template <runs_kind Kind, class K, class V, class Eq, class Op, class Shape, int Stages>
__device__ __forceinline__ void look_back_role(pipelined_storage<K, V, Op, Shape, Stages>& s,
                                               const pipelined_args<K, V, Eq, Op>& a) {
  using namespace cuda_prim;
  const carry_op<V, Op> cop{a.op};
  for (int it = 0;; ++it) {
    const auto [st, parity, tile] = wait_for_stage<Stages>(s, it);
    if (tile < 0) return;
    mbarrier_wait_parity(&s.reduced[st], parity);
    const tile_state<V> total = s.scan[st].block_total;
    if constexpr (counts_runs<Kind>) {  // resolve_count's look-back, the aggregate published
      const long long heads = total.heads();
      const long long before = tile > 0 ? look_back_count<Shape::count_per_lane>(a.counts, tile, 0) : 0;
      if (lane_id() == 0) {
        if (tile < a.num_tiles - 1) a.counts.publish_inclusive(tile, before + heads);
        else *a.run_count = before + heads;
        s.first_run[st] = before;
      }
    }
    if (tile > 0) {  // element 0 is a head: nothing carries into tile 0
      const run_carry<V> aggregate{total.value, total.heads() > 0 ? 1u : 0u};
      const run_carry<V> prefix =
          look_back<run_carry<V>, carry_op<V, Op>, Shape::carry_per_lane,
                    (Shape::carry_per_lane > 1)>(a.carries, tile, cop, 0, s.carry_window);
      if (lane_id() == 0) {
        if (!aggregate.head && tile < a.num_tiles - 1)
          a.carries.publish_inclusive(tile, cop(prefix, aggregate));
        s.carry[st] = prefix.value;
      }
    }
    if (lane_id() == 0) mbarrier_arrive(&s.prefixed[st]);
    mbarrier_arrive(&s.freed[st]);  // every lane, after its reads of the stage
  }
}

// Squad 1: by_key.cuh's phase 5 from each thread's prefix, then the stage freed. The scans:
// each thread's results before its first head, then the tile's results stored. The reduction:
// the runs' folds and first keys staged at their ranks (stage_runs, with this squad's
// barrier), then stored at the tile's run offset.
template <runs_kind Kind, class K, class V, class Eq, class Op, class Shape, int Stages>
__device__ __forceinline__ void output_role(pipelined_storage<K, V, Op, Shape, Stages>& s,
                                          const pipelined_args<K, V, Eq, Op>& a) {
  using namespace cuda_prim;
  using state = tile_state<V>;
  using sop_t = tile_state_op<V, Op>;
  const sop_t sop{a.op};
  const int t = int(threadIdx.x) - Shape::threads;  // the squad 0 thread whose elements these are
  const int warp = t / warp_size;
  const int first = t * Shape::items;
  for (int it = 0;; ++it) {
    const auto [st, parity, tile] = wait_for_stage<Stages>(s, it);
    if (tile < 0) return;
    mbarrier_wait_parity(&s.prefixed[st], parity);
    const int count = tile_count<Shape>(a.io.n, tile);
    state exclusive = s.in_warp_exclusive[st][t];  // warp 0 lane 0: the identity
    if (warp > 0) {
      const state before = s.scan[st].warp_prefix[warp];
      exclusive = lane_id() == 0 ? before : sop(before, exclusive);
    }
    const state carry_in = tile > 0 ? state{1u, s.carry[st]} : sop_t::identity();
    const state run = sop(carry_in, exclusive);
    const std::int64_t base = std::int64_t(tile) * Shape::tile;
    if constexpr (Kind == runs_kind::scan) {
      if (first < count)
        stage_scan<K, V, Op, Shape>(a.io, s.values[st], first, count, s.head_mask[st][t], run, a.op);
      squad_barrier(2, Shape::threads);
      store_from_shared<V, Shape>(a.io.values_out + base, s.values[st], count, t);
    } else {
      stage_view<K, V> view{s.keys[st], s.values[st]};
      stage_runs<K, V, Op, stage_view<K, V>, Shape>(a.io, view, base, first, count,
                                                    s.head_mask[st][t], run, a.op,
                                                    [] { squad_barrier(2, Shape::threads); });
      squad_barrier(2, Shape::threads);
      store_runs<K, V, stage_view<K, V>, Shape>(a.io, view, s.first_run[st],
                                                int(s.scan[st].block_total.heads()),
                                                tile == a.num_tiles - 1, t);
    }
    mbarrier_arrive(&s.freed[st]);
  }
}

template <runs_kind Kind, class K, class V, class Eq, class Op, class Shape, int Stages>
__global__ void __launch_bounds__(pipelined_threads<Shape>, Shape::pipelined_blocks_per_sm)
    runs_pipelined_kernel(pipelined_args<K, V, Eq, Op> a) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  using namespace cuda_prim;
  extern __shared__ __align__(128) unsigned char by_key_pipelined_shared[];
  auto& s = *reinterpret_cast<pipelined_storage<K, V, Op, Shape, Stages>*>(by_key_pipelined_shared);
  if (threadIdx.x == 0) init_stages<Stages>(s, Shape::threads, freed_arrivals<Shape>);
  __syncthreads();
  const int warp = warp_id();
  constexpr int squad_warps = Shape::threads / warp_size;
  if (warp < squad_warps) reduce_role<Kind>(s, a);
  else if (warp < 2 * squad_warps) output_role<Kind>(s, a);
  else if (warp == 2 * squad_warps) load_role(s, a);
  else look_back_role<Kind>(s, a);
#else
  __trap();  // launch_pipelined never launches a build for an older architecture
#endif
}

// Launches the pipelined kernel of Kind (scan or reduce) over `carries` and (reduce) `counts`
// (zeroed, as the tile counter at tile_counter) and returns true; or returns false without
// launching where it does not apply: fewer than Shape::pipelined_min_tiles tiles, keys or
// values off a 16-byte boundary, a build before sm_90, or a device that cannot give a block
// its shared memory.
template <runs_kind Kind, class K, class V, class Eq, class Op, class Shape>
bool launch_pipelined(const context& ctx, const pipelined_args<K, V, Eq, Op>& a,
                      const char* who) {
  constexpr int stages = Shape::pipeline_stages;
  if constexpr (stages == 0) {
    return false;
  } else {
    if (a.num_tiles < Shape::pipelined_min_tiles || !cuda_prim::aligned16(a.io.keys) ||
        !cuda_prim::aligned16(a.io.values))
      return false;
    constexpr int bytes = int(sizeof(pipelined_storage<K, V, Op, Shape, stages>));
    const int blocks = std::min(ctx.multiprocessors() * Shape::pipelined_blocks_per_sm, a.num_tiles);
    return launch_if_usable<runs_pipelined_kernel<Kind, K, V, Eq, Op, Shape, stages>>(
        ctx, blocks, pipelined_threads<Shape>, bytes, a, who);
  }
}

}  // namespace parprim::cuda_kernels::by_key
