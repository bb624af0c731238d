// Launch shapes of the single-pass by-key kernel (parprim/cuda/by_key.cuh), by the larger of
// the key and value sizes. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

template <int Bytes>
struct by_key_tuning {
  static constexpr int threads = 256;
  // Consecutive elements per thread, read from shared memory. Odd, so the 32 threads of a
  // warp reading their j-th element hit 32 different banks (4-byte elements) or 16 different
  // bank pairs per half-warp (8-byte elements). Tiles of 256 x 15 x 4 B and 256 x 9 x 8 B
  // keep keys and values staged in about 30-37 KiB of shared memory, under the 48 KiB a
  // block may hold statically; larger elements get smaller tiles.
  static constexpr int items = Bytes <= 4 ? 15 : Bytes <= 8 ? 9 : Bytes <= 16 ? 5 : 1;
  // Tiles each lane of the look-back warp polls per round (a window of 32 x this many), as
  // for the scan's 4-byte tiles (scan_tuning.hpp): a window of 32 limited the scan to about
  // 22 ns per tile on the H100. Used for run states of at most 24 bytes; larger ones poll 1.
  static constexpr int lookback_per_lane = 4;
  // Back-off (ns) between polls of a tile status that is not yet published.
  static constexpr unsigned spin_sleep_ns = 0;
};

}  // namespace parprim::cuda_tuning
