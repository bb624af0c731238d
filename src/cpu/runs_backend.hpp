// The CPU backend's entry point for runs jobs (src/core/runs_job.hpp), compiled for K = u32.
#pragma once

#include <cstdint>

#include "core/runs_job.hpp"
#include "parprim/context.hpp"

namespace parprim::cpu_backend {

template <class K, class V>
void runs(const context& ctx, const detail::runs_job<K, V>& job);

}  // namespace parprim::cpu_backend
