// The CPU backend's entry point for runs jobs (src/core/runs_job.hpp), compiled for K = u32;
// returns -1, as the CUDA one does: the segmented primitives do not ask for the run count.
#pragma once

#include <cstdint>

#include "core/runs_job.hpp"
#include "parprim/context.hpp"

namespace parprim::cpu_backend {

template <class K, class V>
std::int64_t runs(const context& ctx, const detail::runs_job<K, V>& job);

}  // namespace parprim::cpu_backend
