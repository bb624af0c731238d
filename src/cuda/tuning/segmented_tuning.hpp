// Launch shapes of the chunked segmented_reduce (kernels/segmented_reduce.cuh). Plain
// constants, no CUDA headers.
#pragma once

#include <cstdint>

namespace parprim::cuda_tuning {

struct segmented_reduce_tuning {
  static constexpr int threads = 256;
  // Elements per block: 32 per thread. A chunk holds few pieces when segments are long, and
  // 2^26 elements give 8192 blocks, several waves on 132 SMs.
  static constexpr int chunk = 8192;
  // Loads a thread issues before folding them in order: 8 x 4 B in flight per thread keeps
  // 64 KiB in flight per SM at 8 blocks, well above what HBM3 latency x bandwidth per SM needs.
  static constexpr int unroll = 8;
  // Segments of at most this many elements inside a chunk are folded by one thread; longer
  // ones and pieces of segments that cross a chunk edge by the whole block.
  static constexpr int thread_max = 32;
  // The chunked kernel runs when segments average at least this many elements; shorter ones
  // go to the runs engine, which tiles elements and segment heads together (the chunked
  // kernel would spend a block reduction on each medium segment).
  static constexpr std::int64_t min_average = 1024;
};

}  // namespace parprim::cuda_tuning
