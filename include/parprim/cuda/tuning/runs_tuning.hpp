// Launch shapes of the two-pass runs engine behind the segmented primitives
// (parprim/cuda/segmented.cuh), by the value size. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

template <int Bytes>
struct runs_tuning {
  static constexpr int threads = 256;
  // Elements per thread. Odd, so that reading a thread's consecutive elements out of shared
  // memory (stride `items` words between lanes) hits 32 different banks. The tile stages its
  // values, head flags and (offsets) 8-byte segment tags in static shared memory, at most
  // 48 KiB: 256 x 9 tiles take 39 KiB with 8-byte values; larger values get shorter tiles
  // (about 31 KiB at 16 bytes, 24-29 KiB at 32 and 64 bytes).
  static constexpr int items = Bytes <= 8 ? 9 : Bytes <= 16 ? 5 : Bytes <= 32 ? 3 : 1;
  static constexpr int tile = threads * items;
};

}  // namespace parprim::cuda_tuning
