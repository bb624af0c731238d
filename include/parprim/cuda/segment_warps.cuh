// segmented_reduce of short-to-medium segments, one warp per segment (nvcc only), for any
// value type and associative operator, commutative or not: the precompiled operators
// (src/cuda/kernels/segmented.cu) and the generic functors (parprim/cuda/segmented.cuh) both
// come here first when segment_warps_tuning::chosen says so (the order of the paths:
// parprim/cuda/segment_blocks.cuh).
//
// A block holds warps_per_block warps; warp w of block b reduces segment b x warps_per_block
// + w, so a block's warps read consecutive segments (and their offsets) side by side. Queued
// behind the offsets check, it is gated on the check's verdict as segment_blocks.cuh is. The
// fold order is that of one block per segment with the warp's 32 lanes as the workers
// (segment_blocks::fold_segment: in-order contiguous shares of 16-byte units after the
// unaligned head, the tail to the last lane with a share, or striped units for the library's
// reorderable operators), then the lanes' values combined in lane order by
// cuda_prim::warp_reduce_first: fixed by the offsets and the input's address modulo 16 alone,
// so float results are the same bits from run to run. No shared memory and no barrier: a
// block of 256-element segments keeps 8 segments' loads in flight where one block per segment
// kept one, and its 2^18 blocks for 2^26 elements become 2^15.
// Traffic: the input once, two offsets and one value per segment.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/warp_reduce.cuh"
#include "parprim/cuda/segment_blocks.cuh"
#include "parprim/cuda/tuning/segment_warps_tuning.hpp"
#include "parprim/detail/segmented.hpp"

namespace parprim::cuda_kernels::segment_warps {

using tuning = cuda_tuning::segment_warps_tuning;

// Whether the job goes to this kernel: a reduction by offsets whose lengths suit it.
template <class V>
bool suits(const detail::segments_job<V>& job) {
  return segment_blocks::is_offsets_reduction(job) &&
         cuda_tuning::per_segment_path(job.n, job.segments, job.longest) ==
             cuda_tuning::segment_path::warps;
}

// Warp w of block b reduces segment b x warps_per_block + w (data[offsets[s], offsets[s+1]):
// data is the element at position 0 of the offsets), when the gate lets it
// (segment_blocks::gate_open).
template <class V, class Op>
__global__ void __launch_bounds__(tuning::threads)
    reduce_kernel(const V* __restrict__ data, const std::int64_t* __restrict__ offsets,
                  std::int64_t segments, V init, Op op, V* __restrict__ out,
                  const unsigned long long* __restrict__ gate) {
  if (!segment_blocks::gate_open(gate, cuda_tuning::segment_path::warps)) return;
  const std::int64_t seg =
      std::int64_t(blockIdx.x) * tuning::warps_per_block + cuda_prim::warp_id();
  if (seg >= segments) return;  // the same for the whole warp: no shuffle is left waiting
  const int lane = cuda_prim::lane_id();
  const std::int64_t begin = offsets[seg], len = offsets[seg + 1] - begin;
  if (len == 0) {  // the same for the whole warp
    if (lane == 0) out[seg] = init;
    return;
  }
  V acc{};
  bool has = false;
  const int holders =
      segment_blocks::fold_segment<cuda_prim::warp_size>(data + begin, len, lane, op, acc, has);
  const V total = cuda_prim::warp_reduce_first(acc, op, holders);
  if (lane == 0) out[seg] = op(init, total);
}

// Stream-ordered. data: the element at position 0 of the offsets; gate: the offsets check's
// published verdict words, or null where the host picked this kernel from the verdict.
template <class V, class Op>
void launch(const context& ctx, const V* data, const std::int64_t* offsets,
            std::int64_t segments, V init, Op op, V* out, const unsigned long long* gate,
            const char* who) {
  use_device(ctx, who);
  const unsigned blocks = unsigned(ceil_div(segments, tuning::warps_per_block));
  reduce_kernel<V, Op><<<blocks, tuning::threads, 0, stream_of(ctx)>>>(data, offsets, segments,
                                                                       init, op, out, gate);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// The runs engine's entry (parprim/cuda/segmented.cuh); the caller checked suits(job).
template <class V, class Op>
void launch(const context& ctx, const detail::segments_job<V>& job, Op op, const char* who) {
  launch(ctx, job.values - job.first, job.offsets, job.segments, job.init, op, job.reduced_out,
         nullptr, who);
}

}  // namespace parprim::cuda_kernels::segment_warps
