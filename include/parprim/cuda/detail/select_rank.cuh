// Tile layout and in-tile ranking shared by the vectorized compaction and partition kernels.
//
// Layout (as in the look-back scan): warp w owns the contiguous stretch [w * 32 * Items,
// (w + 1) * 32 * Items) of a tile, split into Rows = Items / Vec rows of 32 16-byte vectors
// (Vec = 1 for elements smaller than 4 bytes or of a size that does not divide 16);
// vector k of lane l holds elements (k * 32 + l) * Vec .. + Vec - 1 of the stretch, so every
// load instruction of a warp reads 512 contiguous bytes. Element order is therefore warp,
// row, lane, element-in-vector.
//
// Ranking. Each thread keeps one bit per element (selected or not). Per row, a lane's count
// (at most Vec <= 4) is scanned across the warp; four rows share one 32-bit word as 8-bit
// fields (a row holds at most 32 * 4 = 128 selected elements, so no field carries into the
// next), which turns Rows scans into Rows / 4 scans of five shuffles each.
#pragma once

#include <cstdint>

#include "parprim/cuda/detail/vector_io.cuh"

namespace parprim::cuda_kernels {

template <class T, int Threads, int Items>
struct select_shape {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  // At most 4 elements per unit, so that a row's count fits an 8-bit field (see Ranking).
  static constexpr int vec = sizeof(T) >= 4 ? cuda_prim::unit_size<T> : 1;
  static constexpr int rows = Items / vec;
  static constexpr int warps = Threads / 32;
  static constexpr int warp_items = 32 * Items;
  static constexpr int tile = Threads * Items;
  static constexpr int words = (rows + 3) / 4;  // SWAR words of four 8-bit row fields
  static_assert(Threads % 32 == 0, "whole warps");
  static_assert(Items % vec == 0, "items per thread must fill whole 16-byte vectors");
  static_assert(Items <= 32, "one 32-bit selection mask per thread");
};

// A thread's tile elements: row k, element j is element my_offset + k * 32 * vec + j of the
// tile.
template <class T, class Shape>
struct tile_regs {
  T x[Shape::rows][Shape::vec];
};

__device__ __forceinline__ int select_lane() { return static_cast<int>(threadIdx.x) & 31; }
__device__ __forceinline__ int select_warp() { return static_cast<int>(threadIdx.x) >> 5; }

template <class Shape>
__device__ __forceinline__ int tile_offset_of_thread() {
  return select_warp() * Shape::warp_items + select_lane() * Shape::vec;
}

// Loads `count` elements at src (the tile's start): 16-byte vectors when the tile is full and
// `vectorized` (src 16-byte aligned), guarded scalars otherwise (missing elements: T(), never selected).
template <class T, class Shape>
__device__ __forceinline__ void load_tile(tile_regs<T, Shape>& r, const T* src, int count,
                                          bool vectorized) {
  const int mine = tile_offset_of_thread<Shape>();
  src += mine;
  if (vectorized && count == Shape::tile && Shape::vec == cuda_prim::unit_size<T>) {
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k) {
      T v[cuda_prim::unit_size<T>];
      cuda_prim::load_unit(v, src + k * 32 * Shape::vec);
#pragma unroll
      for (int j = 0; j < Shape::vec; ++j) r.x[k][j] = v[j];
    }
  } else {
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < Shape::vec; ++j) {
        const int e = k * 32 * Shape::vec + j;
        r.x[k][j] = mine + e < count ? src[e] : T();
      }
  }
}

// A thread's ranks: bit (k * vec + j) of `mask` says element (k, j) is selected; the selected
// elements of the thread's row k start at warp-local rank row_rank[k].
template <class Shape>
struct thread_ranks {
  unsigned mask;
  int row_rank[Shape::rows];
  int warp_total;  // selected elements of the warp
};

// Evaluates the predicate on the thread's valid elements and ranks them within the warp.
template <class T, class Shape, class Pred>
__device__ __forceinline__ thread_ranks<Shape> rank_in_warp(const tile_regs<T, Shape>& r,
                                                            int count, Pred pred) {
  constexpr int vec = Shape::vec, rows = Shape::rows, words = Shape::words;
  constexpr unsigned row_bits = (1u << vec) - 1u;
  const int mine = tile_offset_of_thread<Shape>();
  const int lane = select_lane();
  thread_ranks<Shape> t;
  t.mask = 0;
#pragma unroll
  for (int k = 0; k < rows; ++k)
#pragma unroll
    for (int j = 0; j < vec; ++j) {
      const bool sel = mine + k * 32 * vec + j < count && pred(r.x[k][j]);
      t.mask |= unsigned(sel) << (k * vec + j);
    }
  // Per-row lane counts, four rows per word, scanned across the warp (inclusive).
  unsigned own[words], incl[words];
#pragma unroll
  for (int w = 0; w < words; ++w) own[w] = 0;
#pragma unroll
  for (int k = 0; k < rows; ++k)
    own[k / 4] |= unsigned(__popc((t.mask >> (k * vec)) & row_bits)) << (8 * (k % 4));
#pragma unroll
  for (int w = 0; w < words; ++w) incl[w] = own[w];
#pragma unroll
  for (int d = 1; d < 32; d <<= 1)
#pragma unroll
    for (int w = 0; w < words; ++w) {
      const unsigned below = __shfl_up_sync(0xffffffffu, incl[w], d);
      if (lane >= d) incl[w] += below;
    }
  // Row k of lane l starts at (rows before k in the warp) + (row k of lanes below l).
  int running = 0;
#pragma unroll
  for (int w = 0; w < words; ++w) {
    const unsigned totals = __shfl_sync(0xffffffffu, incl[w], 31);
    const unsigned exclusive = incl[w] - own[w];  // field-wise: no field borrows
#pragma unroll
    for (int f = 0; f < 4; ++f) {
      const int k = w * 4 + f;
      if (k < rows) {
        t.row_rank[k] = running + int((exclusive >> (8 * f)) & 0xffu);
        running += int((totals >> (8 * f)) & 0xffu);
      }
    }
  }
  t.warp_total = running;
  return t;
}

// Selected elements of the warp before element (k, j): the rank of a selected element, and
// for a rejected one the number to subtract from its position to get its rank among the
// rejected.
template <class Shape>
__device__ __forceinline__ int selected_rank(const thread_ranks<Shape>& t, int k, int j) {
  const unsigned below = (t.mask >> (k * Shape::vec)) & ((1u << j) - 1u);
  return t.row_rank[k] + __popc(below);
}

// The tile's selected count and the selected elements of the warps before this one, from
// every warp's total through s_warp_total (Shape::warps entries). Contains a barrier: every
// thread calls it; s_warp_total may be rewritten only after a later barrier.
struct tile_selection {
  int warp_prefix;
  int selected;
};
template <class Shape>
__device__ __forceinline__ tile_selection select_across_warps(const thread_ranks<Shape>& t,
                                                              int* s_warp_total) {
  const int warp = select_warp();
  if (select_lane() == 0) s_warp_total[warp] = t.warp_total;
  __syncthreads();
  tile_selection r{0, 0};
#pragma unroll
  for (int w = 0; w < Shape::warps; ++w) {
    const int v = s_warp_total[w];
    r.warp_prefix += w < warp ? v : 0;
    r.selected += v;
  }
  return r;
}

}  // namespace parprim::cuda_kernels
