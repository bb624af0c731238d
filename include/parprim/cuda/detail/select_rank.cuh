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
#include "parprim/cuda/detail/warp_shuffle.cuh"

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

// The selection bits of the thread's elements (bit k * vec + j for element (k, j)): the
// predicate of each valid element.
template <class T, class Shape, class Pred>
__device__ __forceinline__ unsigned predicate_mask(const tile_regs<T, Shape>& r, int count,
                                                   Pred pred) {
  const int mine = tile_offset_of_thread<Shape>();
  unsigned mask = 0;
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
    for (int j = 0; j < Shape::vec; ++j) {
      const bool sel = mine + k * 32 * Shape::vec + j < count && pred(r.x[k][j]);
      mask |= unsigned(sel) << (k * Shape::vec + j);
    }
  return mask;
}

// The key just before the warp's stretch, for heads_mask (lane 0 of each warp; other lanes
// and warp 0 at the input's start get K()): `tile_keys[mine - 1]`, in the tile for warps > 0
// and the previous tile's last key for warp 0. The kernel issues this load together with the
// tile's own loads, before the tile id is known, so that it is in flight while they are: a
// load issued after the claim would add one more memory latency between the tile's start
// and the publication of its count, and every later tile's look-back waits for that count.
template <class K, class Shape>
__device__ __forceinline__ K warp_predecessor(const K* tile_keys, int count, bool at_input_start) {
  const int mine = tile_offset_of_thread<Shape>();
  K before{};
  if (select_lane() == 0 && !(at_input_start && select_warp() == 0) && mine < count)
    before = tile_keys[mine - 1];
  return before;
}

// The selection bits of run heads (unique): element e is selected when !eq(key before e, e);
// element 0 of the input always is. The key before element (k, j) is (k, j - 1) in the same
// thread, else the last of row k of lane - 1, else (lane 0) the last of row k - 1 of lane 31:
// one rotating shuffle per row serves both (lane 0 keeps the previous row's rotation). The
// warp's first element compares with `before` (warp_predecessor, lane 0).
template <class K, class Shape, class Eq>
__device__ __forceinline__ unsigned heads_mask(const tile_regs<K, Shape>& r, int count, K before,
                                               bool at_input_start, Eq eq) {
  constexpr int vec = Shape::vec;
  const int mine = tile_offset_of_thread<Shape>();
  const int lane = select_lane();
  const bool warp_at_input_start = at_input_start && select_warp() == 0;
  K rotated = before;  // lane 0: the key before its row
  // Elements past the tile's end are never heads. Their bits are cleared per row at the end
  // (eq also sees the value-initialized keys that pad a partial tile; an element-wise check
  // kept 32 more values live and spilled 64 bytes at 64 registers, ptxas sm_90, 4-byte keys).
  unsigned differs = 0, valid = 0;
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k) {
    const K from_lane_below = cuda_prim::shfl_idx(r.x[k][vec - 1], (lane + 31) & 31);
    K previous = lane > 0 ? from_lane_below : rotated;
    rotated = from_lane_below;
#pragma unroll
    for (int j = 0; j < vec; ++j) {
      differs |= unsigned(!eq(previous, r.x[k][j])) << (k * vec + j);
      previous = r.x[k][j];
    }
    const int left = count - (mine + k * 32 * vec);  // valid elements from this row's first
    const unsigned row = left >= vec ? (1u << vec) - 1u : left > 0 ? (1u << left) - 1u : 0u;
    valid |= row << (k * vec);
  }
  if (warp_at_input_start && lane == 0) differs |= 1u;  // element 0 of the input
  return differs & valid;
}

// Ranks the selected elements (bits of `mask`) of every thread within the warp.
template <class Shape>
__device__ __forceinline__ thread_ranks<Shape> rank_in_warp(unsigned mask) {
  constexpr int vec = Shape::vec, rows = Shape::rows, words = Shape::words;
  constexpr unsigned row_bits = (1u << vec) - 1u;
  const int lane = select_lane();
  thread_ranks<Shape> t;
  t.mask = mask;
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
