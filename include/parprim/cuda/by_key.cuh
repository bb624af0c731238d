// The CUDA body of reduce_by_key, the scans by key, unique, unique_by_key, unique_count and
// run_length_encode (nvcc only), for any key, value, equality and associative operator: one
// pass with decoupled look-back (Merrill & Garland, NVR-2016-002). Every key and value is
// read once and every output written once. The precompiled entry points
// (src/cuda/kernels/by_key.cu, unique.cu) are this code instantiated for the six types.
// unique, its variants and run_length_encode are a compaction of the run heads: they run
// copy_if's kernel (detail/select_lookback.cuh) with the heads as its selection
// (unique_heads(), unique_lengths() in detail/select_heads.cuh: a run's length is the
// distance between its head and the next); this file is the kernel of the folding kinds,
// reduce and scan, and the dispatch of every kind.
//
// A run state is (heads seen, fold of the values since the last head, valid) under the
// segmented operator of detail/runs.hpp: associative, not commutative. Within a tile the
// states (tile_state: 32-bit count and flag in one word) are combined in thread order (a
// block scan); across tiles the state's two parts travel apart, the run count and the value
// carry (by_key_prefix.cuh says how and why). What one thread does with its elements is in
// by_key_thread.cuh.
//
// Phases of one tile (one block):
//   1. claim the next tile id from a global counter (tiles only wait for tiles whose blocks
//      already run or have finished: no deadlock);
//   2. load the tile's keys (and values) into shared memory with 16-byte vector loads when the
//      tile is whole and aligned, coalesced scalars otherwise; each thread then reads its
//      `items` consecutive keys (odd count: no bank conflicts) and the key before them, and
//      marks its heads (!eq(previous key, key); element 0 is always one) as bits of a
//      32-bit mask;
//   3. each thread folds its values into a run state, restarting at each head (the scans
//      write the results from the first head on at once, phase 5 doing the rest); warps
//      scan their states and, after one barrier, warp 0 scans the warp totals. Only the
//      mask and the state stay live through phases 3 and 4 (the tile stays in shared
//      memory), which keeps the kernel at 64 registers;
//   4. with no further barrier, warp 0 publishes the tile's count and carry and looks back for
//      the run count (reduce) while warp 1 looks back for the value carry (the scans do it in
//      warp 0); the last tile leaves the run count in device memory;
//   5. each thread walks its values again from its prefix, reading them from shared memory
//      (the reduction: all of them and the keys of its heads; the scans: those before the
//      first head). Per-run outputs are staged in shared memory at their rank within the
//      tile (after a barrier: the elements are read first), then stored contiguously
//      (coalesced) at the tile's run offset; per-element outputs (scans) are staged likewise
//      and stored with 16-byte vectors. A run's fold is written where the next run starts
//      (slot r - 1 for the head of run r) or after the last element, so no element needs
//      its successor.
// Outputs indexed by run are written below io.capacity only. The scans and reductions of 128
// tiles or more with 16-byte aligned keys and values run the same phases in warp-specialized
// persistent blocks instead (by_key_pipelined.cuh): the same bits.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>

#include "parprim/cuda/by_key_pipelined.cuh"
#include "parprim/cuda/by_key_prefix.cuh"
#include "parprim/cuda/by_key_thread.cuh"
#include "parprim/cuda/detail/block_scan.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/select_heads.cuh"
#include "parprim/cuda/detail/tile_copy.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/tuning/by_key_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/runs.hpp"
#include "parprim/detail/temp_memory.hpp"

namespace parprim::cuda_kernels::by_key {

using parprim::detail::runs_io;
using parprim::detail::runs_kind;

template <class K, class V, runs_kind Kind>
struct shape {
  static constexpr int bytes = int(sizeof(K) > sizeof(V) ? sizeof(K) : sizeof(V));
  using tuning = cuda_tuning::by_key_tuning<bytes, Kind == runs_kind::reduce>;
  static constexpr int threads = tuning::threads;
  static constexpr int items = tuning::items;
  static constexpr int tile = threads * items;
  static constexpr int min_blocks = tuning::min_blocks_per_sm;
  static_assert(items <= 32, "a thread's head flags are one 32-bit word");
  static_assert(threads >= 64, "the count and the carry look back in two warps");
  // Each look-back lane keeps 2 x per_lane values in registers: 8-byte counts and carries of
  // at most 8 bytes poll the full window, 16-byte carries half of it, larger ones one tile
  // per lane, to stay under the register cap.
  // The count's single backward pass (look_back_count) keeps a 64-tile window, as the heads
  // kernels do: 128 spilled there at the 64-register cap.
  static constexpr int count_per_lane = 2;
  static constexpr int carry_per_lane = sizeof(run_carry<V>) <= 8    ? tuning::lookback_per_lane
                                        : sizeof(run_carry<V>) <= 16 ? tuning::lookback_per_lane / 2
                                                                     : 1;
  // The pipelined kernel's stages (by_key_pipelined.cuh): one holds the tile's keys and values
  // (a row of values padded by 16 bytes: the reduction stages one fold more than the tile
  // has elements) and each thread's head mask and exclusive run state. The padded row is
  // rounded up to whole 128-byte lines so every stage's bulk copy lands on one: rows of 3716
  // f32 (16 bytes past the tile) put stages 1 and 2 off 128 and the scan by key of 2^28
  // u32/f32 went from 1.197-1.209 to 1.223-1.228 ms on the H100; rounded to 3744, 1.201-1.203
  // (bench/results/2026-11-24-h100-by_key-stage-rows.md).
  static constexpr int pipelined_blocks_per_sm = tuning::pipelined_blocks_per_sm;
  static constexpr int pipelined_min_tiles = tuning::pipelined_min_tiles;
  static constexpr int value_line = int(128 / std::gcd(std::size_t(128), sizeof(V)));
  static constexpr int value_row =
      int(ceil_div(tile + (sizeof(V) < 16 ? int(16 / sizeof(V)) : 1), value_line) * value_line);
  static constexpr int stage_bytes = tile * int(sizeof(K)) + value_row * int(sizeof(V)) +
                                     threads * int(4 + sizeof(tile_state<V>));
  static constexpr int pipeline_stages =
      tuning::pipeline_shared_bytes / stage_bytes < tuning::max_pipeline_stages
          ? tuning::pipeline_shared_bytes / stage_bytes
          : tuning::max_pipeline_stages;
};

template <class K, class V, class Op, class Shape>
struct storage {
  alignas(16) K keys[Shape::tile];        // the tile's keys; then the first keys of its runs
  alignas(16) V values[Shape::tile + 1];  // the tile's values; then the values it writes
  typename cuda_prim::block_scan<tile_state<V>, tile_state_op<V, Op>, Shape::threads>::storage scan;
  // The carry look-back's window fills whole 16-byte blocks of its own. ptxas merges the
  // fold's loads of consecutive carries into aligned 16-byte LDS.128 and may start one below
  // window[0]: with 12-byte carries (8-byte values aligned to 4) at 4 mod 16 the fold read
  // the 4 bytes before the window (sm_90 SASS of the generic reduce kernel: LDS.128 at
  // window - 4, the last word of scan.block_total). In the reduction warp 1 folds here while
  // warp 0 writes block_total, with no barrier between them: the extra word was never used,
  // but it is a read of shared bytes another warp writes unordered, which racecheck reports
  // (RAW). An aligned load of at most 16 bytes that touches a byte of this window now lies
  // inside it.
  alignas(16) run_carry<V> carry_window[cuda_prim::warp_size * Shape::carry_per_lane];
  static_assert(sizeof(run_carry<V>) * cuda_prim::warp_size * Shape::carry_per_lane % 16 == 0,
                "the carry window ends on a 16-byte boundary");
  std::int64_t first_run;  // runs started before the tile
  V carry;                 // the value carry into the tile
  K previous_key;          // the key just before the tile
  int tile;
};

template <runs_kind Kind, class K, class V, class Eq, class Op, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    runs_kernel(runs_io<K, V> io, int num_tiles, cuda_prim::tile_count_status counts,
                cuda_prim::tile_status<run_carry<V>> carries, int* tile_counter,
                std::int64_t* run_count, unsigned sleep_ns, Eq eq, Op op) {
  using state = tile_state<V>;
  using sop_t = tile_state_op<V, Op>;
  using block_scan_t = cuda_prim::block_scan<state, sop_t, Shape::threads>;
  constexpr int I = Shape::items;
  __shared__ storage<K, V, Op, Shape> s;
  const sop_t sop{op};

  // ---- Phases 1 and 2: claim a tile, load it.
  if (threadIdx.x == 0) s.tile = num_tiles == 1 ? 0 : atomicAdd(tile_counter, 1);
  __syncthreads();
  const int tile = s.tile;
  const std::int64_t base = std::int64_t(tile) * Shape::tile;
  const int count = io.n - base < Shape::tile ? int(io.n - base) : Shape::tile;
  cuda_prim::load_to_shared<K, Shape>(s.keys, io.keys + base, count);
  cuda_prim::load_to_shared<V, Shape>(s.values, io.values + base, count);
  if (threadIdx.x == 0 && base > 0) s.previous_key = io.keys[base - 1];
  __syncthreads();

  // ---- Phases 2 and 3: this thread's heads (bit j of head_mask: element first + j starts a
  // run), then its run state (fold_own; the scans also write their results from the first
  // head on). Only the mask and the state stay live through the block scan and the look-back.
  const int first = int(threadIdx.x) * I;
  std::uint32_t head_mask = 0;
  state mine = sop_t::identity();
  const bool at_start = base + first == 0;
  if (first + I <= count) {
    head_mask = find_heads<K, Eq, Shape, true>(s.keys, s.previous_key, first, count, at_start, eq);
    mine = fold_own<Kind, true, K, V, Op, Shape>(io, s.values, first, count, head_mask, op);
  } else if (first < count) {
    head_mask = find_heads<K, Eq, Shape, false>(s.keys, s.previous_key, first, count, at_start, eq);
    mine = fold_own<Kind, false, K, V, Op, Shape>(io, s.values, first, count, head_mask, op);
  }
  const int warp = cuda_prim::warp_id();
  const cuda_prim::warp_scan_result<state> in_warp = cuda_prim::warp_scan(mine, sop);
  block_scan_t::store_warp_total(s.scan, in_warp.total);
  __syncthreads();

  // ---- Phase 4: the warp totals' scan, then the tile's prefix, with no barrier in between:
  // the other warps wait at the next one. Warp 1 recomputes the tile total from the same
  // warp totals in the same order (the same bits as warp 0's) rather than wait for it.
  if (warp == 0) {
    const state total = block_scan_t::scan_warp_totals(s.scan, sop);
    if (cuda_prim::lane_id() == 0) s.scan.block_total = total;
    if constexpr (counts_runs<Kind>)
      resolve_count<decltype(s), Shape>(s, tile, num_tiles, total.heads(), counts, run_count,
                                        sleep_ns);
    else
      resolve_carry<V, Op, decltype(s), Shape>(s, tile, num_tiles, total, carries, sleep_ns, op);
  } else if (warp == carry_warp<Kind>) {
    constexpr int warps = Shape::threads / cuda_prim::warp_size;
    const int lane = cuda_prim::lane_id();
    const state own = s.scan.warp_total[lane < warps ? lane : warps - 1];
    const state total = cuda_prim::shfl_idx(cuda_prim::warp_inclusive_scan(own, sop), warps - 1);
    resolve_carry<V, Op, decltype(s), Shape>(s, tile, num_tiles, total, carries, sleep_ns, op);
  }
  __syncthreads();
  if (Kind == runs_kind::reduce && !io.keys_out && !io.values_out) return;  // the count only

  // ---- Phase 5: walk again from this thread's prefix; stage the outputs, store them.
  // The carry into the tile (none into tile 0) joins the thread's exclusive prefix within the
  // tile; the run offset stays apart (run ranks are tile-local).
  const state carry_in = tile > 0 ? state{1u, s.carry} : sop_t::identity();
  const std::int64_t first_run = counts_runs<Kind> && tile > 0 ? s.first_run : 0;
  state exclusive = in_warp.exclusive;  // warp 0 lane 0: the identity
  if (warp > 0) {
    const state before = s.scan.warp_prefix[warp];
    exclusive = cuda_prim::lane_id() == 0 ? before : sop(before, in_warp.exclusive);
  }
  const state run = sop(carry_in, exclusive);
  if constexpr (Kind == runs_kind::scan) {
    stage_scan<K, V, Op, Shape>(io, s.values, first, count, head_mask, run, op);
    __syncthreads();
    cuda_prim::store_from_shared<V, Shape>(io.values_out + base, s.values, count);
  } else {
    stage_runs<K, V, Op, decltype(s), Shape>(io, s, base, first, count, head_mask, run, op,
                                             [] { __syncthreads(); });
    __syncthreads();
    store_runs<K, V, decltype(s), Shape>(io, s, first_run, int(s.scan.block_total.heads()),
                                         tile == num_tiles - 1, int(threadIdx.x));
  }
}

// Launches the kernel of the folding kinds (one block per tile, after a cudaMemsetAsync of
// the tile counter, the run count and the tile status slots it needs); returns the run
// count, read back to the host, except for the scans and where io.count_out receives it
// (the _into forms; the kernel stores it there directly: no copy, no wait): -1. io.n > 0.
template <runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t fold_runs(const context& ctx, const runs_io<K, V>& io, Eq eq, Op op,
                       workspace* ws, const char* who) {
  static_assert(sizeof(K) <= 64 && sizeof(V) <= 64,
                "parprim by-key on CUDA: keys and values of at most 64 bytes (the tile is "
                "staged in shared memory)");
  using sh = shape<K, V, Kind>;
  using count_status_t = cuda_prim::tile_count_status;
  using carry_status_t = cuda_prim::tile_status<run_carry<V>>;
  const std::int64_t tiles = ceil_div(io.n, sh::tile);
  if (tiles > INT_MAX)
    throw error(errc::invalid_argument, std::string("parprim::") + who + " [" + ctx.name() +
                                            "]: n=" + std::to_string(io.n) + " is too large");
  const int num_tiles = static_cast<int>(tiles);
  const cudaStream_t stream = stream_of(ctx);
  // Scratch: the tile counter (bytes 0-3), the run count (bytes 8-15), then the count slots
  // and the carry slots (each a multiple of 256 bytes), where the kind needs them.
  const bool many = num_tiles > 1;
  const std::size_t head_bytes = 256;
  const std::size_t count_bytes = many && counts_runs<Kind> ? count_status_t::bytes(num_tiles) : 0;
  const std::size_t carry_bytes = many ? carry_status_t::bytes(num_tiles) : 0;
  const std::size_t bytes = head_bytes + count_bytes + carry_bytes;
  parprim::detail::temp_memory scratch(ctx, ws, bytes);
  auto* base = static_cast<unsigned char*>(scratch.get());
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(base, 0, bytes, stream));
  const count_status_t counts =
      count_bytes ? count_status_t::bind(base + head_bytes, num_tiles) : count_status_t{};
  const carry_status_t carries =
      carry_bytes ? carry_status_t::bind(base + head_bytes + count_bytes, num_tiles) : carry_status_t{};
  auto* run_count = io.count_out ? io.count_out : reinterpret_cast<std::int64_t*>(base + 8);
  // The pipelined kernel where it applies (the reduction counting only keeps this kernel,
  // whose blocks stop after the look-back).
  const pipelined_args<K, V, Eq, Op> args{
      io, num_tiles, carries, counts, reinterpret_cast<int*>(base), run_count, eq, op};
  const bool writes = Kind == runs_kind::scan || io.keys_out || io.values_out;
  if (!writes || !launch_pipelined<Kind, K, V, Eq, Op, sh>(ctx, args, who)) {
    runs_kernel<Kind, K, V, Eq, Op, sh><<<unsigned(num_tiles), sh::threads, 0, stream>>>(
        io, num_tiles, counts, carries, reinterpret_cast<int*>(base), run_count,
        sh::tuning::spin_sleep_ns, eq, op);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }
  if (Kind == runs_kind::scan || io.count_out) return -1;
  std::int64_t runs = 0;
  ctx.copy_to_host(&runs, run_count, sizeof(runs));
  return runs;
}

// Any kind: unique_heads() for the heads, unique_lengths() for the run lengths, fold_runs()
// for the others.
template <runs_kind Kind, class K, class V, class Eq, class Op>
std::int64_t runs(const context& ctx, const runs_io<K, V>& io, Eq eq, Op op, workspace* ws,
                  const char* who) {
  use_device(ctx, who);
  if constexpr (Kind == runs_kind::heads) return unique_heads(ctx, io, eq, ws, who);
  else if constexpr (Kind == runs_kind::lengths) return unique_lengths(ctx, io, eq, ws, who);
  else return fold_runs<Kind>(ctx, io, eq, op, ws, who);
}

}  // namespace parprim::cuda_kernels::by_key

namespace parprim::detail {

template <>
struct cuda_body<runs_tag, true> {
  template <runs_kind Kind, class K, class V, class Eq, class Op>
  static void run(const context& ctx, const char* function, std::int64_t* runs,
                  std::integral_constant<runs_kind, Kind>, const runs_io<K, V>& io, Eq eq, Op op,
                  workspace* ws) {
    *runs = cuda_kernels::by_key::runs<Kind>(ctx, io, eq, op, ws, function);
  }
};

}  // namespace parprim::detail
