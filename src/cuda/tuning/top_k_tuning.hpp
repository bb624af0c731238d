// Launch shapes of the radix select behind top_k (top_k.cuh). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

struct top_k_tuning {
  static constexpr int digit_bits = 8;  // 256 bins in shared memory per histogram pass
  static constexpr int threads = 256;
  static constexpr int items = 16;      // the compaction's tile: 4096 elements
  static constexpr int tile = threads * items;
  static constexpr int histogram_blocks_per_sm = 8;
  static constexpr int scan_threads = 1024;
};

}  // namespace parprim::cuda_tuning
