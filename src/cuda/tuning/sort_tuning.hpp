// Launch shapes of the radix sort kernels (Hopper, sm_90). Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

// Onesweep: one thread per digit of the 8-bit radix, so a tile's digit counts, its look-back
// and its scan over digits each take one step per thread. 15 keys per thread (a 3840-key
// tile) is what the Onesweep paper and its ports use: enough keys per tile to amortize the
// 256-entry look-back, few enough to keep keys and ranks in registers.
struct onesweep_tuning {
  static constexpr int radix_bits = 8;
  static constexpr int radix = 1 << radix_bits;
  static constexpr int threads = radix;
  static constexpr int items = 15;
  static constexpr int tile = threads * items;
  static constexpr int min_blocks = 3;  // registers: at most 85 per thread
  // The upfront histogram: 16 keys per thread per round, blocks per SM for the grid size.
  static constexpr int histogram_threads = 256;
  static constexpr int histogram_items = 16;
  static constexpr int histogram_blocks_per_sm = 4;
  // Look-back words hold a 30-bit count: the keys are cut into segments of at most this many
  // tiles (each < 2^30 keys) whose look-back chains are independent.
  static constexpr int tiles_per_segment = ((1 << 30) - 1) / tile;
};

// The 1-bit split sort: grid-stride element-wise kernels.
struct split_sort_tuning {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

}  // namespace parprim::cuda_tuning
