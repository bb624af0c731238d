// The CUDA body of segmented_reduce and the segmented scans (nvcc only), for any value type
// and associative operator: the precompiled entry points (src/cuda/kernels/segmented.cu) are
// this code instantiated for the six types with the built-in operators chosen at run time.
// The scans run the single-pass by-key scan over head flags (parprim/cuda/segmented_scan.cuh);
// what follows is segmented_reduce's general path, the two-pass runs engine.
//
// Three launches (plus, for offsets, one binary search per tile):
//   1. tile kernel, fold pass: each block loads one tile (threads x items consecutive
//      elements), finds the heads (run starts), folds each thread's elements into a run
//      state and scans the states across the block; the block's total goes to tile_states;
//   2. the library's single-pass scan (parprim/cuda/scan.cuh) scans the tile states in tile
//      order (exclusive, in place) and leaves the whole input's state after the last tile;
//   3. tile kernel, write pass: each block recomputes its tile from its exclusive prefix and
//      writes each run's reduction where the next run starts (or at the end), so no element
//      needs to see its successor.
// A run state is (value since the last head, heads seen, tag of the last head, valid); the
// segmented operator restarts the value at a head and combines states in tile and thread
// order only, so the caller's operator need not be commutative and needs no identity. The
// fold order depends on n and the segments only: float results are bitwise reproducible.
// The input is read twice (passes 1 and 3). segmented_reduce of short-to-medium segments
// skips all this: one warp per segment (parprim/cuda/segment_warps.cuh, by
// segment_warps_tuning::chosen: averaging 32-1023 elements, none long), else one block per
// segment (parprim/cuda/segment_blocks.cuh, by segment_blocks_tuning::chosen: averaging 256
// or more, none over 65536); the order of all the paths: segment_blocks.cuh. segmented_reduce
// may queue either behind the offsets check on the host's guess (launch_guessed_reduce).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "parprim/cuda/detail/block_scan.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/segment_blocks.cuh"
#include "parprim/cuda/scan.cuh"
#include "parprim/cuda/segment_warps.cuh"
#include "parprim/cuda/segmented_scan.cuh"
#include "parprim/cuda/tuning/runs_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/segmented.hpp"
#include "parprim/detail/temp_memory.hpp"

namespace parprim::cuda_kernels::runs {

using parprim::detail::head_source;
using parprim::detail::segments_job;

template <class V>
using tuning = cuda_tuning::runs_tuning<int(sizeof(V))>;

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
  __host__ __device__ __forceinline__ static state<V> identity() {
    state<V> s{};
    return s;
  }
};

// The job as the kernels see it, with per tile the first segment starting in it or later.
template <class V>
struct device_job : segments_job<V> {
  const std::int64_t* tile_first_segment = nullptr;
};

template <class V, class Op, head_source Heads>
struct tile_storage {
  static constexpr int tile = tuning<V>::tile;
  std::uint8_t flags[tile];
  std::int64_t tags[Heads == head_source::offsets ? tile : 1];
  V values[tile];
  typename cuda_prim::block_scan<state<V>, segmented_op<V, Op>, tuning<V>::threads>::storage scan;
};

// Offsets: marks the heads of the tile [b0, b0 + count) in s.flags / s.tags; in the write
// pass, empty segments placed in the tile (or at the end, for the last tile) get init.
template <class V, class Storage>
__device__ void mark_segment_heads(const device_job<V>& a, Storage& s, std::int64_t b0,
                                   int count, bool write) {
  constexpr int threads = tuning<V>::threads;
  const std::int64_t* o = a.offsets;
  const std::int64_t o0 = o[0];
  for (int i = threadIdx.x; i < count; i += threads) s.flags[i] = 0;
  __syncthreads();
  const bool last_tile = b0 + count == a.n;
  const std::int64_t first_segment = a.tile_first_segment[blockIdx.x];
  for (std::int64_t seg = first_segment + threadIdx.x; seg < a.segments; seg += threads) {
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
template <head_source Heads, class V, class Storage>
__device__ void load_tile(const device_job<V>& a, Storage& s, std::int64_t b0, int count,
                          bool write) {
  constexpr int threads = tuning<V>::threads;
  if constexpr (Heads == head_source::flags) {
    for (int i = threadIdx.x; i < count; i += threads) s.flags[i] = a.flags[b0 + i];
  }
  for (int i = threadIdx.x; i < count; i += threads) s.values[i] = a.values[b0 + i];
  if constexpr (Heads == head_source::offsets) mark_segment_heads(a, s, b0, count, write);
  else __syncthreads();
}

// Element i of the tile as a run state.
template <head_source Heads, class V, class Storage, class Op>
__device__ __forceinline__ state<V> element_at(const device_job<V>& a, const Storage& s, Op op,
                                               std::int64_t b0, int i) {
  state<V> e = segmented_op<V, Op>::identity();
  const bool head = b0 + i == 0 || s.flags[i] != 0;
  e.valid = 1;
  e.heads = head ? 1 : 0;
  if constexpr (Heads == head_source::offsets) e.tag = head ? s.tags[i] : 0;
  else e.tag = b0 + i;
  e.value = head && a.has_init ? op(a.init, s.values[i]) : s.values[i];
  return e;
}

template <class V>
__device__ __forceinline__ void close_run(const device_job<V>& a, const state<V>& r) {
  if (a.reduced_out) a.reduced_out[a.by_segment ? r.tag : r.heads - 1] = r.value;
}

// Passes 1 and 3 (see the top of the file). tile_states: the fold pass writes each tile's
// total; the write pass reads each tile's exclusive prefix.
template <head_source Heads, class V, class Op>
__global__ void __launch_bounds__(tuning<V>::threads)
    runs_tile_kernel(device_job<V> a, Op op, state<V>* tile_states, bool write) {
  using tune = tuning<V>;
  using sop_t = segmented_op<V, Op>;
  __shared__ tile_storage<V, Op, Heads> s;
  const sop_t sop{op};
  const std::int64_t b0 = std::int64_t(blockIdx.x) * tune::tile;
  const int count = a.n - b0 < tune::tile ? int(a.n - b0) : tune::tile;
  load_tile<Heads>(a, s, b0, count, write);

  // Each thread's elements: a blocked stretch of `items`, read from shared memory. The loops
  // stay rolled and elements are recomputed from shared memory in the write pass: unrolled,
  // with nine 32-byte states held in registers, each instantiation took minutes of nvcc
  // time, and the pass is meant to be bound by memory, not by these few instructions.
  const int first = int(threadIdx.x) * tune::items;
  const int last = first + tune::items < count ? first + tune::items : count;
  state<V> mine = sop_t::identity();
#pragma unroll 1
  for (int i = first; i < last; ++i) mine = sop(mine, element_at<Heads>(a, s, op, b0, i));
  state<V> inclusive, exclusive, total;
  cuda_prim::block_scan<state<V>, sop_t, tune::threads>::scan(s.scan, mine, sop, inclusive,
                                                              exclusive, total);
  if (!write) {
    if (threadIdx.x == 0) tile_states[blockIdx.x] = total;
    // The slot past the last tile: the exclusive scan of the states turns it into the state
    // of the whole input.
    if (threadIdx.x == 0 && blockIdx.x == 0) tile_states[gridDim.x] = sop_t::identity();
    return;
  }

  // Write pass: walk this thread's elements from its exclusive prefix.
  state<V> run = sop(tile_states[blockIdx.x], exclusive);
#pragma unroll 1
  for (int i = first; i < last; ++i) {
    const state<V> e = element_at<Heads>(a, s, op, b0, i);
    if (e.heads != 0 && run.valid) close_run(a, run);
    run = sop(run, e);
    if (b0 + i == a.n - 1) close_run(a, run);
  }
}

// Offsets covering no element: every segment is empty and gets init.
template <class V>
__global__ void fill_kernel(V* out, std::int64_t count, V value) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = value;
}

// Host side: temporary tile states and the launches. Stream-ordered.
template <head_source Heads, class V, class Op>
void launch(const context& ctx, const segments_job<V>& job, Op op, workspace* ws,
            const char* who) {
  static_assert(sizeof(V) <= 64,
                "parprim segmented primitives on CUDA: values of at most 64 bytes (the tile is "
                "staged in shared memory)");
  using tune = tuning<V>;
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  device_job<V> a;
  static_cast<segments_job<V>&>(a) = job;
  if (job.n == 0) {  // offsets covering nothing: every segment is empty
    if (job.by_segment && job.reduced_out && job.segments > 0) {
      fill_kernel<<<unsigned(ceil_div(job.segments, 256)), 256, 0, stream>>>(
          job.reduced_out, job.segments, job.init);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    }
    return;
  }
  const std::int64_t tiles = ceil_div(job.n, tune::tile);
  const std::size_t state_bytes =
      parprim::detail::align_up(std::size_t(tiles + 1) * sizeof(state<V>));
  const std::size_t first_bytes =
      Heads == head_source::offsets ? parprim::detail::align_up(std::size_t(tiles) * 8) : 0;
  const std::size_t scan_bytes = scan_scratch_bytes<state<V>>(tiles + 1);
  parprim::detail::temp_memory temp(ctx, ws, state_bytes + first_bytes + scan_bytes);
  auto* states = temp.as<state<V>>();
  void* scan_scratch = temp.as<unsigned char>() + state_bytes + first_bytes;
  if constexpr (Heads == head_source::offsets) {
    auto* first = reinterpret_cast<std::int64_t*>(temp.as<unsigned char>() + state_bytes);
    tile_first_segment_kernel<tune::tile><<<unsigned(ceil_div(tiles, 256)), 256, 0, stream>>>(
        job.offsets, job.segments, tiles, first);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    a.tile_first_segment = first;
  }
  runs_tile_kernel<Heads, V><<<unsigned(tiles), tune::threads, 0, stream>>>(a, op, states,
                                                                            false);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  // Pass 2: exclusive scan of the tile states (and the identity after them), in place, by the
  // library's single-pass scan. It was one block looping over rounds of 8192 states: 239 us
  // on the H100 for the 29,128 tiles of 2^26 elements, whatever the segments (ncu,
  // 2026-11-23), a quarter of the whole call for segments of 32.
  const segmented_op<V, Op> sop{op};
  scan_into(ctx, states, states, tiles + 1, parprim::detail::scan_kind::exclusive,
            segmented_op<V, Op>::identity(), parprim::detail::identity_map{}, sop, scan_scratch, who);
  runs_tile_kernel<Heads, V><<<unsigned(tiles), tune::threads, 0, stream>>>(a, op, states, true);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// segmented_reduce's job, with flags or offsets as the head source: short-to-medium segments
// go to one warp per segment (parprim/cuda/segment_warps.cuh), medium ones to one block per
// segment (parprim/cuda/segment_blocks.cuh), the rest to the two passes above.
template <class V, class Op>
void reduce(const context& ctx, const segments_job<V>& job, Op op, workspace* ws,
            const char* who) {
  if (segment_warps::suits(job)) segment_warps::launch(ctx, job, op, who);
  else if (segment_blocks::suits(job)) segment_blocks::launch(ctx, job, op, who);
  else if (job.flags) launch<head_source::flags>(ctx, job, op, ws, who);
  else launch<head_source::offsets>(ctx, job, op, ws, who);
}

}  // namespace parprim::cuda_kernels::runs

namespace parprim::cuda_kernels {

// segmented_reduce's warp or block kernel for the host's guess (cuda_tuning::speculated_path
// of n, the input's size, and the segment count), queued behind the offsets check before its
// verdict, gated on the check's published verdict words; returns the path queued (neither:
// nothing). data: the whole input (segment s is data[offsets[s], offsets[s+1])).
template <class V, class Op>
cuda_tuning::segment_path launch_guessed_reduce(const context& ctx, const V* data,
                                                std::int64_t n, const std::int64_t* offsets,
                                                std::int64_t segments, V init, Op op, V* out,
                                                const unsigned long long* verdict,
                                                const char* who) {
  using cuda_tuning::segment_path;
  const segment_path guess = cuda_tuning::speculated_path(n, segments);
  if (guess == segment_path::warps)
    segment_warps::launch(ctx, data, offsets, segments, init, op, out, verdict, who);
  else if (guess == segment_path::blocks)
    segment_blocks::launch(ctx, data, offsets, segments, init, op, out, verdict, who);
  return guess;
}

}  // namespace parprim::cuda_kernels

namespace parprim::detail {

template <>
struct cuda_body<segmented_tag, true> {
  template <class V, class Op>
  static void run(const context& ctx, const char* function, const segments_job<V>& job, Op op,
                  workspace* ws) {
    if (job.scan_out) cuda_kernels::segmented_scan::run(ctx, job, op, ws, function);
    else cuda_kernels::runs::reduce(ctx, job, op, ws, function);
  }
  // The guessed reduce queued behind the offsets check (segmented_reduce's follow-up:
  // detail::offsets_follow_up); returns the cuda_tuning::segment_path queued, as an int.
  template <class V, class Op>
  static int queue_reduce(const context& ctx, const char* function, span<const V> in,
                          span<const std::int64_t> offsets, span<V> out, V init, Op op,
                          const unsigned long long* verdict) {
    return int(cuda_kernels::launch_guessed_reduce(ctx, in.data(), in.size(), offsets.data(),
                                                   out.size(), init, op, out.data(), verdict,
                                                   function));
  }
};

}  // namespace parprim::detail
