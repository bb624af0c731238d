// Single-pass compaction (copy_if) and reversed partition (unstable_partition) with 16-byte
// loads and 32 KiB tiles.
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
//   look-back warp 0 computes the selected elements before the tile with the library's one
//             decoupled look-back (look_back.cuh, over tile_count_status) and publishes the
//             inclusive count
//   write     the packed run goes to out[prefix ...] with consecutive threads on consecutive
//             addresses; the partition's rejected run goes to descending addresses from
//             n - 1 - (rejected before the tile), which needs nothing but the same prefix:
//             this is why the single-pass partition reverses its rejected elements.
// Traffic: n reads plus the written elements, once each; the status words are 16 bytes per
// 32 KiB tile.
#pragma once

#include <cstdint>

#include "parprim/cuda/detail/look_back.cuh"
#include "parprim/cuda/detail/select_rank.cuh"
#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/detail/op_functors.hpp"

namespace parprim::cuda_kernels {

// Arguments of select_lookback_kernel.
template <class T, class Pred>
struct select_args {
  const T* in;
  std::int64_t n;
  T* out;
  Pred pred;
  cuda_prim::tile_count_status status;  // [tiles] each slot, zeroed
  unsigned* tile_counter;               // zeroed
  std::int64_t* count_out;              // device: the total, written by the last tile (or null)
  unsigned tiles;
  bool vectorized;                      // in is 16-byte aligned
};

template <class T, class Pred, class Shape, int MinBlocks, int PerLane, bool FoldInShared,
          bool Partition>
__global__ void __launch_bounds__(Shape::threads, MinBlocks)
    select_lookback_kernel(select_args<T, Pred> a, unsigned sleep_ns) {
  constexpr int threads = Shape::threads, vec = Shape::vec, tile_size = Shape::tile;
  __shared__ T s_stage[tile_size];
  __shared__ int s_warp_total[Shape::warps];
  __shared__ long long s_window[32 * PerLane];
  __shared__ unsigned s_tile;
  __shared__ long long s_prefix;
  const int tid = static_cast<int>(threadIdx.x), lane = tid & 31, warp = tid >> 5;

  // ---- Claim a tile; load tile blockIdx.x while the atomic is in flight.
  tile_regs<T, Shape> r;
  if (tid == 0) s_tile = atomicAdd(a.tile_counter, 1u);
  {
    const std::int64_t guess = std::int64_t(blockIdx.x) * tile_size;
    load_tile<T, Shape>(r, a.in + guess, int(min(std::int64_t(tile_size), a.n - guess)),
                        a.vectorized);
  }
  __syncthreads();
  const unsigned tile = s_tile;
  const std::int64_t begin = std::int64_t(tile) * tile_size;
  const int count = int(min(std::int64_t(tile_size), a.n - begin));
  if (tile != blockIdx.x) load_tile<T, Shape>(r, a.in + begin, count, a.vectorized);

  // ---- Rank: within the warp, then warp totals through shared memory.
  const thread_ranks<Shape> t = rank_in_warp<T, Shape>(r, count, a.pred);
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
    if (tile != 0)
      prefix = cuda_prim::look_back<long long, detail::plus_op<long long>, PerLane, FoldInShared>(
          a.status, int(tile), detail::plus_op<long long>{}, sleep_ns, s_window);
    if (lane == 0) {
      if (tile != 0) a.status.publish_inclusive(int(tile), prefix + selected);
      if (a.count_out && tile == a.tiles - 1) *a.count_out = prefix + selected;
      s_prefix = prefix;
    }
  }
  __syncthreads();

  // ---- Write the packed runs.
  const long long prefix = s_prefix;
  T* dst = a.out + prefix;
  if constexpr (!Partition) {
#pragma unroll 4
    for (int i = tid; i < selected; i += threads) dst[i] = s_stage[i];
  } else {
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
