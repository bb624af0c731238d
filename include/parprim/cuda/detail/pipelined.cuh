// What the warp-specialized (pipelined) kernels share: the ring of shared-memory stages (each
// with the mbarriers full, reduced, prefixed and freed, and the id of the tile it holds), the
// load warp's loop, the named barrier of one squad of warps, and the host's launch, which
// checks that a kernel built for sm_90 can have its shared memory on a device. The kernels:
// the scan (detail/scan_pipelined.cuh) and the scans and reductions by key
// (by_key_pipelined.cuh); their storages have members full, reduced, prefixed, freed and
// tile_id, one per stage.
#pragma once

#include <cuda_runtime.h>

#include <atomic>

#include "parprim/context.hpp"
#include "parprim/cuda/detail/bulk_copy.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/warp_shuffle.cuh"

namespace parprim::cuda_kernels {

// Threads of a pipelined block whose squads have Shape::threads threads: two squads, the load
// warp, the look-back warp.
template <class Shape>
inline constexpr int pipelined_threads = 2 * Shape::threads + 2 * cuda_prim::warp_size;
// Arrivals that free a stage: both squads and the look-back warp.
template <class Shape>
inline constexpr int freed_arrivals = 2 * Shape::threads + cuda_prim::warp_size;

// One thread sets up every stage's barriers (then a barrier of the block): full completes
// with the load warp's arrival and its bytes, freed with every thread that reads the stage.
template <int Stages, class Storage>
__device__ __forceinline__ void init_stages(Storage& s, unsigned reduced_arrivals,
                                            unsigned freeing_threads) {
  using namespace cuda_prim;
  for (int i = 0; i < Stages; ++i) {
    mbarrier_init(&s.full[i], 1);
    mbarrier_init(&s.reduced[i], reduced_arrivals);
    mbarrier_init(&s.prefixed[i], 1);
    mbarrier_init(&s.freed[i], freeing_threads);
  }
  fence_mbarrier_init();
}

// Pass `it` of a role that reads the stages: stage it % Stages in round it / Stages, whose
// parity is the barriers' phase; returned once the stage's bytes are in, with its tile (-1:
// no tiles left, every role stops there).
struct stage_pass {
  int stage;
  unsigned parity;
  int tile;
};
template <int Stages, class Storage>
__device__ __forceinline__ stage_pass wait_for_stage(Storage& s, int it) {
  const int st = it % Stages;
  const unsigned parity = (it / Stages) & 1;
  cuda_prim::mbarrier_wait_parity(&s.full[st], parity);
  return {st, parity, s.tile_id[st]};
}

// The bytes of `count` elements of T that one bulk copy moves (whole 16-byte units), after the
// elements past them are copied by this thread.
template <class T>
__device__ __forceinline__ unsigned stage_elements(T* stage, const T* src, int count) {
  const unsigned bulk = unsigned(count * sizeof(T)) & ~(cuda_prim::bulk_copy_align - 1);
  for (int e = int(bulk / sizeof(T)); e < count; ++e) stage[e] = src[e];
  return bulk;
}

// The load warp (lane 0 works): claims tile ids from the counter in order and, once a stage is
// free, has fill(stage, tile) bring the tile in and complete the stage's full barrier (its
// one arrival, with the bytes of its bulk copies); past the last tile it marks the stage -1.
template <int Stages, class Storage, class Fill>
__device__ __forceinline__ void load_stages(Storage& s, int* tile_counter, int num_tiles,
                                            Fill fill) {
  using namespace cuda_prim;
  if (lane_id() != 0) return;
  for (int it = 0;; ++it) {
    const int st = it % Stages;
    if (it >= Stages) mbarrier_wait_parity(&s.freed[st], (it / Stages - 1) & 1);
    const int tile = atomicAdd(tile_counter, 1);
    if (tile >= num_tiles) {
      s.tile_id[st] = -1;
      mbarrier_arrive(&s.full[st]);
      return;
    }
    s.tile_id[st] = tile;
    fill(st, tile);
  }
}

// Barrier `id` (1-15; 0 is __syncthreads') for the `threads` threads of one squad: the other
// roles of the block go on.
__device__ __forceinline__ void squad_barrier(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Launches `Kernel` (a pipelined kernel taking its arguments by value) with `blocks` blocks of
// `threads` and `bytes` of dynamic shared memory, and returns true; or returns false without
// launching when its build predates sm_90 or the device cannot give a block that much. The
// answer is kept per device and kernel (the kernel is the template argument: keyed by its
// type, the scan by key and the reduction by key, whose kernels share a signature, shared one
// answer, and the second launched without its shared-memory attribute set:
// cudaErrorInvalidValue on the H100); a refused size is an answer, not an error.
template <auto Kernel, class Args>
bool launch_if_usable(const context& ctx, int blocks, int threads, int bytes, const Args& args,
                      const char* who) {
  constexpr int max_devices = 64;
  static std::atomic<signed char> usable[max_devices] = {};  // 0 unknown, 1 yes, -1 no
  const int device = ctx.device();
  signed char known = device < max_devices ? usable[device].load() : 0;
  if (known == 0) {
    cudaFuncAttributes attributes{};
    PARPRIM_CUDA_CHECK(ctx.name(), who, cudaFuncGetAttributes(&attributes, Kernel));
    known = -1;
    if (attributes.binaryVersion >= 90) {
      if (cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) ==
          cudaSuccess)
        known = 1;
      else
        cudaGetLastError();
    }
    if (device < max_devices) usable[device].store(known);
  }
  if (known < 0) return false;
  Kernel<<<blocks, threads, bytes, stream_of(ctx)>>>(args);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  return true;
}

}  // namespace parprim::cuda_kernels
