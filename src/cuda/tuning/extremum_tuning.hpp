// Launch shape of argmin / argmax (src/cuda/kernels/extremum.cuh). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

// The production reduce's shape (reduce_tuning.hpp): 256 threads with 4 16-byte loads in
// flight per step, at most 2048 first-pass blocks (about two waves on a 132-SM H100), one
// block of 1024 threads for the second pass. The answer does not depend on the grid (the
// pick rule is a total order), so unlike reduce the grid may follow the device.
struct extremum_tuning {
  static constexpr int threads = 256;
  static constexpr int vectors_per_thread = 4;
  static constexpr int max_blocks = 2048;
  static constexpr int final_threads = 1024;
};

}  // namespace parprim::cuda_tuning
