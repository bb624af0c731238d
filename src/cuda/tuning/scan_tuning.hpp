// Launch shapes of the scan kernels (Hopper, sm_90). Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

// The course kernels. Hillis-Steele scans one element per thread in a double buffer;
// Blelloch scans two elements per thread in place.
struct scan_textbook_tuning {
  static constexpr int hillis_steele_threads = 1024;
  static constexpr int blelloch_threads = 512;  // 1024 elements per block
  static constexpr int add_threads = 256;       // the add-increments pass
};

// The single-pass decoupled look-back scan. A tile is threads * items elements; each thread
// loads `items` elements as items * sizeof(T) / 16 coalesced 16-byte vectors.
template <int Bytes>
struct scan_lookback_tuning;

template <>
struct scan_lookback_tuning<4> {
  static constexpr int threads = 256;
  static constexpr int items = 32;  // 8 x 16-byte vectors: 8192-element (32 KiB) tiles
  // Load tile blockIdx.x while the tile-id atomic is in flight (see scan_lookback.cuh).
  static constexpr bool speculative_load = true;
  // Back-off (ns) between polls of a tile status that is not yet published; 0 polls
  // back-to-back.
  static constexpr unsigned spin_sleep_ns = 0;
  // Tiles each lane polls per look-back round: a window of 32 * lookback_per_lane tiles.
  static constexpr int lookback_per_lane = 1;
};

template <>
struct scan_lookback_tuning<8> {
  static constexpr int threads = 256;
  static constexpr int items = 16;  // 8 x 16-byte vectors: 4096-element (32 KiB) tiles
  static constexpr bool speculative_load = true;
  static constexpr unsigned spin_sleep_ns = 0;
  // Tiles each lane polls per look-back round: a window of 32 * lookback_per_lane tiles.
  static constexpr int lookback_per_lane = 1;
};

}  // namespace parprim::cuda_tuning
