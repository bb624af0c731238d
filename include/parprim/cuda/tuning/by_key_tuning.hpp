// Launch shapes of the single-pass by-key kernel (parprim/cuda/by_key.cuh), by the larger of
// the key and value sizes. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

template <int Bytes>
struct by_key_tuning {
  static constexpr int threads = 256;
  // Consecutive elements per thread, read from shared memory. Odd, so the 32 threads of a
  // warp reading their j-th element hit 32 different banks (4-byte elements) or 16 different
  // bank pairs per half-warp (8-byte elements). At most 32: a thread's head flags are one
  // 32-bit word. The tile's keys and values stay staged in shared memory for the whole
  // block (phase 5 reads them again), so the tile size sets the shared memory per block:
  // 256 x 11 x 4 B keys and values take 22 KiB (about 25 KiB with the block scan and the
  // look-back window), 256 x 7 x 8 B 28 KiB, so that min_blocks_per_sm blocks fit on an SM.
  // Tiles of 256 x 15 left 2 blocks per SM (128 registers, 33 KiB) on the H100 and the
  // kernel latency-bound: 365 us for unique of 2^24 u32, 9.6% of DRAM throughput (ncu).
  static constexpr int items = Bytes <= 4 ? 11 : Bytes <= 8 ? 7 : Bytes <= 16 ? 5 : 1;
  // Resident blocks per SM the compiler must allow (__launch_bounds__): registers per thread
  // are capped at 65536 / (threads * min_blocks_per_sm), 80 for 3 blocks of 256. No thread
  // keeps its elements in registers across the block scan and the look-back (only a 32-bit
  // head mask and its run state), so what remains is the look-back warp's window. ptxas
  // (sm_90): 70-76 registers, no spills, for u32 keys with u32 values (+, unique, scan),
  // u32 keys with run lengths, f64 with f64; with 4 blocks (64 registers) the same kernels
  // spilled 36-238 bytes unless the window shrank to 64 tiles.
  static constexpr int min_blocks_per_sm = 3;
  // Tiles each lane of the look-back warp polls per round (a window of 32 x this many), as
  // for the scan's 4-byte tiles (scan_tuning.hpp): a window of 32 limited the scan to about
  // 22 ns per tile on the H100. Used for run states of at most 16 bytes; 24-byte states
  // (8-byte values) poll half as many, larger ones 1 (by_key::shape).
  static constexpr int lookback_per_lane = 4;
  // Back-off (ns) between polls of a tile status that is not yet published.
  static constexpr unsigned spin_sleep_ns = 0;
};

}  // namespace parprim::cuda_tuning
