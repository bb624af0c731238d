// Launch shape of the split kernels (Hopper, sm_90). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

// Split into F buckets: one block per tile; tiles hold at least 8 elements per bucket so the
// count table (F x tiles) stays below n / 8 entries.
struct split_tuning {
  static constexpr int threads = 256;
  static constexpr int min_tile = 4096;
  static constexpr int elements_per_bucket = 8;
  // Up to 256 buckets, the ranked scatter (split.cu): tiles of ranked_threads x items, ranked
  // by the Onesweep pass kernel's warp-level multisplit and staged in shared memory. 8-byte
  // elements take half the items: the staged tile stays at 16 KiB of static shared memory.
  static constexpr int ranked_max_buckets = 256;
  static constexpr int ranked_threads = 256;
  static constexpr int ranked_items = 16;
  static constexpr int ranked_items_8byte = 8;
};

}  // namespace parprim::cuda_tuning
