// What the warp-specialized (pipelined) kernels share: the named barrier of one squad of warps,
// and the host's check that a kernel built for sm_90 can have its shared memory on a device.
// The kernels: the scan (detail/scan_pipelined.cuh) and the scans by key (by_key_pipelined.cuh).
#pragma once

#include <cuda_runtime.h>

#include <atomic>

#include "parprim/context.hpp"
#include "parprim/cuda/detail/launch.cuh"

namespace parprim::cuda_kernels {

// Barrier `id` (1-15; 0 is __syncthreads') for the `threads` threads of one squad: the other
// roles of the block go on.
__device__ __forceinline__ void squad_barrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Whether `kernel` (one instantiation) may be launched on ctx's device with `bytes` of dynamic
// shared memory: its build is for sm_90 or later and the device gives a block that much. The
// answer is kept per device and kernel; a refused size is an answer, not an error.
template <class Kernel>
bool pipelined_kernel_usable(const context& ctx, Kernel kernel, int bytes, const char* who) {
  constexpr int max_devices = 64;
  static std::atomic<signed char> usable[max_devices] = {};  // 0 unknown, 1 yes, -1 no
  const int device = ctx.device();
  signed char known = device < max_devices ? usable[device].load() : 0;
  if (known == 0) {
    cudaFuncAttributes attributes{};
    PARPRIM_CUDA_CHECK(ctx.name(), who, cudaFuncGetAttributes(&attributes, kernel));
    known = -1;
    if (attributes.binaryVersion >= 90) {
      if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) ==
          cudaSuccess)
        known = 1;
      else
        cudaGetLastError();
    }
    if (device < max_devices) usable[device].store(known);
  }
  return known > 0;
}

}  // namespace parprim::cuda_kernels
