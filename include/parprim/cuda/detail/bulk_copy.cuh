// Hopper (sm_90) bulk asynchronous copies from global to shared memory, completed through an
// mbarrier in shared memory (PTX ISA 8.0: cp.async.bulk, mbarrier.*.expect_tx / complete_tx).
//
// One thread issues a whole contiguous copy with a single instruction; the copy engine (TMA)
// moves the bytes while the issuing warp and every other warp of the block go on, and holds no
// registers for the data in flight. Completion is counted in bytes on the mbarrier:
//   one thread:     mbarrier_init(bar, 1); fence_mbarrier_init(); then a barrier of the block
//   one thread:     mbarrier_arrive_expect_tx(bar, bytes);
//                   bulk_copy_to_shared(dst, src, bytes, bar)
//   reader threads: mbarrier_wait_parity(bar, phase & 1), then read dst
// Each arrive/copy pair completes one phase of the barrier (phases 0, 1, 0, ...).
//
// Rules the caller keeps (otherwise the copy faults or is undefined): `dst` and `src` 16-byte
// aligned, `bytes` a positive multiple of 16 and below 2^20 (the mbarrier's transaction count).
#pragma once

#include <cstdint>

namespace parprim::cuda_prim {

inline constexpr unsigned bulk_copy_align = 16;
inline constexpr unsigned bulk_copy_max_bytes = (1u << 20) - 1;

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Sets up the mbarrier at `bar` (8 bytes of shared memory) expecting `arrivals` arrivals per
// phase. Call from one thread, then fence_mbarrier_init, then a barrier of the block.
__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrivals)
               : "memory");
}

// Makes the initialized mbarrier visible to the async proxy, which completes the copies' bytes
// on it.
__device__ __forceinline__ void fence_mbarrier_init() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// One arrival on `bar`, and `bytes` more bytes to arrive before the current phase completes.
__device__ __forceinline__ void mbarrier_arrive_expect_tx(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)),
               "r"(bytes)
               : "memory");
}

// One arrival on `bar` (no bytes).
__device__ __forceinline__ void mbarrier_arrive(std::uint64_t* bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar)) : "memory");
}

// dst[0, bytes) = src[0, bytes), asynchronously; the bytes count toward `bar`'s current phase.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes,
                                                    std::uint64_t* bar) {
  const std::uint64_t global = __cvta_generic_to_global(src);
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
      :
      : "r"(shared_address(dst)), "l"(global), "r"(bytes), "r"(shared_address(bar))
      : "memory");
}

// True once the phase of parity `parity` (0 or 1) of `bar` has completed; the copies counted on
// it are then visible to this thread. May also return false after a time-out of the hardware.
__device__ __forceinline__ bool mbarrier_try_wait_parity(std::uint64_t* bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
      "selp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(done)
      : "r"(shared_address(bar)), "r"(parity)
      : "memory");
  return done != 0;
}

__device__ __forceinline__ void mbarrier_wait_parity(std::uint64_t* bar, unsigned parity) {
  while (!mbarrier_try_wait_parity(bar, parity)) {
  }
}

}  // namespace parprim::cuda_prim
