// Which per-segment kernel a CUDA segmented_reduce by offsets runs, in one rule the host and
// the gated kernels share, and the layout of the offsets check's verdict that the gates read.
// Plain constants and rules, no CUDA headers.
//
// Why the kernels decide too: the rule needs the offsets check's results (the covered range
// and the longest segment), which live on the device. Waiting for them on the host before
// launching left the GPU idle for a copy back, a host wake-up and a launch: 2^26 f32 in
// segments of 4096 took 108-114 us a call on the H100 where the reduce kernel itself takes
// 88.1 us (ncu; CUB's whole call 86.9 us). So segmented_reduce guesses the path from what the
// host knows (n and the segment count: speculated_path), queues that kernel right behind the
// check, gated on the check's device-side verdict (it returns at once unless per_segment_path
// of the true figures picks it), and waits for the check alone (src/core/segmented.cpp).
#pragma once

#include <cstdint>

#include "parprim/cuda/tuning/segment_blocks_tuning.hpp"
#include "parprim/cuda/tuning/segment_warps_tuning.hpp"
#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::cuda_tuning {

// neither: the chunked reduce or the two-pass runs engine (the host picks between them). It is
// 0, the value of freshly zeroed verdict words, so that no gate opens on words never written.
enum class segment_path { neither = 0, warps = 1, blocks = 2 };

// The rule, in the order the paths are tried: one warp per segment (averaging 32-1023
// elements, none long), else one block per segment (averaging 256 or more, none over 65536).
// covered: the elements the offsets span (offsets[S] - offsets[0]); longest: the most elements
// one segment holds.
PARPRIM_HD constexpr segment_path per_segment_path(std::int64_t covered, std::int64_t segments,
                                                   std::int64_t longest) {
  return segment_warps_tuning::chosen(covered, segments, longest)    ? segment_path::warps
         : segment_blocks_tuning::chosen(covered, segments, longest) ? segment_path::blocks
                                                                     : segment_path::neither;
}

// The host's guess before the verdict: segments of equal length covering the whole input
// (covered = n, longest = n / segments), the common case and the benchmarks' (segments of 32,
// 256, 4096 guess right; segments of 1, the power-law mix averaging about 11 and one segment
// holding everything guess neither).
PARPRIM_HD constexpr segment_path guessed_path(std::int64_t n, std::int64_t segments) {
  return segments > 0 ? per_segment_path(n, segments, n / segments) : segment_path::neither;
}

struct segment_paths_tuning {
  // A gated grid the verdict turns away still costs its blocks' launches: 2^26 elements in
  // segments of 256 queued one block per segment behind the check (262,144 blocks, each
  // reading the verdict and leaving) added about 0.2 ms on the H100, about 0.78 ns a block.
  // So the guess is queued only where its grid holds at most this many blocks (a wrong guess
  // then costs at most about 25 us): segments of 4096 (16,384 blocks) and of 256 (32,768
  // blocks of 8 warps) at 2^26 elements are; segments of 32 (262,144 blocks) wait for the
  // verdict as before, their call (0.64 ms) gaining least from it. The kernels keep one block
  // or warp per segment: looping over segments with a grid of resident blocks would bound
  // the cost for any count, but took 48 registers instead of 28 (block kernel, f32, ptxas
  // sm_90) and 57 instead of 40 (warp kernel), 5 and 4 blocks per SM instead of 8 and 6.
  static constexpr std::int64_t max_gated_blocks = std::int64_t(1) << 15;
};

// What segmented_reduce queues behind the offsets check before it knows the verdict: the
// guess, where its gated grid is small enough (segment_paths_tuning::max_gated_blocks).
PARPRIM_HD constexpr segment_path speculated_path(std::int64_t n, std::int64_t segments) {
  const segment_path guess = guessed_path(n, segments);
  const std::int64_t per_block =
      guess == segment_path::warps ? segment_warps_tuning::warps_per_block : 1;
  const std::int64_t blocks = segments / per_block + (segments % per_block != 0 ? 1 : 0);
  return blocks <= segment_paths_tuning::max_gated_blocks ? guess : segment_path::neither;
}

// Whether the kernel queued on a guess did the work: it ran (a guess was queued) and the
// verdict's path is the same, so nothing is left to launch.
PARPRIM_HD constexpr bool guess_confirmed(segment_path guess, std::int64_t covered,
                                          std::int64_t segments, std::int64_t longest) {
  return guess != segment_path::neither && per_segment_path(covered, segments, longest) == guess;
}

// The offsets check's verdict (src/cuda/kernels/segmented.cu), 64-bit words. The check kernel
// gathers it in `scratch_words` words (bad, first, last, longest, finished_blocks); the last
// block to finish writes `published` words (bad, first, last, longest, path) to the device
// copy the gates read and to pinned host memory the host reads, and zeroes the scratch for
// the next check. `path` is per_segment_path of the verdict (neither where an offset is bad),
// decided once there so that each gated block or warp reads one word instead of dividing.
struct offsets_verdict_words {
  static constexpr int bad = 0;      // ~(lowest bad index), or 0 when every offset is good
  static constexpr int first = 1;    // offsets[0]
  static constexpr int last = 2;     // offsets[segments]
  static constexpr int longest = 3;  // the longest segment's length (meaningless when bad)
  static constexpr int finished_blocks = 4;  // scratch only
  static constexpr int path = 4;             // published only: a segment_path
  static constexpr int scratch_words = 5;
  static constexpr int published = 5;
  static constexpr int device_words = scratch_words + published;  // scratch, then published
};

}  // namespace parprim::cuda_tuning
