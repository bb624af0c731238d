// Launch shapes of merge and the vectorized binary search. Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

struct merge_tuning {
  static constexpr int threads = 256;
  static constexpr int items = 8;  // outputs per thread: 2048-element tiles staged in shared memory
  static constexpr int tile = threads * items;
  static constexpr int partition_threads = 256;
};

struct search_tuning {
  static constexpr int threads = 256;
};

}  // namespace parprim::cuda_tuning
