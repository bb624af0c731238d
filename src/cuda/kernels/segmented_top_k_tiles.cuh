// Segmented top-k for k <= 32 by tiles (segmented_top_k.cu chooses it over the warp lists of
// segmented_top_k.cuh where it measured faster): blocks over the same chunks as there, each
// selecting by radix digits in registers, tile by tile; no sort of the input.
//
// A block takes the segments that begin in its chunk, one at a time, and its part of any
// segment longer than a chunk. It walks its range in tiles (256 threads x 16 elements of 4-byte
// keys, x 8 of 8-byte keys), keeping the best k seen so far as a list in shared memory. A
// candidate is a score (the key's image in radix_sort's order, inverted when the smallest are
// asked for) and its position; one is ahead of another when its score is higher, or equal with
// an earlier position (the contract's tie rule). In a tile, only the elements ahead of the
// list's k-th can enter; they and the list are the tile's candidates. When at most
// select_buffer of them are left, warp 0 sorts them (a bitonic network across its lanes, two
// per lane) and keeps the first k. Otherwise the block narrows them by a radix select: the
// candidates' smallest and largest score give the highest bit in which they differ; a shared
// histogram of the 8 bits from there down finds the digit holding the k-th; the candidates in
// higher digits are in for sure, those in lower ones out; the next round looks only at that
// digit's. When the sure ones and that digit's fit in the buffer, all candidates with a score
// at or above the digit's lowest go to the sort. When every candidate left has the same score
// (ties past the buffer), the earliest of them by position are taken: a block scan of their
// flags in tile order, which is position order (the list first, then rows, warps, lanes).
// Rounds skip the bits all candidates share, so keys in sorted order (a tile of nearly equal
// keys) need no more rounds than random ones.
//
// Why (H100, bench/results/2026-11-25-h100-segmented-top-k-tiles.md): the warp lists
// (segmented_top_k.cuh) are bound by their shuffles when many elements enter: segments of 4096
// at 2^28 took 3.81 ms for k = 32 where reading the keys takes about 0.4 ms. Here a segment of
// 4096 random keys costs one histogram round and one sort of about k + 16 candidates: 1.55 ms,
// and about the same for any k (1.46 ms at k = 1). The price is a dozen block barriers per
// tile that has candidates and two per tile that has none, which the lists do not pay: they
// stay ahead for k = 1, for short segments and for long random ones (segmented_top_k.cu says
// where each runs). One __syncthreads_or to skip a tile without candidates made the 4-byte
// kernels spill (80 bytes) and was left out.
#pragma once

#include <cstdint>

#include "cuda/kernels/segmented_top_k_tile_select.cuh"

namespace parprim::cuda_kernels::segmented_top_k::tiles {

constexpr int tile_min_blocks_per_sm = 4;  // 64 registers, no spills

// The elements in[lo, hi), in input order: a segment or its part in one chunk.
template <class K>
struct range_source {
  const K* in;
  std::int64_t lo, hi;
  bool largest;
  __device__ std::int64_t size() const { return hi - lo; }
  __device__ bool score(std::int64_t j, detail::key_word_t<K>& s) const {
    if (j >= hi - lo) return false;
    s = score_of(in[lo + j], largest);
    return true;
  }
  __device__ std::int64_t position(std::int64_t j) const { return lo + j; }
};

// The lists pass 1 kept for a segment's parts in chunks g0 .. g1, in chunk order: equal scores
// stay in position order (a list holds them so, and chunks follow one another).
template <class U>
struct lists_source {
  partial_lists<U> lists;
  std::int64_t g0, g1;
  __device__ std::int64_t size() const { return (g1 - g0 + 1) * select_max_k; }
  __device__ std::int64_t slot(std::int64_t j) const {
    const std::int64_t g = g0 + j / select_max_k;
    return g == g0 ? 2 * g + 1 : 2 * g;
  }
  __device__ bool score(std::int64_t j, U& s) const {
    if (j >= size()) return false;
    const std::int64_t sl = slot(j);
    const int entry = int(j % select_max_k);
    if (entry >= lists.held[sl]) return false;
    s = lists.score[sl * select_max_k + entry];
    return true;
  }
  __device__ std::int64_t position(std::int64_t j) const {
    return lists.pos[slot(j) * select_max_k + j % select_max_k];
  }
};

// Warp 0 writes the list to segment s's k slots: in list order for sorted output, else each at
// its rank by position among the chosen.
template <class K, class W, class U>
__device__ __forceinline__ void write_list(const select_shared<U>& sh, const K* in, const W* values,
                                           std::int64_t s, int k, bool sorted, K* out, W* out_values) {
  const int lane = int(threadIdx.x & 31), held = sh.held;
  if (lane >= held) return;
  const std::int64_t pos = sh.list_pos[lane];
  int slot = lane;
  if (!sorted) {
    slot = 0;
    for (int j = 0; j < held; ++j) slot += sh.list_pos[j] < pos;
  }
  out[s * k + slot] = in[pos];
  if (out_values) out_values[s * k + slot] = values[pos];
}

// Warp 0 keeps the list of a segment's part for pass 2.
template <class U>
__device__ __forceinline__ void store_list(const select_shared<U>& sh, partial_lists<U> partial,
                                           std::int64_t slot) {
  const int lane = int(threadIdx.x & 31);
  if (lane < sh.held) {
    partial.score[slot * select_max_k + lane] = sh.list_score[lane];
    partial.pos[slot * select_max_k + lane] = sh.list_pos[lane];
  }
  if (lane == 0) partial.held[slot] = sh.held;
}

// Pass 1, over the chunks of segmented_top_k.cuh's pass 1 (for_each_part): a segment inside a
// chunk selected and written out, a longer one's part selected and its list kept for pass 2.
template <class K, class W>
__global__ void __launch_bounds__(select_threads, tile_min_blocks_per_sm)
    select_chunks_kernel(const K* in, const W* values, const std::int64_t* offsets,
                         std::int64_t segments, std::int64_t first, std::int64_t last,
                         std::int64_t chunk, int k, bool largest, bool sorted, K* out,
                         W* out_values, partial_lists<detail::key_word_t<K>> partial) {
  using U = detail::key_word_t<K>;
  __shared__ select_shared<U> sh;
  const std::int64_t chunks = (last - first + chunk - 1) / chunk;
  for (std::int64_t g = blockIdx.x; g < chunks; g += gridDim.x)
    for_each_part(offsets, segments, first, last, chunk, g,
                  [&](std::int64_t s, std::int64_t lo, std::int64_t hi, std::int64_t slot) {
                    block_select(range_source<K>{in, lo, hi, largest}, k, sh);
                    if (threadIdx.x >= 32) return;
                    if (slot < 0) write_list(sh, in, values, s, k, sorted, out, out_values);
                    else store_list(sh, partial, slot);
                  });
}

// Pass 2: block b takes segments b, b + gridDim.x, ... longer than a chunk and selects from
// their parts' lists from pass 1, and warp 0 writes. The result is that of one pass over the
// segment: a list keeps the best k by (score, position), a total order.
template <class K, class W>
__global__ void __launch_bounds__(select_threads)
    merge_partials_kernel(const K* in, const W* values, const std::int64_t* offsets,
                          std::int64_t segments, std::int64_t first, std::int64_t chunk, int k,
                          bool sorted, K* out, W* out_values,
                          partial_lists<detail::key_word_t<K>> partial) {
  using U = detail::key_word_t<K>;
  __shared__ select_shared<U> sh;
  for (std::int64_t s = blockIdx.x; s < segments; s += gridDim.x) {
    const std::int64_t begin = offsets[s], end = offsets[s + 1];
    if (end - begin <= chunk) continue;  // written by pass 1
    block_select(lists_source<U>{partial, (begin - first) / chunk, (end - 1 - first) / chunk}, k, sh);
    if (threadIdx.x < 32) write_list(sh, in, values, s, k, sorted, out, out_values);
  }
}

}  // namespace parprim::cuda_kernels::segmented_top_k::tiles
