// Single-pass compaction (copy_if) with 16-byte loads and 32 KiB tiles.
//
// One block per tile of Threads * Items elements (layout and ranking: select_rank.cuh):
//   claim     the next tile id from a global counter (ids follow block start order, so every
//             predecessor is running or done and the look-back cannot deadlock). The answer
//             takes an L2 round trip and is almost always blockIdx.x, so the block loads that
//             tile meanwhile and reloads only on a wrong guess (copy_if never writes its
//             input, so a speculative load is always safe)
//   rank      selection bits, warp ranks by a packed shuffle scan, warp totals via shared
//             memory
//   publish   warp 0 publishes the tile's count at once: successors may be waiting for it
//   stage     every warp packs its selected elements into shared memory in input order
//   look-back warp 0 sums the predecessors' counts (select_status.cuh) and publishes the
//             inclusive prefix
//   write     the packed run goes to out[prefix ...] with consecutive threads on consecutive
//             addresses
// Traffic: n reads plus the selected writes, once each; the status words are 8 bytes per
// 32 KiB tile.
#pragma once

#include <cstdint>

#include "parprim/cuda/detail/select_rank.cuh"
#include "parprim/cuda/detail/select_status.cuh"
#include "parprim/cuda/detail/vector_io.cuh"

namespace parprim::cuda_kernels {

template <class T, class Pred, class Shape, int MinBlocks, int PerLane>
__global__ void __launch_bounds__(Shape::threads, MinBlocks)
    select_lookback_kernel(select_args<T, Pred> a, unsigned sleep_ns) {
  namespace st = select_status;
  constexpr int threads = Shape::threads, vec = Shape::vec, tile_size = Shape::tile;
  __shared__ T s_stage[tile_size];
  __shared__ int s_warp_total[Shape::warps];
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
  if (tid == 0)
    st::store(a.status + tile, (tile == 0 ? st::inclusive : st::aggregate) |
                                   static_cast<unsigned long long>(selected));
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
    for (int j = 0; j < vec; ++j)
      if ((t.mask >> (k * vec + j)) & 1u) s_stage[warp_prefix + selected_rank(t, k, j)] = r.x[k][j];
  if (warp == 0) {
    const long long prefix = tile == 0 ? 0 : st::look_back<PerLane>(a.status, tile, sleep_ns);
    if (lane == 0) {
      if (tile != 0)
        st::store(a.status + tile, st::inclusive | static_cast<unsigned long long>(prefix + selected));
      if (a.count_out && tile == a.tiles - 1) *a.count_out = prefix + selected;
      s_prefix = prefix;
    }
  }
  __syncthreads();

  // ---- Write the packed run.
  T* dst = a.out + s_prefix;
#pragma unroll 4
  for (int i = tid; i < selected; i += threads) dst[i] = s_stage[i];
}

}  // namespace parprim::cuda_kernels
