// Launch shapes of the dot product kernels (src/cuda/kernels/dot.cu).
#pragma once

namespace parprim::cuda_tuning {

struct dot_shared_memory {
  // The course's kernel: one product per thread, a power-of-two block for the tree.
  static constexpr int threads = 256;
};

struct dot_production {
  static constexpr int threads = 256;
  // 16-byte loads of x and y in flight per thread per loop trip (one accumulator each).
  static constexpr int unroll = 4;
  // Pass 1 grid: at most this many blocks. A constant (not the SM count) so that the summing
  // order, and with it the float result, depends on n alone. 1024 blocks of 256 threads are
  // resident at once on an H100 (132 SMs x 8 blocks), so the grid is a single wave.
  static constexpr int max_blocks = 1024;
  // Pass 2: one block folds the per-block partial sums.
  static constexpr int final_threads = 1024;
};

}  // namespace parprim::cuda_tuning
