// The segmented primitives' dispatch of a runs_job to a backend (segmented.cpp), and the
// workspace check they share with the by-key front ends.
#pragma once

#include <cstdint>

#include "core/runs_job.hpp"
#include "parprim/detail/runs_front.hpp"
#include "cpu/runs_backend.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runs_backend.hpp"
#endif

namespace parprim::detail {

// Runs the job on ctx's backend (the segmented primitives do not ask for the run count).
template <class K, class V>
void run_job(const context& ctx, const runs_job<K, V>& job, workspace* ws) {
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::runs(ctx, job, ws);
#endif
  (void)ws;
  cpu_backend::runs(ctx, job);
}

}  // namespace parprim::detail
