// Checking every CUDA call and every launch. Usable from .cpp and .cu files.
//
//   PARPRIM_CUDA_CHECK(ctx_name, "reduce", cudaMemsetAsync(...));
//   kernel<<<...>>>(...); PARPRIM_LAUNCH_CHECK(state, "reduce");
//
// With PARPRIM_DEBUG_SYNC=1 in the environment every launch check also synchronizes the
// stream, so an asynchronous fault is reported by the call that caused it.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "parprim/error.hpp"

namespace parprim::detail {
struct context_state;
}

namespace parprim::cuda_rt {

[[noreturn]] void throw_cuda_error(cudaError_t e, const std::string& ctx_name, const char* who,
                                   const char* what);
bool debug_sync_enabled() noexcept;
void check_launch(detail::context_state& s, const char* who);

inline void check(cudaError_t e, const std::string& ctx_name, const char* who, const char* what) {
  if (e != cudaSuccess) throw_cuda_error(e, ctx_name, who, what);
}

}  // namespace parprim::cuda_rt

#define PARPRIM_CUDA_CHECK(ctx_name, who, call) \
  ::parprim::cuda_rt::check((call), (ctx_name), (who), #call)
#define PARPRIM_LAUNCH_CHECK(state, who) ::parprim::cuda_rt::check_launch((state), (who))
