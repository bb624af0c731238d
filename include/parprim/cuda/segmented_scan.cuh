// The CUDA body of the segmented scans (nvcc only), for any value type and associative
// operator: the single-pass by-key scan (parprim/cuda/by_key.cuh, decoupled look-back) with
// u8 head flags as the keys. By flags, the caller's flags are the keys; by offsets, the flags
// of the covered range are built first (a memset and one small kernel, no host
// synchronization: the offsets were checked). The precompiled entry points
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

#include <algorithm>
#include <cstdint>

#include "parprim/cuda/by_key.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/detail/runs.hpp"
#include "parprim/detail/segmented.hpp"
#include "parprim/detail/temp_memory.hpp"

namespace parprim::cuda_kernels::segmented_scan {

// The equality on head flags: b continues a's run unless b's flag is set (flags[i] != 0
// starts a segment; the kernel starts one at element 0 whatever its flag).
struct continues_segment {
  __device__ __forceinline__ bool operator()(std::uint8_t, std::uint8_t b) const {
    return b == 0;
  }
};

// The head flags from checked offsets: flags[offsets[s] - offsets[0]] = 1 for every non-empty
// segment s (flags zeroed before; several empty segments may share a start, so only non-empty
// ones mark it). Grid-stride over the segments; 32 blocks of 256 threads per SM fill it.
constexpr int mark_threads = 256;
constexpr int mark_blocks_per_sm = 32;
template <int Threads>
__global__ void __launch_bounds__(Threads)
    mark_segment_heads_kernel(const std::int64_t* offsets, std::int64_t segments,
                              std::uint8_t* flags) {
  const std::int64_t first = offsets[0];
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t s = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; s < segments;
       s += stride) {
    const std::int64_t start = offsets[s];
    if (offsets[s + 1] > start) flags[start - first] = 1;
  }
}

// Calls scan(heads, scan_ws) with the job's head flags: the caller's, or flags built from
// its offsets in workspace memory (the scan's own scratch then comes from the context's
// caching allocator, scan_ws null: a workspace hands out one block per call). job.n > 0.
template <class V, class Scan>
void with_head_flags(const context& ctx, const parprim::detail::segments_job<V>& job,
                     workspace* ws, const char* who, Scan scan) {
  if (job.flags) return scan(job.flags, ws);
  use_device(ctx, who);
  const cudaStream_t stream = stream_of(ctx);
  parprim::detail::temp_memory flags(ctx, ws, parprim::detail::align_up(std::size_t(job.n)));
  auto* heads = flags.as<std::uint8_t>();
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(heads, 0, std::size_t(job.n), stream));
  const auto blocks = std::min<std::int64_t>(
      ceil_div(job.segments, mark_threads), std::int64_t(ctx.multiprocessors()) * mark_blocks_per_sm);
  mark_segment_heads_kernel<mark_threads><<<unsigned(blocks), mark_threads, 0, stream>>>(
      job.offsets, job.segments, heads);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  scan(static_cast<const std::uint8_t*>(heads), static_cast<workspace*>(nullptr));
}

// The by-key scan's job for the segmented scan `job`, its keys still to be set.
template <class V>
parprim::detail::runs_io<std::uint8_t, V> scan_io(const parprim::detail::segments_job<V>& job) {
  parprim::detail::runs_io<std::uint8_t, V> io;
  io.n = job.n;
  io.values = job.values;
  io.values_out = job.scan_out;
  io.inclusive = job.inclusive;
  io.init = job.init;
  return io;
}

// The segmented scan `job` (job.scan_out set, job.n > 0) with the caller's operator.
template <class V, class Op>
void run(const context& ctx, const parprim::detail::segments_job<V>& job, Op op, workspace* ws,
         const char* who) {
  auto io = scan_io(job);
  with_head_flags(ctx, job, ws, who, [&](const std::uint8_t* heads, workspace* scan_ws) {
    io.keys = heads;
    by_key::runs<parprim::detail::runs_kind::scan>(ctx, io, continues_segment{}, op, scan_ws,
                                                   who);
  });
}

}  // namespace parprim::cuda_kernels::segmented_scan
