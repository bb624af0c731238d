// The CUDA backend's entry point for runs jobs (src/core/runs_job.hpp), plain C++. K is u32,
// u64, f32 or f64; head sources other than keys are compiled for K = u32 only. Returns the
// number of runs (read back to the host only when the job has a check_runs).
#pragma once

#include <cstdint>

#include "core/runs_job.hpp"
#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

template <class K, class V>
std::int64_t runs(const context& ctx, const detail::runs_job<K, V>& job, workspace* ws);

// Validates segment offsets on the device: returns the first s with offsets[s+1] < offsets[s]
// or an offset outside [0, limit], or -1; also returns offsets[0] and offsets[segments].
struct offsets_verdict {
  std::int64_t bad = -1;
  std::int64_t first = 0;
  std::int64_t last = 0;
};
offsets_verdict check_offsets(const context& ctx, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t limit);

}  // namespace parprim::cuda_backend
