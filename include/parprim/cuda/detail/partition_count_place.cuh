// Stable partition in two streaming passes without look-back.
//
// What stability costs. A rejected element goes to out[S + r], S the number of selected
// elements in the whole input and r its rank among the rejected. S is known only once the
// last element has been read, so in one front-to-back pass every rejected element read
// before then must either wait on chip (impossible beyond a few tens of MB) or be written to
// a scratch area and copied again (2 x 4 bytes more per rejected element), or the input must
// be read once more (4 bytes per element). At 50% selectivity both cost 4n more bytes: a
// stable partition of 4-byte elements moves at least 12n bytes (read n, read n, write n)
// against 8n for an unstable one, which may write the rejected elements backwards from the
// end (CUB DevicePartition::If does). At copy bandwidth that is 1.5x the traffic: on an H100
// (about 3.0 TB/s) 2^28 elements need at least 1.07 ms against CUB's measured ~1.0 ms, so
// about 0.93x of CUB is the ceiling for any stable scheme at that size.
//
// Of the stable schemes with that traffic this one has the cheapest passes: a pure read
// (like a reduction) and a pass that reads and writes every element once with no waiting
// between blocks; running the look-back compaction twice (selected, then rejected) measured
// slower (see bench/results/2026-11-21-h100-experiments.md).
//
// Chunks. The input is cut into G chunks of whole tiles, G about the number of blocks that
// fit on the device at once; block b of both kernels owns chunk b.
//   count  block b counts the selected elements of chunk b into counts[b].
//   place  block b sums counts[0..b] and counts[0..G) (the selected elements up to the end of
//          its chunk, and the total), then walks its chunk's tiles: rank the tile
//          (select_rank.cuh), pack its selected elements then its rejected ones into shared
//          memory, both in input order, and write the two runs to their final places.
//          While one block ranks or waits at a barrier the others on its SM have loads in
//          flight; loading the next tile before writing out the current one was tried and
//          needs more registers than three blocks per SM allow (spills).
// The place pass walks each chunk last tile first: the count pass has just read the ends of
// the chunks, which are still in L2 (50 MB on H100), so the first tiles come from there. That
// saves little at 2^28 (1 GiB of input) but most of the second read at 2^24.
#pragma once

#include <cstdint>

#include "parprim/cuda/detail/select_rank.cuh"

namespace parprim::cuda_kernels {

template <class T, class Pred>
struct place_args {
  const T* in;
  std::int64_t n;
  T* out;
  Pred pred;
  std::int64_t chunk;                // elements per chunk, a multiple of the tile
  int chunks;                        // G = gridDim.x
  const unsigned long long* counts;  // [chunks], from partition_count_kernel
  std::int64_t* count_out;           // device: the total (or null)
  bool vectorized;                   // in is 16-byte aligned
};

template <int Warps>
__device__ __forceinline__ unsigned long long block_sum(unsigned long long v,
                                                        unsigned long long* s_warp) {
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffffu, v, m);
  if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x >> 5] = v;
  __syncthreads();
  unsigned long long total = 0;
#pragma unroll
  for (int w = 0; w < Warps; ++w) total += s_warp[w];
  return total;
}

// ---- Pass 1: selected elements per chunk.
template <class T, class Pred, class Shape>
__global__ void __launch_bounds__(Shape::threads)
    partition_count_kernel(place_args<T, Pred> a, unsigned long long* counts) {
  __shared__ unsigned long long s_warp[Shape::warps];
  const std::int64_t first = std::int64_t(blockIdx.x) * a.chunk;
  const std::int64_t last = min(a.n, first + a.chunk);
  const int mine = tile_offset_of_thread<Shape>();
  unsigned long long selected = 0;
  for (std::int64_t begin = first; begin < last; begin += Shape::tile) {
    const int count = int(min(std::int64_t(Shape::tile), last - begin));
    tile_regs<T, Shape> r;
    load_tile<T, Shape>(r, a.in + begin, count, a.vectorized);
    unsigned c = 0;
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < Shape::vec; ++j)
        c += (mine + k * 32 * Shape::vec + j < count && a.pred(r.x[k][j])) ? 1u : 0u;
    selected += c;
  }
  const unsigned long long total = block_sum<Shape::warps>(selected, s_warp);
  if (threadIdx.x == 0) counts[blockIdx.x] = total;
}

// ---- Pass 2: both runs of every tile to their final places.
template <class T, class Pred, class Shape, int MinBlocks>
__global__ void __launch_bounds__(Shape::threads, MinBlocks)
    partition_place_kernel(place_args<T, Pred> a) {
  static_assert(MinBlocks * Shape::threads <= 2048 && MinBlocks * Shape::tile * sizeof(T) <= 200 * 1024,
                "all blocks of the grid must fit on the device at once");
  constexpr int threads = Shape::threads, vec = Shape::vec, tile_size = Shape::tile;
  __shared__ T s_stage[tile_size];
  __shared__ int s_warp_total[Shape::warps];
  __shared__ unsigned long long s_sum[2][Shape::warps];
  const int tid = static_cast<int>(threadIdx.x);
  const int chunk_id = static_cast<int>(blockIdx.x);

  // ---- Chunk offsets: selected elements up to the end of this chunk, and in all chunks.
  unsigned long long through = 0, total = 0;
  for (int c = tid; c < a.chunks; c += threads) {
    const unsigned long long v = a.counts[c];
    total += v;
    through += c <= chunk_id ? v : 0ull;
  }
  through = block_sum<Shape::warps>(through, s_sum[0]);
  total = block_sum<Shape::warps>(total, s_sum[1]);
  if (chunk_id == 0 && tid == 0 && a.count_out) *a.count_out = static_cast<std::int64_t>(total);

  const std::int64_t first = std::int64_t(chunk_id) * a.chunk;
  const std::int64_t last = min(a.n, first + a.chunk);
  const int tiles = int((last - first + tile_size - 1) / tile_size);
  const int mine = tile_offset_of_thread<Shape>();
  long long sel_end = static_cast<long long>(through);  // selected before the current tile's end
  for (int i = tiles - 1; i >= 0; --i) {
    const std::int64_t begin = first + std::int64_t(i) * tile_size;
    const int count = int(min(std::int64_t(tile_size), last - begin));
    tile_regs<T, Shape> r;
    load_tile<T, Shape>(r, a.in + begin, count, a.vectorized);

    // Rank. The barrier also tells that every thread is done writing out the previous tile
    // from s_stage.
    const thread_ranks<Shape> t = rank_in_warp<Shape>(predicate_mask<T, Shape>(r, count, a.pred));
    const tile_selection ts = select_across_warps(t, s_warp_total);
    const int warp_prefix = ts.warp_prefix, selected = ts.selected;

    // Pack: selected elements at their rank, rejected ones after all the selected.
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = mine + k * 32 * vec + j;  // position in the tile
        if (e < count) {
          const int below = warp_prefix + selected_rank(t, k, j);  // selected before e
          const bool sel = (t.mask >> (k * vec + j)) & 1u;
          s_stage[sel ? below : selected + (e - below)] = r.x[k][j];
        }
      }
    __syncthreads();

    // Write: stage position p < selected goes to out[sel_before + p], p >= selected to
    // out[total + rej_before + (p - selected)].
    const long long sel_before = sel_end - selected;
    const long long rej_before = begin - sel_before;
    T* sel_dst = a.out + sel_before;
    T* rej_dst = a.out + (static_cast<long long>(total) - selected + rej_before);
#pragma unroll 4
    for (int p = tid; p < count; p += threads) {
      const T v = s_stage[p];
      (p < selected ? sel_dst : rej_dst)[p] = v;
    }
    sel_end = sel_before;
  }
}

}  // namespace parprim::cuda_kernels
