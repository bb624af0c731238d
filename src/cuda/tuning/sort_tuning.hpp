// Launch shapes of the radix sort kernels (Hopper, sm_90). Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

// One Onesweep pass-kernel shape: threads per block (a multiple of 32, >= 256: one thread per
// digit in the look-back), keys per thread, and the blocks per SM that __launch_bounds__
// promises (registers: 65536 / (threads * min_blocks) per thread).
template <int Threads, int Items, int MinBlocks>
struct onesweep_tile {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks = MinBlocks;
  static constexpr int keys = Threads * Items;
};

// Onesweep (src/cuda/kernels/radix_sort*.cuh): keys turned into their ordered image once at
// load (the last tile padded with the largest image, so no key needs a validity check), the
// digits counted before ranking, 4-instruction ballots per digit bit, the warp counters
// advanced by one store per group of equal digits. 1- and 2-byte keys take the 4-byte shapes.
// 15 keys per thread (a 3840-key tile) is what the Onesweep paper uses for 256 threads;
// larger tiles amortize the 256-entry look-back over more keys and make the runs of equal
// digits in the scatter longer. CUB on sm_90 (CCCL 3.0, 64-bit offsets) runs 384 x 19 for
// 4-byte keys, 384 x 17 for 4-byte pairs and 384 x 30 for 8-byte keys.
struct onesweep_tuning {
  static constexpr int radix_bits = 8;
  static constexpr int radix = 1 << radix_bits;
  // Tile shapes measured on the H100 (2026-11-22) against CUB DeviceRadixSort in one process
  // on the same buffers, uniform keys, 2^27 keys, median of 25 rounds, every output identical
  // to CUB's (`sort_sweep`, built with -DPARPRIM_SORT_SWEEP=ON up to commit 7be3858; table in
  // bench/results/2026-11-22-h100-sort-sweep.md). CUB ms / ours, above 1 is faster:
  //   u32 keys      384 x 26 @2 1.022x (2^28: 1.024x), 384 x 23 @2 0.971x, 512 x 18 @2 0.978x,
  //                 256 x 23 @3 0.941x, 384 x 19 @2 (CUB's) 0.910x
  //   u32/u32 pairs 384 x 23 @2 1.005x, 384 x 20 @2 0.986x, 384 x 17 @2 (CUB's) 0.960x,
  //                 256 x 23 @3 0.852x
  //   u64 keys      384 x 30 @1 1.021x (168 registers, 94 KB shared), 384 x 14 @2 1.003x,
  //                 512 x 20 @1 0.984x, 384 x 12 @2 0.946x, 384 x 22 @1 0.920x
  // 8-byte values take the wide tile too, unmeasured (no spills at 384 x 30 @1: 130-168
  // registers, at most 188480 bytes of shared memory with u64/u64). 1-byte keys alone spill
  // 48 bytes at 384 x 26 and keep 384 x 23. Registers, spills and shared memory of every pass
  // kernel: nvcc -Xptxas -v on radix_sort.cu.
  using keys_tile = onesweep_tile<384, 26, 2>;       // 2- and 4-byte keys, keys only
  using byte_keys_tile = onesweep_tile<384, 23, 2>;  // 1-byte keys, keys only
  using pairs_tile = onesweep_tile<384, 23, 2>;      // 1- to 4-byte keys with 4-byte values
  using wide_tile = onesweep_tile<384, 30, 1>;       // 8-byte keys or values
  // Bytes between the end of the temporary keys and the temporary values (a multiple of 256).
  // With the values right after the keys (n * 4 bytes apart), the passes of a u32/u32 sort that
  // read the temporary copies ran 12% slower than the others on the H100; 1 MiB + 256 bytes
  // apart they run alike (pairs at 2^27: 4.95 -> 4.66 ms; bench/results).
  static constexpr int temp_values_skew = (1 << 20) + 256;
  // The upfront histogram: 16 keys per thread per round (16-byte loads for keys of up to 4
  // bytes, when aligned), blocks of 1024 threads, one per SM, each with 32 copies of the bins
  // (16 for 8-byte keys) in 128 KiB of shared memory: one shared atomic per key and digit
  // without bank conflicts (2-way at most for 8-byte keys). Counting runs of equal digits
  // first was slower on uniform keys (bench/results/2026-11-21-h100-experiments.md).
  // Measurements in radix_sort_histogram.cuh.
  static constexpr int histogram_threads = 1024;
  static constexpr int histogram_items = 16;
};
// Look-back words hold a 30-bit count, so the tiles are cut into segments of fewer than 2^30
// keys whose look-back chains are independent; see radix_sort_common.cuh.

// The 1-bit split sort: grid-stride element-wise kernels.
struct split_sort_tuning {
  static constexpr int threads = 256;
  static constexpr int blocks_per_sm = 8;
};

}  // namespace parprim::cuda_tuning
