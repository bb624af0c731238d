// Launch shapes of the runs engine (by-key, unique, run-length, segmented; runs.cuh).
// Plain constants, no CUDA headers.
#pragma once

namespace parprim::cuda_tuning {

struct runs_tuning {
  static constexpr int threads = 256;
  // Elements per thread. Odd, so that reading a thread's consecutive elements out of shared
  // memory (stride `items` words between lanes) hits 32 different banks.
  static constexpr int items = 9;
  static constexpr int tile = threads * items;
  // The single-block scan of the tile states: 8192 tile states per round, so 2^28 elements
  // (116,509 tiles) take 15 rounds.
  static constexpr int scan_threads = 1024;
  static constexpr int scan_items = 8;
};

}  // namespace parprim::cuda_tuning
