// Launch shape of the transform kernels (Hopper, sm_90). Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

struct transform_tuning {
  // 16-byte vectors per thread per grid-stride step: two independent loads per input keep
  // enough bytes in flight with a moderate grid.
  static constexpr int threads = 256;
  static constexpr int vectors_per_thread = 2;
  // Grid cap: beyond this the grid-stride loop takes over (about 16 waves of 256-thread
  // blocks on a 132-SM part; more blocks only add scheduling work).
  static constexpr int max_blocks = 16384;
};

}  // namespace parprim::cuda_tuning
