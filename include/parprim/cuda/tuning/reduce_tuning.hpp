// Launch shapes of the reduce kernels (Hopper, sm_90). Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

// The course kernels: one element per shared-memory slot, two slots per thread, as in the
// lecture ("each thread block takes 2*blockDim.x input elements").
struct reduce_textbook_tuning {
  static constexpr int threads = 512;
  static constexpr int items_per_block = 2 * threads;
};

// The production kernel. Each thread keeps `vectors_per_thread` 16-byte loads in flight per
// grid-stride step. The grid is a function of n only (never of the device), so the combining
// order, and therefore every float result, depends on n alone.
struct reduce_production_tuning {
  static constexpr int threads = 256;
  static constexpr int vectors_per_thread = 4;
  // Upper bound on first-pass blocks (= partials the second pass folds). About two waves of
  // 256-thread blocks on a 132-SM H100, and small enough for one second-pass block.
  static constexpr int max_blocks = 2048;
  static constexpr int final_threads = 1024;  // the second pass: one block
};

}  // namespace parprim::cuda_tuning
