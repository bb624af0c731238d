// Helpers shared by the kernel files: the context's stream, the current device, integer
// division rounding up, and programmatic dependent launch (a kernel's blocks start while the
// kernel before it in the stream is still finishing).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

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

// Programmatic dependent launch (sm_90). A kernel launched by launch_chained may start before
// the kernel ahead of it in the stream has finished: once every block of that kernel has
// called allow_chained_launch() (or exited), its blocks take the SMs as they free up and
// stop in wait_for_previous_kernel() until the previous kernel has finished and its writes
// are visible. Everything a chained kernel reads that an earlier launch wrote must come
// after that wait; what it reads that no launch since the last ordinary one writes (the
// caller's input) may come before. Without the launch attribute, or below sm_90, both calls
// do nothing.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void allow_chained_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Launches kernel<<<grid, threads, shared_bytes, stream>>>(args...), chained behind the
// previous launch in the stream when `chained` (programmatic stream serialization). The
// launch's own error is returned, for PARPRIM_CUDA_CHECK.
template <class... Params, class... Args>
cudaError_t launch_chained(bool chained, void (*kernel)(Params...), unsigned grid, unsigned threads,
                           std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = chained ? 1 : 0;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

}  // namespace parprim::cuda_kernels
