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
// Element sizes without a measured shape (1, 2, 32 bytes, odd-sized structs): a tile
// of about 16 KiB, whole 16-byte vectors where the size divides 16, the plain look-back.
template <int Bytes>
struct scan_lookback_tuning {
  static constexpr int threads = 256;
  static constexpr int items = Bytes <= 2 ? 32 / Bytes : (Bytes < 64 ? 64 / Bytes : 1);
  static constexpr bool speculative_load = true;
  static constexpr unsigned spin_sleep_ns = 0;
  static constexpr int lookback_per_lane = 1;
  static constexpr bool fold_in_shared = false;
  static constexpr int min_blocks_per_sm = 0;
  static constexpr int pipeline_stages = 0;  // the pipelined kernel is off
  static constexpr int pipelined_min_tiles = 0;
};

template <>
struct scan_lookback_tuning<4> {
  static constexpr int threads = 256;
  static constexpr int items = 32;  // 8 x 16-byte vectors: 8192-element (32 KiB) tiles
  // Load tile blockIdx.x while the tile-id atomic is in flight (see parprim/cuda/scan.cuh).
  static constexpr bool speculative_load = true;
  // Back-off (ns) between polls of a tile status that is not yet published; 0 polls
  // back-to-back.
  static constexpr unsigned spin_sleep_ns = 0;
  // Tiles each lane polls per look-back round: a window of 32 * lookback_per_lane tiles.
  static constexpr int lookback_per_lane = 4;
  // Fold the look-back window through shared memory (see look_back in parprim/cuda/scan.cuh).
  static constexpr bool fold_in_shared = true;
  // Resident blocks per SM the compiler must allow (__launch_bounds__): registers per thread
  // are capped at 65536 / (threads * min_blocks_per_sm); 0 states no minimum. With the tile
  // in registers this decides how many blocks share an SM (256 x 32 x 4 bytes: 80 registers
  // for 3 blocks, up to 128 for 2).
  static constexpr int min_blocks_per_sm = 3;
  // The pipelined kernel (parprim/cuda/detail/scan_pipelined.cuh): tile buffers of shared
  // memory per SM (6 x 32 KiB; 4 measured 86.7% of a memcpy on the H100 at 2^28, 5 90.6%,
  // 6 91.4%), used for inputs of at least pipelined_min_tiles tiles that start on a 16-byte
  // boundary. Against scan_kernel on the same buffers: 0.85-0.99x up to 32 tiles (2^18
  // elements), 1.00-1.13x at 128 (2^20), 1.11-1.18x from 2^22 to 2^28. 0 stages turn it off.
  static constexpr int pipeline_stages = 6;
  static constexpr int pipelined_min_tiles = 128;
};

template <>
struct scan_lookback_tuning<8> {
  static constexpr int threads = 256;
  static constexpr int items = 16;  // 8 x 16-byte vectors: 4096-element (32 KiB) tiles
  static constexpr bool speculative_load = true;
  static constexpr unsigned spin_sleep_ns = 0;
  // Tiles each lane polls per look-back round: a window of 32 * lookback_per_lane tiles.
  static constexpr int lookback_per_lane = 4;
  // As for 4-byte values.
  static constexpr bool fold_in_shared = true;
  static constexpr int min_blocks_per_sm = 0;
  // The pipelined kernel as for 4-byte values. With the split status words (tile_status.cuh)
  // it ran 1.05-1.08x this shape's one-block-per-tile kernel on the H100 at 2^20 (256 tiles),
  // 1.16-1.26x from 2^24 to 2^28, 0.79-0.96x up to 2^18 (64 tiles). Under the flag-beside-
  // value status it had lost everywhere (0.89-0.97x): its look-back warp was the bottleneck.
  static constexpr int pipeline_stages = 6;
  static constexpr int pipelined_min_tiles = 128;
};

// 16-byte values take the 8-byte shape's choices (a 128-tile window folded in shared memory,
// 6 pipeline stages) with as many values as fill its 32 KiB tiles. On the H100, 2^27 pairs of
// doubles added lane-wise (scripts/tune/scan16_probe.cu, against the generic shape of 16 KiB
// tiles and a 32-tile window folded by shuffles, which CUB's ExclusiveScan matched at 0.98x):
// one block per tile 4.41 -> 2.53 ms, pipelined 1.92 ms (74% of a memcpy, 2.25x CUB). The
// pipelined kernel lost at 2^18 (128 tiles: 0.0200 against 0.0174 ms), drew at 2^20 (512
// tiles: 0.0326 against 0.0334) and won from 2^24 (0.260 against 0.334): on from 512 tiles.
template <>
struct scan_lookback_tuning<16> : scan_lookback_tuning<8> {
  static constexpr int items = 8;  // 8 x 16-byte vectors: 2048-element (32 KiB) tiles
  static constexpr int pipelined_min_tiles = 512;
};

}  // namespace parprim::cuda_tuning
