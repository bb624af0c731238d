// Launch shape of argmin / argmax (src/cuda/kernels/extremum.cuh). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

// The production reduce's shape (reduce_tuning.hpp): 256 threads with 4 16-byte loads in
// flight per step, at most 2048 first-pass blocks (about two waves on a 132-SM H100), one
// block of 1024 threads for the second pass. The answer does not depend on the grid (the
// pick rule is a total order), so unlike reduce the grid may follow the device. On the H100
// (2026-11-24, argmin at 2^22, 2^24, 2^27, f32 and f64 against CUB in the same run) 8 vectors,
// 8 blocks per SM, 512 threads, and 32 blocks per SM up to 4096 were all within the run-to-run
// spread of this shape (f32 0.95-0.96x, f64 0.98-1.00x CUB at 2^27 for all five; the small
// sizes spread by 10-90%): bench/results/2026-11-24-h100-extremum-shape-*.json.
struct extremum_tuning {
  static constexpr int threads = 256;
  static constexpr int vectors_per_thread = 4;
  static constexpr int blocks_per_sm = 16;
  static constexpr int max_blocks = 2048;
  static constexpr int final_threads = 1024;
};

}  // namespace parprim::cuda_tuning
