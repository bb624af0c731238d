// Launch shape of argmin / argmax (src/cuda/kernels/extremum.cuh). Plain constants.
#pragma once

namespace parprim::cuda_tuning {

// The production reduce's shape (reduce_tuning.hpp): 256 threads with 4 16-byte loads in
// flight per step, 4 first-pass blocks per SM (528 on a 132-SM H100), at most 2048, one
// block of 1024 threads for the second pass. The answer does not depend on the grid (the
// pick rule is a total order), so unlike reduce the grid may follow the device. On the H100
// (2026-11-24, argmin at 2^22, 2^24, 2^27, f32 and f64 against CUB in the same run) 8 vectors,
// 512 threads, and 8, 16 or 32 blocks per SM were all within the bench's run-to-run spread
// (f32 0.95-0.96x, f64 0.98-1.00x CUB at 2^27 for all five; the small sizes spread by 10-90%):
// bench/results/2026-11-24-h100-extremum-shape-*.json. A probe with steadier timing (one
// program, the kernels and CUB's ArgMin on the same buffers, mean of 3 medians of 30 CUDA
// events; bench/results/2026-11-24-h100-extremum-grid-ab.txt) then told them apart; ms for
// 2 / 4 / 8 / 16 blocks per SM, CUB:
//   f32 2^24  0.0452 / 0.0376 / 0.0388 / 0.0406, CUB 0.0337 (16 -> 4: 0.83 -> 0.90x)
//   f64 2^24  0.0613 / 0.0578 / 0.0602 / 0.0602, CUB 0.0576
//   f64 2^27  0.3842 / 0.3602 / 0.3633 / 0.3731, CUB 0.3570
//   f32 2^28  0.4811 / 0.3685 / 0.3720 / 0.3690, CUB 0.3627
// Fewer blocks pay fewer block reductions and leave the second pass fewer winners; 2 per SM
// no longer keep enough loads in flight.
struct extremum_tuning {
  static constexpr int threads = 256;
  static constexpr int vectors_per_thread = 4;
  static constexpr int blocks_per_sm = 4;
  static constexpr int max_blocks = 2048;
  static constexpr int final_threads = 1024;
};

}  // namespace parprim::cuda_tuning
