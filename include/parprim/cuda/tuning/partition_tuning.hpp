// Launch shapes of copy_if and partition (Hopper, sm_90). Plain constants; split's are in
// split_tuning.hpp. Items per thread: 128 bytes of elements (32 KiB tiles), at most 32 (one
// 32-bit selection mask per thread).
#pragma once

namespace parprim::cuda_tuning {

template <int Bytes>
inline constexpr int select_items = 128 / Bytes < 32 ? (128 / Bytes > 0 ? 128 / Bytes : 1) : 32;

// copy_if and unstable_partition: select_lookback_kernel
// (parprim/cuda/detail/select_lookback.cuh): 16-byte loads, a speculative tile load, a wide
// look-back window.
template <int Bytes>
struct select_lookback_tuning {
  static constexpr int threads = 256;
  static constexpr int items = select_items<Bytes>;  // 8192 4-byte elements per tile
  static constexpr int min_blocks = 4;               // per SM (__launch_bounds__)
  // Tiles each lane polls per look-back round: a window of 32 * lookback_per_lane tiles.
  static constexpr int lookback_per_lane = 2;
  // Back-off (ns) between polls of a tile status that is not yet published; 0 spins.
  static constexpr unsigned spin_sleep_ns = 0;
};

// unstable_partition: the same kernel writing both runs. It also keeps every rejected
// element's stage position live, which at 4 blocks per SM (64 registers) spills 120-160 bytes
// per thread for 4-byte elements (ptxas -v, sm_90). At 3 blocks per SM (80 registers) floats
// and 8-byte elements do not spill and 32-bit integers spill 16 bytes (28 bytes reloaded).
template <int Bytes>
struct unstable_partition_tuning : select_lookback_tuning<Bytes> {
  static constexpr int min_blocks = 3;
};

// Stable partition: a count pass then a place pass over G chunks
// (parprim/cuda/detail/partition_count_place.cuh): reads 2n, writes n, no look-back, the
// second read partly from L2.
template <int Bytes>
struct partition_tuning {
  static constexpr int threads = 256;
  static constexpr int items = select_items<Bytes>;  // 32 KiB tiles
  // Chunks G = SMs * blocks_per_sm (at most): the place kernel is built for that many blocks
  // per SM (__launch_bounds__), so all of them run at once.
  static constexpr int blocks_per_sm = 3;
};

}  // namespace parprim::cuda_tuning
