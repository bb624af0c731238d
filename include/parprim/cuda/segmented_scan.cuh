// The CUDA body of the segmented scans (nvcc only), for any value type and associative
// operator: the single-pass by-key scan (parprim/cuda/by_key.cuh, decoupled look-back; from 128
// tiles on its pipelined kernel, by_key_pipelined.cuh) with u8 head flags as the keys. By flags, the caller's flags are the keys; by offsets, the flags
// that the offsets check marked as it read the offsets (detail::scan_heads in
// parprim/detail/segmented.hpp, src/cuda/kernels/segmented.cu). The precompiled entry points
// (src/cuda/kernels/segmented.cu with by_key.cu's scan_by_heads) and the generic ones
// (parprim/cuda/segmented.cuh) both run it.
//
// Why this and not the two-pass runs engine (parprim/cuda/segmented.cuh, which keeps
// segmented_reduce's general path): on the H100, 2^26 f32 plus, the runs engine (fold pass,
// scan of the 24-byte tile states, write pass) took 0.68-0.83 ms for every segment shape
// (segments of 1, 32, 256, 4096, power law, one segment) where CUB's InclusiveSumByKey over
// u32 segment ids takes 0.317 ms and our by-key scan 0.35 ms on u32 keys: one pass reads each
// value once and writes it once, and 1-byte flags cost less traffic than 4-byte keys. A
// caller's functor ran the runs engine until 2026-11-24, at 0.52-0.61x the precompiled
// scans (bench/results/2026-11-23-h100-night-generic-2e26.json).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/cuda/by_key.cuh"
#include "parprim/detail/runs.hpp"
#include "parprim/detail/segmented.hpp"

namespace parprim::cuda_kernels::segmented_scan {

// The equality on head flags: b continues a's run unless b's flag is set (flags[i] != 0
// starts a segment; the kernel starts one at element 0 whatever its flag).
struct continues_segment {
  __device__ __forceinline__ bool operator()(std::uint8_t, std::uint8_t b) const {
    return b == 0;
  }
};

// The by-key scan's job for the segmented scan `job` (job.flags set), its head flags as keys.
template <class V>
parprim::detail::runs_io<std::uint8_t, V> scan_io(const parprim::detail::segments_job<V>& job) {
  parprim::detail::runs_io<std::uint8_t, V> io;
  io.n = job.n;
  io.keys = job.flags;
  io.values = job.values;
  io.values_out = job.scan_out;
  io.inclusive = job.inclusive;
  io.init = job.init;
  return io;
}

// The segmented scan `job` (job.scan_out and job.flags set, job.n > 0) with the caller's
// operator.
template <class V, class Op>
void run(const context& ctx, const parprim::detail::segments_job<V>& job, Op op, workspace* ws,
         const char* who) {
  by_key::runs<parprim::detail::runs_kind::scan>(ctx, scan_io(job), continues_segment{}, op, ws,
                                                 who);
}

}  // namespace parprim::cuda_kernels::segmented_scan
