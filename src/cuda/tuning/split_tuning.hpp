// Launch shape of the split kernels (Hopper, sm_90). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

// Split into F buckets: one block per tile; tiles hold at least 8 elements per bucket so the
// count table (F x tiles) stays below n / 8 entries.
struct split_tuning {
  static constexpr int threads = 256;
  static constexpr int min_tile = 4096;
  static constexpr int elements_per_bucket = 8;
  // Up to 256 buckets, the ranked scatter (split.cu): a block per tile of ranked_threads x
  // items, ranked by the Onesweep pass kernel's warp-level multisplit and staged in shared
  // memory. 8-byte elements take half the items: the staged tile stays at 32 KiB of static
  // shared memory. H100, 256 buckets of 2^28 u32 (bench/results/2026-11-25-h100-split.md):
  // 256 x 16 2.29 ms, 512 x 16 1.82 ms (CUB's sort of the byte: 1.64-1.67); bigger tiles
  // halve the count table, whose words are written and read one per sector.
  static constexpr int ranked_max_buckets = 256;
  static constexpr int ranked_threads = 512;
  static constexpr int ranked_items = 16;
  static constexpr int ranked_items_8byte = 8;
  // The count kernel loads this many elements per thread before counting them: 16 against 1,
  // 2^28 2.41 -> 2.29 ms, 2^24 0.153 -> 0.141 ms.
  static constexpr int count_items = 16;
};

}  // namespace parprim::cuda_tuning
