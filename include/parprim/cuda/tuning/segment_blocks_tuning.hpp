// Launch shape of the segment-per-block segmented_reduce (parprim/cuda/segment_blocks.cuh) and
// the rule that picks it over the two-pass runs engine (parprim/cuda/segmented.cuh) and the
// chunked reduce (src/cuda/kernels/segmented_reduce.cuh), host and device callable (the order
// of the rules: segment_paths.hpp). Plain constants and rules, no CUDA headers.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::cuda_tuning {

struct segment_blocks_tuning {
  static constexpr int threads = 256;
  // 16-byte units a thread loads before it folds any: 256 x 4 x 16 B = 16 KiB per block, a
  // whole 4096-element f32 segment in one round of loads (CUB's reduce policy for 4-byte
  // values takes the same 4096-element tile: 256 threads x 16 items, vector loads of 4).
  static constexpr int units_in_flight = 4;

  // Segments must average at least this many elements. Below, a block holds too little work
  // to pay for itself: CUB's block-per-segment reduce of 2^26 f32 in segments of 32 took
  // 2.43 ms on the H100 (2^21 blocks, 1.16 ns per block), while the runs engine takes about
  // 1.0 ms at any segment length (1.03 ms at 32, 1.04 ms on the power-law mix); at that block
  // rate a block per segment costs 0.30 ms at 256 elements and would cross the runs engine
  // near 80. 256 leaves margin for blocks that do more than CUB's near-empty ones.
  static constexpr std::int64_t min_average = 256;
  // No segment may exceed this many elements: one block alone streams its segment with 16 KiB
  // in flight, about 16-27 GB/s at a 0.6-1 us memory latency (an estimate, not a
  // measurement), so 65536 f32 (256 KiB) take 10-16 us, about the time 2^25 f32 take
  // over the whole H100. Longer ones go to the multi-block paths.
  static constexpr std::int64_t max_length = 65536;
  // And the call must hold at least this many longest segments' worth of elements (n >=
  // 256 x longest): the H100's 3 TB/s is about 150 lone blocks at 20 GB/s, so the longest
  // block ends within about the time the whole call takes at full bandwidth, and one huge
  // segment in a skewed mix never serializes the call on one block.
  static constexpr std::int64_t min_work_per_longest = 256;

  // Whether a segmented_reduce of n elements in `segments` segments, the longest holding
  // `longest`, runs one block per segment.
  PARPRIM_HD static constexpr bool chosen(std::int64_t n, std::int64_t segments,
                                          std::int64_t longest) {
    return segments > 0 && segments < (std::int64_t(1) << 31) && n / segments >= min_average &&
           longest <= max_length && longest * min_work_per_longest <= n;
  }
};

}  // namespace parprim::cuda_tuning
