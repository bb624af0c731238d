// Tile shapes of the blocked GEMM kernels (src/cuda/kernels/gemm_blocked.cu).
//
// A block computes a BM x BN tile of C, walking K in BK-deep slices staged in shared memory.
// Its warps form a warps_m x warps_n grid, each warp a WM x WN tile; the 32 lanes of a warp
// form lanes_m x lanes_n, and each thread owns TM x TN outputs kept in registers, laid out
// as (TM/4) x (TN/4) blocks of 4x4 spread over the warp tile. That spread makes the 4-wide
// shared-memory reads of one k step cover a contiguous run of addresses per warp (one
// wavefront, broadcast to the lanes that share it) instead of strided, conflicting ones.
#pragma once

namespace parprim::cuda_tuning {

template <int BM_, int BN_, int BK_, int TM_, int TN_, int lanes_m_, bool double_buffer_,
          int min_blocks_, int lean_ = 0>
struct gemm_tile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_;
  static constexpr int TM = TM_, TN = TN_;
  static constexpr int lanes_m = lanes_m_, lanes_n = 32 / lanes_m_;
  static constexpr int WM = TM * lanes_m, WN = TN * lanes_n;
  static constexpr int warps_m = BM / WM, warps_n = BN / WN;
  static constexpr int threads = 32 * warps_m * warps_n;
  static constexpr bool double_buffer = double_buffer_;
  static constexpr int min_blocks = min_blocks_;  // __launch_bounds__ occupancy hint
  // Interior tiles of the fast path run a loop without bounds checks on walking pointers,
  // `lean` slices per trip (1 or 2; 0: off; needs double_buffer).
  static constexpr int lean = lean_;
  static_assert(lean >= 0 && lean <= 2 && (lean == 0 || double_buffer), "lean is 0, 1 or 2, with double_buffer");
  static_assert(TM % 4 == 0 && TN % 4 == 0, "outputs per thread come in 4x4 blocks");
  static_assert(32 % lanes_m == 0, "lanes_m must divide the warp");
  static_assert(BM % WM == 0 && BN % WN == 0, "warp tiles must cover the block tile");
};

// Rows in one group of the block ordering: GROUP block-rows sweep the columns together so
// that the A and B panels they share are still in L2 when the neighbours need them.
inline constexpr int gemm_group_rows = 8;

// The lean interior loop (gemm_tile::lean: 0 off, 1 or 2 slices per trip) of the f32
// production tile.
inline constexpr int gemm_production_lean = 2;

template <class T>
struct gemm_tiles;

template <>
struct gemm_tiles<float> {
  // 64x64 tile, 4x4 per thread, one shared buffer: the register-blocking step of the ladder.
  using register_blocked = gemm_tile<64, 64, 16, 4, 4, 4, false, 2>;
  // The same tile with the next slice prefetched into registers and a second buffer.
  using double_buffered = gemm_tile<64, 64, 16, 4, 4, 4, true, 2>;
  // 128x128 tile, 8x8 per thread, 64x32 warp tiles, 8-deep slices, two blocks per SM
  // (at most 128 registers per thread).
  using production = gemm_tile<128, 128, 8, 8, 8, 8, true, 2, gemm_production_lean>;
};

template <>
struct gemm_tiles<double> {
  using register_blocked = gemm_tile<64, 64, 16, 4, 4, 4, false, 2>;
  using double_buffered = gemm_tile<64, 64, 16, 4, 4, 4, true, 2>;
  // 8x8 doubles would need 128 registers for the accumulators alone: 4x4 per thread.
  using production = gemm_tile<64, 64, 8, 4, 4, 8, true, 2>;
};

}  // namespace parprim::cuda_tuning
