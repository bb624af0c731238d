// The multi-pass scatter's scheme and the calibration of its cost model (Hopper, sm_90).
// Plain constants, no CUDA headers. Included by gather_scatter.cu only, so that trying another
// value rebuilds one file.
#pragma once

namespace parprim::cuda_tuning {

struct multi_pass_scatter_tuning {
  // The scheme behind scatter_algorithm::multi_pass with k > 1 passes.
  //  false: k sweeps (He et al.): sweep p streams every index, and the values whose index
  //         lies in slice p, and writes those into slice p. Sequential traffic grows as k.
  //  true:  binned: one counting sweep over the indices (elements per slice), one binning
  //         sweep that copies the (index, value) pairs into one run per slice (block-local
  //         partition in shared memory, coalesced stores), then one scatter over the binned
  //         pairs, which writes slice after slice. Sequential traffic is about 4 |L| + 3 |R|
  //         for any k, so k can grow until a slice sits comfortably in L2; the price is a
  //         temporary copy of the pairs (n * (index + value) bytes; without that memory the
  //         scatter falls back to k sweeps).
  static constexpr bool binned = true;

  // How the cost model's B_rand(S) is measured.
  //  0: a synthetic kernel writes every element of S-byte regions once in random order,
  //     region after region (the seed's "random bandwidth of different degrees").
  //  1: the scatter itself (the compiled scheme) is timed on a calibration permutation whose
  //     output is calibration_out_bytes, for several k; B_rand(out / k) is the rate that makes
  //     the model's T(k) equal the measured time. This folds everything the real kernels do
  //     (L2 pollution by the streamed input, partial sectors, launch gaps) into B_rand.
  static constexpr int calibration = 1;

  // Output size of calibration 1 (bytes; the scratch holds values, indices and output, and
  // is halved until it fits). Slices of 4 MiB .. 256 MiB with k = 1 .. 64.
  static constexpr long long calibration_out_bytes = 256ll << 20;
};

}  // namespace parprim::cuda_tuning
