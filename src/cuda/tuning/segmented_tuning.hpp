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
  // 16-byte vectors a thread loads before folding them: 256 threads x 8 x 16 B load a whole
  // chunk of 4-byte elements (half of one of 8-byte ones) in one round. With 8 scalar loads
  // per thread (64 registers, 4 blocks per SM) a chunk took 4 rounds, each waiting out the
  // memory latency, and the kernel streamed 2^26 f32 at 1921 GB/s in segments of 4096 and
  // 1946 GB/s as one segment on the H100, where CUB's segmented reduce (16-byte vector
  // loads, one round per 4096-element segment) streamed 2914 GB/s.
  static constexpr int unroll = 8;
  // Resident blocks per SM the compiler must allow (__launch_bounds__), by element size. Left
  // free, ptxas (sm_90) took 104 registers for f32 with the vectors above (2 blocks per SM);
  // capped at 80 (3 blocks) it spills nothing, and 256 x 3 x 128 B = 96 KiB are in flight per
  // SM. 8-byte elements took 112-118 registers and spilled 16-24 bytes under the same cap, so
  // they keep 2 blocks (64 KiB in flight per SM).
  static constexpr int min_blocks_per_sm(int element_bytes) { return element_bytes <= 4 ? 3 : 2; }
  // Segments of at most this many elements inside a chunk are folded by one thread; longer
  // ones and pieces of segments that cross a chunk edge by the whole block.
  static constexpr int thread_max = 32;
  // The chunked kernel runs when segments average at least this many elements and do not
  // suit one block per segment (segment_blocks_tuning::chosen: a segment over 65536 elements
  // or one too long for n); shorter ones go to the runs engine, which tiles elements and
  // segment heads together (the chunked kernel would spend a block reduction on each).
  static constexpr std::int64_t min_average = 1024;
};

}  // namespace parprim::cuda_tuning
