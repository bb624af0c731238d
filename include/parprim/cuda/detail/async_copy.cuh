// Asynchronous global -> shared copies (cp.async, sm_80 and later).
//
// A cp.async moves 16 bytes from global memory straight into shared memory without passing
// through registers, and the issuing thread goes on at once. Copies are grouped: commit()
// closes the group of copies issued since the last commit, and wait<N>() blocks until at most
// N of this thread's groups are still in flight. Completion is per thread: after wait<N>() the
// thread may read the bytes it copied itself; bytes copied by other threads need a barrier on
// top. Kernels use this to keep the next tile's loads in flight while they work on the current
// one, at no register cost.
#pragma once

namespace parprim::cuda_prim {

// 16 bytes from global `src` to shared `dst`, both 16-byte aligned. `.cg` caches in L2 only:
// the data is read once.
__device__ __forceinline__ void async_copy_16(void* dst, const void* src) {
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
}

// Closes the current group (an empty group is fine and keeps group counts uniform).
__device__ __forceinline__ void async_copy_commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}

// Waits until at most `Pending` of this thread's committed groups are still in flight.
template <int Pending>
__device__ __forceinline__ void async_copy_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

}  // namespace parprim::cuda_prim
