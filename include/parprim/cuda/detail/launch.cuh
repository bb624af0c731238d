// Host-side helpers shared by the kernel files: the context's stream, the current device,
// integer division rounding up.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/cuda/detail/check.hpp"
#include "parprim/context.hpp"

namespace parprim::cuda_kernels {

inline cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

// Kernels launch on the calling thread's current device: make it the context's.
inline void use_device(const context& ctx, const char* who) {
  int current = -1;
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaGetDevice(&current));
  if (current != ctx.device()) PARPRIM_CUDA_CHECK(ctx.name(), who, cudaSetDevice(ctx.device()));
}

constexpr std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

}  // namespace parprim::cuda_kernels
