// One description of the work behind the segmented primitives (segmented_reduce, the
// segmented scans): runs of consecutive elements given by head flags or segment offsets, what
// is folded along them and what is written. Both backends run it with one engine
// (src/cpu/runs.hpp, src/cuda/kernels/runs.cuh): a fold of (head count, value since the last
// head, tag of the last head) per tile, a scan of the tile folds, and a final pass that
// writes. (The by-key primitives run the single-pass body of parprim/cuda/by_key.cuh.)
#pragma once

#include <cstdint>

#include "parprim/ops.hpp"

namespace parprim::detail {

// Where runs start. Element 0 always starts one.
//   flags:   where flags[i] != 0; tag = i
//   offsets: at offsets[s] - offsets[0] for every non-empty segment s; tag = s
enum class head_source { flags, offsets };

// The engines do not use K: the segmented front ends spell the job runs_job<u32, V>.
template <class K, class V>
struct runs_job {
  std::int64_t n = 0;
  const std::uint8_t* flags = nullptr;
  const std::int64_t* offsets = nullptr;  // segments + 1 entries, non-decreasing
  std::int64_t segments = 0;

  const V* values = nullptr;
  op o = op::plus;
  bool has_init = false;  // the first value of every run is folded as init op v
  V init{};

  // Outputs, each optional. r is the run's index (0, 1, ...); with by_segment the reduced
  // value goes to the segment's index instead, and every empty segment gets init.
  V* reduced_out = nullptr;  // [r] = fold of run r
  V* scan_out = nullptr;     // [i] = fold of run up to i (inclusive) or before i
  bool inclusive = true;
  bool by_segment = false;
};

}  // namespace parprim::detail
