// One description of the work behind every by-key, unique, run-length and segmented primitive:
// runs of consecutive elements, where each run starts, what is folded along it and what is
// written. Both backends run it with one engine (src/cpu/runs.hpp, src/cuda/kernels/runs.cuh):
// a fold of (head count, value since the last head, tag of the last head) per tile, a scan of
// the tile folds, and a final pass that writes.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>

#include "parprim/ops.hpp"

namespace parprim::detail {

// Where runs start. Element 0 always starts one.
//   keys:    where !(keys[i-1] == keys[i]) (IEEE: NaN != NaN, -0.0 == +0.0); tag = i
//   flags:   where flags[i] != 0; tag = i
//   offsets: at offsets[s] - offsets[0] for every non-empty segment s; tag = s
enum class head_source { keys, flags, offsets };

template <class K, class V>
struct runs_job {
  std::int64_t n = 0;
  const K* keys = nullptr;
  const std::uint8_t* flags = nullptr;
  const std::int64_t* offsets = nullptr;  // segments + 1 entries, non-decreasing
  std::int64_t segments = 0;

  const V* values = nullptr;  // nullptr: nothing is folded (unique, run_length_encode)
  op o = op::plus;
  bool has_init = false;  // the first value of every run is folded as init op v
  V init{};

  // Outputs, each optional. r is the run's index (0, 1, ...); with by_segment the reduced
  // value goes to the segment's index instead, and every empty segment gets init.
  K* keys_out = nullptr;               // [r] = keys[head of run r]
  const V* head_values_source = nullptr;
  V* head_values_out = nullptr;        // [r] = head_values_source[head of run r]
  V* reduced_out = nullptr;            // [r] = fold of run r
  std::int64_t* lengths_out = nullptr; // [r] = elements in run r
  V* scan_out = nullptr;               // [i] = fold of run up to i (inclusive) or before i
  bool inclusive = true;
  bool by_segment = false;

  // Called with the number of runs before anything is written; it throws when the outputs
  // indexed by run are too small. Null when nothing is indexed by run.
  std::function<void(std::int64_t)> check_runs;
};

}  // namespace parprim::detail
