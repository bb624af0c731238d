// Single-pass compaction (copy_if, unique, run_length_encode) and reversed partition
// (unstable_partition) with 16-byte loads and 32 KiB tiles.
//
// One block per tile of Threads * Items elements (layout and ranking: select_rank.cuh):
//   claim     the next tile id from a global counter (ids follow block start order, so every
//             predecessor is running or done and the look-back cannot deadlock). The answer
//             takes an L2 round trip and is almost always blockIdx.x, so the block loads that
//             tile meanwhile and reloads only on a wrong guess (neither mode writes its
//             input, so a speculative load is always safe)
//   rank      selection bits, warp ranks by a packed shuffle scan, warp totals via shared
//             memory
//   publish   the tile's count goes out at once: successors may be waiting for it
//   stage     every warp packs its selected elements into shared memory in input order (the
//             partition: its rejected ones after all the selected, in input order too)
//   look-back warp 0 computes the selected elements before the tile with look_back_count
//             (look_back.cuh, over tile_count_status), the single backward pass for counts,
//             and publishes the inclusive count. 528 resident tiles (132 SMs x 4) run far
//             ahead of a 64-tile window, past which the ordered look_back's slow path pays two
//             round trips per 32 tiles; look_back_count pays one per 64. On the H100 it took
//             unique at 2^28 from 0.742 to 0.510 ms (runs of 512) and run_length_encode to
//             1.43-2.22x CUB (bench/results/2026-11-22-h100-late.md), and copy_if and the
//             partitions then moved to it as well (same file)
//   write     the packed run goes to out[prefix ...] with consecutive threads on consecutive
//             addresses; the partition's rejected run goes to descending addresses from
//             n - 1 - (rejected before the tile), which needs nothing but the same prefix:
//             this is why the single-pass partition reverses its rejected elements.
// Traffic: n reads plus the written elements, once each; the status words are 16 bytes per
// 32 KiB tile.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/cuda/detail/look_back.cuh"
#include "parprim/cuda/detail/select_rank.cuh"
#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/detail/op_functors.hpp"

namespace parprim::cuda_kernels {

// The predicate of unique, unique_by_key and unique_count: run heads under eq (heads_mask
// in select_rank.cuh sees each element's predecessor); the value at each head is copied
// alongside its key when `values` and `values_out` are set.
template <class V, class Eq>
struct run_heads {
  Eq eq;
  const V* values;
  V* values_out;
};
template <class Pred>
inline constexpr bool is_run_heads = false;
template <class V, class Eq>
inline constexpr bool is_run_heads<run_heads<V, Eq>> = true;

// run_length_encode's record of a tile, for fix_run_lengths_kernel.
struct tile_first_head {
  std::int64_t position;  // the tile's first head in the input; -1: the tile holds none
  std::int64_t run;       // runs that start before the tile: that head's run index
};

// The predicate of run_length_encode: run heads under eq, as for unique, and the length of
// each run (write_run_lengths). Lengths and positions are 64-bit: a tile's start is a 64-bit
// offset and only positions within a tile (< 2^13) are int, so runs and inputs longer than
// 2^32 elements come out right.
template <class Eq>
struct run_lengths {
  Eq eq;
  std::int64_t* lengths;         // [capacity]
  tile_first_head* first_heads;  // [tiles]
};
template <class Pred>
inline constexpr bool is_run_lengths = false;
template <class Eq>
inline constexpr bool is_run_lengths<run_lengths<Eq>> = true;

// Selection by run heads (heads_mask) rather than by a predicate of each element.
template <class Pred>
inline constexpr bool selects_heads = is_run_heads<Pred> || is_run_lengths<Pred>;

// Arguments of select_lookback_kernel.
template <class T, class Pred>
struct select_args {
  const T* in;
  std::int64_t n;
  T* out;                 // null: the count only (unique_count)
  std::int64_t capacity;  // compaction: selected elements at or past this index are not written
  Pred pred;
  cuda_prim::tile_count_status status;  // [tiles] each slot, zeroed
  unsigned* tile_counter;               // zeroed
  std::int64_t* count_out;              // device: the total, written by the last tile (or null)
  unsigned tiles;
  bool vectorized;                      // in is 16-byte aligned
};

// The tile positions of its heads, in rank order, to s_position[0, selected) (the stage:
// the keys must have left it). The ranks are recomputed from the mask rather than kept live
// through the look-back. Contains barriers: every thread calls it.
template <class Shape>
__device__ __forceinline__ void stage_head_positions(unsigned mask, int warp_prefix,
                                                     int* s_position) {
  __syncthreads();
  const thread_ranks<Shape> t = rank_in_warp<Shape>(mask);
  const int mine = tile_offset_of_thread<Shape>();
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
    for (int j = 0; j < Shape::vec; ++j)
      if ((mask >> (k * Shape::vec + j)) & 1u)
        s_position[warp_prefix + selected_rank(t, k, j)] = mine + k * 32 * Shape::vec + j;
  __syncthreads();
}

// unique_by_key: values_out[prefix + i] = the value at the tile's i-th head, i < writable,
// each read once from global memory at its position (ascending, so a warp's reads share
// sectors).
template <class Shape, class V, class Eq>
__device__ __forceinline__ void copy_head_values(const run_heads<V, Eq>& h, std::int64_t begin,
                                                 long long prefix, int writable, unsigned mask,
                                                 int warp_prefix, int* s_position) {
  stage_head_positions<Shape>(mask, warp_prefix, s_position);
  for (int i = int(threadIdx.x); i < writable; i += Shape::threads)
    h.values_out[prefix + i] = h.values[begin + s_position[i]];
}

// run_length_encode: lengths[prefix + i] for the tile's i-th head, i < writable. A run whose
// next head lies in the tile gets the distance to it, and the last tile's last run the
// distance to n. Any other tile's last run may end in a later tile, which this block cannot
// see without waiting for it; it gets its start position as a placeholder, and
// fix_run_lengths_kernel (after this kernel) subtracts it from the position of the next head,
// which first_heads[] records per tile. Contains barriers: every thread calls it.
template <class Shape, class Eq>
__device__ __forceinline__ void write_run_lengths(const run_lengths<Eq>& h, unsigned tile,
                                                  bool last_tile, std::int64_t begin,
                                                  std::int64_t n, long long prefix, int selected,
                                                  int writable, unsigned mask, int warp_prefix,
                                                  int* s_position) {
  stage_head_positions<Shape>(mask, warp_prefix, s_position);
  if (threadIdx.x == 0)
    h.first_heads[tile] = tile_first_head{selected > 0 ? begin + s_position[0] : -1, prefix};
  for (int i = int(threadIdx.x); i < writable; i += Shape::threads) {
    const std::int64_t start = begin + s_position[i];
    std::int64_t length = start;  // placeholder
    if (i + 1 < selected) length = s_position[i + 1] - s_position[i];
    else if (last_tile) length = n - start;
    h.lengths[prefix + i] = length;
  }
}

// run_length_encode's second step, one thread per tile. A tile whose first head (run j at
// position p) is not the input's first element: run j - 1 started in an earlier tile (it is
// open at this tile's start) and was that tile's last run, so lengths[j - 1] holds its start;
// its length is p - start. The last run ends at n: when the last tile holds no head, the run
// open at its start is fixed the same way with p = n. Each placeholder is fixed by exactly one
// thread; nothing is written at or past `capacity`.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    fix_run_lengths_kernel(const tile_first_head* first_heads, unsigned tiles, std::int64_t n,
                           std::int64_t capacity, std::int64_t* lengths) {
  const unsigned tile = blockIdx.x * unsigned(Threads) + threadIdx.x;
  if (tile >= tiles) return;
  const tile_first_head h = first_heads[tile];
  std::int64_t end = h.position;
  if (end < 0) {
    if (tile != tiles - 1) return;  // no head, not the last tile: its open run goes on
    end = n;
  }
  const std::int64_t open = h.run - 1;  // the run open at the tile's start
  if (open < 0 || open >= capacity) return;
  lengths[open] = end - lengths[open];
}

template <class T, class Pred, class Shape, int MinBlocks, int PerLane, bool Partition>
__global__ void __launch_bounds__(Shape::threads, MinBlocks)
    select_lookback_kernel(select_args<T, Pred> a, unsigned sleep_ns) {
  constexpr int threads = Shape::threads, vec = Shape::vec, tile_size = Shape::tile;
  // The stage; unique_by_key and run_length_encode stage the heads' tile positions (ints)
  // there afterwards.
  constexpr int stage_size =
      selects_heads<Pred> && sizeof(T) < sizeof(int) ? sizeof(int) : sizeof(T);
  __shared__ alignas(16) unsigned char s_stage_bytes[tile_size * stage_size];
  T* const s_stage = reinterpret_cast<T*>(s_stage_bytes);
  __shared__ int s_warp_total[Shape::warps];
  __shared__ unsigned s_tile;
  __shared__ long long s_prefix;
  const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5;

  // ---- Claim a tile; load tile blockIdx.x (and, selecting heads, the key before each
  // warp's stretch) while the atomic is in flight.
  tile_regs<T, Shape> r;
  T before{};
  if (tid == 0) s_tile = atomicAdd(a.tile_counter, 1u);
  {
    const std::int64_t guess = std::int64_t(blockIdx.x) * tile_size;
    const int guess_count = int(min(std::int64_t(tile_size), a.n - guess));
    load_tile<T, Shape>(r, a.in + guess, guess_count, a.vectorized);
    if constexpr (selects_heads<Pred>)
      before = warp_predecessor<T, Shape>(a.in + guess, guess_count, guess == 0);
  }
  __syncthreads();
  const unsigned tile = s_tile;
  const std::int64_t begin = std::int64_t(tile) * tile_size;
  const int count = int(min(std::int64_t(tile_size), a.n - begin));
  if (tile != blockIdx.x) {
    load_tile<T, Shape>(r, a.in + begin, count, a.vectorized);
    if constexpr (selects_heads<Pred>)
      before = warp_predecessor<T, Shape>(a.in + begin, count, begin == 0);
  }

  // ---- Rank: within the warp, then warp totals through shared memory.
  unsigned mask;
  if constexpr (selects_heads<Pred>)
    mask = heads_mask<T, Shape>(r, count, before, begin == 0, a.pred.eq);
  else
    mask = predicate_mask<T, Shape>(r, count, a.pred);
  const thread_ranks<Shape> t = rank_in_warp<Shape>(mask);
  const tile_selection ts = select_across_warps(t, s_warp_total);
  const int warp_prefix = ts.warp_prefix, selected = ts.selected;

  // ---- Publish, stage, look back. The count goes out first: successors may be waiting for
  // it. Warp 0 stages before its look-back so that the tile's registers are free by then.
  if (tid == 0) {
    if (tile == 0) a.status.publish_inclusive(0, selected);
    else a.status.publish_aggregate(int(tile), selected);
  }
  const int mine = tile_offset_of_thread<Shape>();
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
    for (int j = 0; j < vec; ++j) {
      const bool sel = (t.mask >> (k * vec + j)) & 1u;
      const int below = warp_prefix + selected_rank(t, k, j);  // selected before the element
      if (sel) {
        s_stage[below] = r.x[k][j];
      } else if (Partition) {
        const int e = mine + k * 32 * vec + j;  // position in the tile
        if (e < count) s_stage[selected + (e - below)] = r.x[k][j];
      }
    }
  if (warp == 0) {
    long long prefix = 0;
    if (tile != 0) prefix = cuda_prim::look_back_count<PerLane>(a.status, int(tile), sleep_ns);
    if (lane == 0) {
      if (tile != 0) a.status.publish_inclusive(int(tile), prefix + selected);
      if (a.count_out && tile == a.tiles - 1) *a.count_out = prefix + selected;
      s_prefix = prefix;
    }
  }
  __syncthreads();

  // ---- Write the packed runs.
  const long long prefix = s_prefix;
  if constexpr (!Partition) {
    const long long room = a.capacity - prefix;
    const int writable = room <= 0 ? 0 : int(min(room, static_cast<long long>(selected)));
    if (a.out) {
      T* dst = a.out + prefix;
#pragma unroll 4
      for (int i = tid; i < writable; i += threads) dst[i] = s_stage[i];
    }
    if constexpr (is_run_heads<Pred>)
      if (a.pred.values && a.pred.values_out && writable > 0)  // uniform: barriers inside
        copy_head_values<Shape>(a.pred, begin, prefix, writable, t.mask, warp_prefix,
                                reinterpret_cast<int*>(s_stage_bytes));
    if constexpr (is_run_lengths<Pred>)  // every thread: barriers inside
      write_run_lengths<Shape>(a.pred, tile, tile == a.tiles - 1, begin, a.n, prefix, selected,
                               writable, t.mask, warp_prefix,
                               reinterpret_cast<int*>(s_stage_bytes));
  } else {
    T* dst = a.out + prefix;
    // Stage position p >= selected is the tile's (p - selected)-th rejected element, the
    // (begin - prefix + p - selected)-th rejected one overall: out[n - 1 - that].
    const long long rej_end = a.n - 1 - (begin - prefix) + selected;
#pragma unroll 4
    for (int p = tid; p < count; p += threads) {
      const T v = s_stage[p];
      if (p < selected) dst[p] = v;
      else a.out[rej_end - p] = v;
    }
  }
}

}  // namespace parprim::cuda_kernels
