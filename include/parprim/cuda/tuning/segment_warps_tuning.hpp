// Launch shape of the segment-per-warp segmented_reduce (parprim/cuda/segment_warps.cuh) and
// the rule that picks it before one block per segment (segment_blocks_tuning.hpp), the
// two-pass runs engine (parprim/cuda/segmented.cuh) and the chunked reduce
// (src/cuda/kernels/segmented_reduce.cuh), host and device callable (the order of the rules:
// segment_paths.hpp). Plain constants and rules, no CUDA headers.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::cuda_tuning {

struct segment_warps_tuning {
  // Warps per block, each reducing one segment: 256 threads, the block path's shape.
  static constexpr int warps_per_block = 8;
  static constexpr int threads = warps_per_block * 32;

  // Segments must average at least this many elements: 32 f32 are one 128-byte line, a
  // 16-byte unit for each of 8 lanes. Below, most of a warp idles and the runs engine, which
  // tiles elements regardless of segments, keeps its ~0.8 ms per 2^26 elements (2^26 f32 in
  // segments of 32 on the H100: 0.829 ms a call, its two tile passes 270 + 486 us by ncu).
  // At 32 f32 a warp waits on two dependent loads (offsets, then 128 bytes); at 40 registers
  // (ptxas, sm_90, f32) 48 warps fit an SM. Measured (H100, 2026-11-23, whole calls against
  // CUB in the same run): 2^26 f32 in segments of 32 in 0.643 ms (3.77x CUB; the runs engine
  // took 0.829), in segments of 256 in 0.1287 ms (2.49x; one block per segment took 0.514).
  static constexpr std::int64_t min_average = 32;
  // Segments averaging this many elements or more go to one block each (or the chunked
  // reduce): at 4096 f32 one block per segment already streams at 91% of the H100's DRAM
  // bandwidth (88.1 us, CUB's 86.9 us), while at 256 it reached 16.6% (487.9 us, CUB 316.2
  // us, ncu): a block of 256 threads holds too little of a 256-element segment to hide its
  // start-up and the latency of its one round of loads. A warp holds 32 lanes x 4 units x 16
  // B = 2 KiB in flight, a whole 512-element f32 segment in one round.
  static constexpr std::int64_t blocks_average = 1024;
  // No segment may exceed this many elements: a warp alone streams 2 KiB per memory latency,
  // 2-3 GB/s at 0.7-1 us (an estimate), so 8192 f32 (32 KiB) take 10-16 us, about the time
  // the whole H100 streams 2^23 f32 (32 MiB). Longer ones go to one block each (16 KiB in
  // flight) or the multi-block paths.
  static constexpr std::int64_t max_length = 8192;
  // And the call must hold at least this many longest segments' worth of elements (n >=
  // 1024 x longest): the H100's 3 TB/s is about 1000-1500 lone warps at 2-3 GB/s, so the
  // longest warp ends within about the time the whole call takes at full bandwidth.
  static constexpr std::int64_t min_work_per_longest = 1024;

  // Whether a segmented_reduce of n elements in `segments` segments, the longest holding
  // `longest`, runs one warp per segment.
  PARPRIM_HD static constexpr bool chosen(std::int64_t n, std::int64_t segments,
                                          std::int64_t longest) {
    return segments > 0 && segments < (std::int64_t(1) << 31) && n / segments >= min_average &&
           n / segments < blocks_average && longest <= max_length &&
           longest * min_work_per_longest <= n;
  }
};

}  // namespace parprim::cuda_tuning
