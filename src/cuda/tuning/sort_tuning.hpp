// Launch shapes of the radix sort kernels (Hopper, sm_90). Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

// Onesweep (src/cuda/kernels/radix_sort*.cuh): any multiple of 32 threads >= 256; keys turned
// into their ordered image once at load (the last tile padded with the largest image, so no
// key needs a validity check), the digits counted before ranking, 4-instruction ballots per
// digit bit, the warp counters advanced by one store per group of equal digits. 1- and 2-byte keys take the 4-byte shape.
// 15 keys per thread (a 3840-key tile) is what the Onesweep paper uses for 256 threads;
// larger tiles amortize the 256-entry look-back over more keys and make the runs of equal
// digits in the scatter longer (CUB on sm_90 runs 384 threads x 15-23 keys).
struct onesweep_tuning {
  static constexpr int radix_bits = 8;
  static constexpr int radix = 1 << radix_bits;
  static constexpr int threads = 384;     // measured on H100: see bench/results
  static constexpr int items = 23;        // keys per thread when keys and values are 4 bytes
  static constexpr int items_wide = 12;   // ... when keys or values are 8 bytes
  static constexpr int min_blocks = 2;    // registers: 65536 / (threads * min_blocks) per thread
  // Bytes between the end of the temporary keys and the temporary values (a multiple of 256).
  // With the values right after the keys (n * 4 bytes apart), the passes of a u32/u32 sort that
  // read the temporary copies ran 12% slower than the others on the H100; 1 MiB + 256 bytes
  // apart they run alike (pairs at 2^27: 4.95 -> 4.66 ms; bench/results).
  static constexpr int temp_values_skew = (1 << 20) + 256;
  // The upfront histogram: 16 keys per thread per round, blocks per SM for the grid size; one
  // shared atomic per key and digit (counting runs of equal digits first was slower on
  // uniform keys: bench/results/2026-11-21-h100-experiments.md).
  static constexpr int histogram_threads = 256;
  static constexpr int histogram_items = 16;
  static constexpr int histogram_blocks_per_sm = 4;
};
// Look-back words hold a 30-bit count, so the tiles are cut into segments of fewer than 2^30
// keys whose look-back chains are independent; see radix_sort_common.cuh.

// The 1-bit split sort: grid-stride element-wise kernels.
struct split_sort_tuning {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

}  // namespace parprim::cuda_tuning
