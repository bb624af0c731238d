// Launch shapes and strategies of copy_if and partition (Hopper, sm_90). Plain constants;
// split's are in split_tuning.hpp.
#pragma once

namespace parprim::cuda_tuning {

// Single-pass compaction (copy_if, and each pass of partition scheme 0).
//   kernel 0: select_kernel (partition.cu): threads * items elements per tile, 64 bytes per
//             thread in scalar loads, one 32-tile look-back window
//   kernel 1: select_lookback_kernel (select_lookback.cuh): select_lookback_tuning below
template <int Bytes>
struct select_tuning {
  static constexpr int kernel = 1;
  static constexpr int threads = 256;
  static constexpr int items = 64 / Bytes;  // 16 for 4-byte, 8 for 8-byte elements
  static constexpr int tile = threads * items;
};

// select_lookback_kernel: 16-byte loads, a speculative tile load, a wider look-back window.
template <int Bytes>
struct select_lookback_tuning {
  static constexpr int threads = 256;
  static constexpr int items = 128 / Bytes;  // 32 KiB tiles (8192 4-byte elements)
  static constexpr int min_blocks = 4;       // per SM (__launch_bounds__)
  // Tiles each lane polls per look-back round: a window of 32 * lookback_per_lane tiles.
  static constexpr int lookback_per_lane = 2;
  // Back-off (ns) between polls of a tile status that is not yet published; 0 spins.
  static constexpr unsigned spin_sleep_ns = 0;
  // Write the packed run with 16-byte stores (after a scalar head) instead of 4- or 8-byte ones.
  static constexpr bool vector_store = false;
};

// Stable partition:
//   scheme 0: two compaction passes, the selected elements then (negated predicate) the
//             rejected ones after them: reads 2n, writes n, two look-back passes
//   scheme 1: a count pass then a place pass over G chunks (partition_count_place.cuh):
//             reads 2n, writes n, no look-back, the second read partly from L2
template <int Bytes>
struct partition_tuning {
  static constexpr int scheme = 1;
  static constexpr int threads = 256;
  static constexpr int items = 128 / Bytes;  // 32 KiB tiles
  // Chunks G = SMs * blocks_per_sm (at most): the place kernel is built for that many blocks
  // per SM (__launch_bounds__), so all of them run at once.
  static constexpr int blocks_per_sm = 3;
};

}  // namespace parprim::cuda_tuning
