// Launch shape of the split kernels (Hopper, sm_90). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

// Split into F buckets: one block per tile; tiles hold at least 8 elements per bucket so the
// count table (F x tiles) stays below n / 8 entries.
struct split_tuning {
  static constexpr int threads = 256;
  static constexpr int min_tile = 4096;
  static constexpr int elements_per_bucket = 8;
};

}  // namespace parprim::cuda_tuning
