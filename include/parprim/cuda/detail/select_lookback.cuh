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

// unique_by_key: values_out[prefix + i] = the value at the tile's i-th head, i < writable.
// The keys have left the stage; the heads' tile positions go there in rank order (the ranks
// recomputed from the mask rather than kept live through the look-back), then each value is
// read once from global memory at its position (ascending, so a warp's reads share sectors).
template <class Shape, class V, class Eq>
__device__ __forceinline__ void copy_head_values(const run_heads<V, Eq>& h, std::int64_t begin,
                                                 long long prefix, int writable, unsigned mask,
                                                 int warp_prefix, int* s_position) {
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
  for (int i = int(threadIdx.x); i < writable; i += Shape::threads)
    h.values_out[prefix + i] = h.values[begin + s_position[i]];
}

template <class T, class Pred, class Shape, int MinBlocks, int PerLane, bool FoldInShared,
          bool Partition>
__global__ void __launch_bounds__(Shape::threads, MinBlocks)
    select_lookback_kernel(select_args<T, Pred> a, unsigned sleep_ns) {
  constexpr int threads = Shape::threads, vec = Shape::vec, tile_size = Shape::tile;
  // The stage; unique_by_key stages the heads' tile positions (ints) there afterwards.
  constexpr int stage_size =
      is_run_heads<Pred> && sizeof(T) < sizeof(int) ? sizeof(int) : sizeof(T);
  __shared__ alignas(16) unsigned char s_stage_bytes[tile_size * stage_size];
  T* const s_stage = reinterpret_cast<T*>(s_stage_bytes);
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
  unsigned mask;
  if constexpr (is_run_heads<Pred>)
    mask = heads_mask<T, Shape>(r, count, a.in + begin, begin == 0, a.pred.eq);
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
