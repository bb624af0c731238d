// Launch shapes of the radix select behind top_k (top_k.cuh). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

struct top_k_tuning {
  static constexpr int first_digit_bits = 12;  // the first pass: 4096 bins, 16 KiB shared
  static constexpr int first_bins = 1 << first_digit_bits;
  static constexpr int digit_bits = 8;  // 256 bins in shared memory per later pass
  // Candidates are copied out when at most n / candidate_divisor: a smaller set makes the
  // later passes cheap, a larger one would cost more to copy than the passes save.
  static constexpr int candidate_divisor = 8;
  static constexpr int threads = 256;
  static constexpr int items = 16;      // the compaction's tile: 4096 elements
  static constexpr int tile = threads * items;
  static constexpr int histogram_blocks_per_sm = 8;
};

}  // namespace parprim::cuda_tuning
