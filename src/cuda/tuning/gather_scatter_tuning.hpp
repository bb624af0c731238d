// Launch shapes of gather, scatter, histogram and counting sort (Hopper, sm_90). Plain
// constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

struct gather_scatter_tuning {
  // 8 elements per thread: two or four 16-byte loads of indices per thread and 8 independent
  // random accesses in flight, enough to cover memory latency at full occupancy.
  static constexpr int threads = 256;
  static constexpr int items = 8;
};

struct histogram_tuning {
  static constexpr int threads = 512;
  // Privatized counters per block: bins * copies <= this many (32 KiB of u32), with up to 32
  // copies (one per lane) for small bin counts.
  static constexpr int shared_counters = 8192;
  static constexpr int max_copies = 32;
  // 16-byte vectors each thread loads before counting any (memory-level parallelism).
  static constexpr int vectors_per_step = 2;
  static constexpr int global_threads = 256;  // global-atomics path
};

struct counting_sort_tuning {
  static constexpr int max_warps = 8;                 // warps (tiles) per block
  static constexpr int shared_bytes = 48 * 1024;      // running offsets of a block's warps
  static constexpr long long min_tile = 1024;         // elements per warp tile, at least
  static constexpr long long max_tile = 32768;        // and at most
  static constexpr int tile_per_key = 8;              // tile >= 8 * key_range elements
};

}  // namespace parprim::cuda_tuning
