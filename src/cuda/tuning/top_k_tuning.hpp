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
  // Up to this many bytes of keys no candidates are copied and nothing waits on the host:
  // every pass reads the input (from L2 after the first). H100 (bench/results/2026-11-25-
  // h100-top-k-no-wait.md), sorted, waiting -> not: f32 2^18 k = 64 0.103 -> 0.071 ms, 2^22
  // 0.110 -> 0.101; u64 2^20 k = 1 0.143 -> 0.100, 2^21 0.149 -> 0.123, but 2^22 (32 MiB, 8
  // passes over it) 0.150 -> 0.168.
  static constexpr long long no_wait_max_bytes = 16ll << 20;
  static constexpr int threads = 256;
  static constexpr int items = 16;      // the compaction's tile: 4096 elements
  static constexpr int tile = threads * items;
  static constexpr int histogram_blocks_per_sm = 8;
};

}  // namespace parprim::cuda_tuning
