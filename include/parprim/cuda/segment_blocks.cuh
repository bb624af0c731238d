// segmented_reduce of medium segments, one block per segment (nvcc only), for any value type
// and associative operator, commutative or not: the precompiled operators
// (src/cuda/kernels/segmented.cu) and the generic functors (parprim/cuda/segmented.cuh) both
// come here when segment_blocks_tuning::chosen says so. The segmented_reduce paths on CUDA,
// tried in this order: short-to-medium segments (averaging 32-1023 elements, none long) one
// warp per segment (parprim/cuda/segment_warps.cuh, which shares this file's fold_segment);
// medium ones (averaging 256 or more, none over 65536) one block per segment (this file);
// other segments averaging 1024 or more the chunked reduce (precompiled operators only:
// src/cuda/kernels/segmented_reduce.cuh); everything else the two-pass runs engine.
//
// Fold order of segment [a, b) of length L by W workers (a block's threads here, a warp's
// lanes in segment_warps.cuh), fixed by the offsets and by the address of in[a] modulo 16
// bytes, never by timing: float results are the same bits from run to run:
//   - where 16 bytes hold whole values and in[a]'s address is a multiple of the value size
//     modulo 16, the segment splits into head (the values before the first 16-byte boundary),
//     body (whole 16-byte units) and tail (the rest); otherwise every value is a unit of its
//     own and there is no head or tail;
//   - the U body units are cut into W contiguous, in-order shares (the first U mod W shares
//     hold one unit more); worker t folds, left to right, the head (t = 0), its share, and
//     the tail (the last worker with a share, or worker 0 when U = 0), loading
//     units_in_flight 16-byte units with vector loads before folding them, element by element;
//     (commutative operators take the units striped instead: fold_part);
//   - the workers' values are combined in worker order (cuda_prim::block_reduce_first, or
//     cuda_prim::warp_reduce_first) and out[s] = init op total; an empty segment gets init.
// So a worker's loads are contiguous runs (one 16-byte unit each, coalesced through L1 as in
// CUB's vectorized blocked loads) and every combine keeps element order.
// Traffic: the input once, two offsets and one value per segment.
//
// Behind the offsets check: segmented_reduce may queue this kernel before the host knows the
// check's verdict (src/core/segmented.cpp); every block then reads the verdict first
// (gate_open) and leaves without writing unless it picks this kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/cuda/detail/block_reduce.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/tuning/segment_blocks_tuning.hpp"
#include "parprim/cuda/tuning/segment_paths.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/segmented.hpp"

namespace parprim::cuda_kernels::segment_blocks {

using tuning = cuda_tuning::segment_blocks_tuning;
inline constexpr int threads = tuning::threads;

// A segmented_reduce by offsets with init (what the block and warp kernels serve), not a scan.
template <class V>
bool is_offsets_reduction(const detail::segments_job<V>& job) {
  return job.offsets && job.by_segment && job.reduced_out && !job.scan_out && job.has_init;
}

// Whether the job goes to this kernel: a reduction by offsets whose lengths suit it.
template <class V>
bool suits(const detail::segments_job<V>& job) {
  return is_offsets_reduction(job) &&
         cuda_tuning::per_segment_path(job.n, job.segments, job.longest) ==
             cuda_tuning::segment_path::blocks;
}

template <class V, class Op>
__device__ __forceinline__ void fold_into(V& acc, bool& has, const V& x, Op op) {
  acc = has ? op(acc, x) : x;
  has = true;
}

// One unit: a 16-byte vector (Vector) or one value.
template <bool Vector, class V>
inline constexpr int per_unit = Vector ? cuda_prim::unit_size<V> : 1;

template <bool Vector, class V>
__device__ __forceinline__ void load_one(V (&x)[per_unit<Vector, V>], const V* p) {
  if constexpr (Vector) cuda_prim::load_unit(x, p);
  else x[0] = *p;
}

// Folds units begin, begin + stride, ... (below end) of body into acc, in that order;
// units_in_flight are loaded before any is folded, so each thread has that many loads
// outstanding.
template <bool Vector, class V, class Op>
__device__ __forceinline__ void fold_units(const V* __restrict__ body, std::int64_t begin,
                                           std::int64_t end, std::int64_t stride, Op op, V& acc,
                                           bool& has) {
  constexpr int flight = tuning::units_in_flight;
  constexpr int per = per_unit<Vector, V>;
#pragma unroll 1
  for (std::int64_t j = begin; j < end; j += flight * stride) {
    V x[flight][per];
#pragma unroll
    for (int u = 0; u < flight; ++u)
      if (j + u * stride < end) load_one<Vector>(x[u], body + (j + u * stride) * per);
#pragma unroll
    for (int u = 0; u < flight; ++u) {
      if (j + u * stride < end) {
#pragma unroll
        for (int k = 0; k < per; ++k) fold_into(acc, has, x[u][k], op);
      }
    }
  }
}

// Worker t's part (of `Workers`: a block's threads, or a warp's lanes) of the segment
// p[0, len) (see the top of the file); `head` values come before the first unit. Returns how
// many workers, from worker 0 on, hold a value.
// Commutative operators (marked by parprim::is_commutative: the library's plus/min/max
// functors, and the precompiled entry's built-in operator chosen at run time) take the units
// striped instead (worker t: units t, t + Workers, ...; worker 0 also the head and the tail):
// each load instruction of a warp then reads 512 contiguous bytes, where the in-order shares
// of 4 units put a warp's 16-byte loads 64 bytes apart. No identity is needed (each worker's
// fold starts from its first value). The order is still fixed by the offsets alone, so float
// results keep the same bits from run to run.
template <bool Vector, int Workers, class V, class Op>
__device__ __forceinline__ int fold_part(const V* __restrict__ p, std::int64_t len,
                                         std::int64_t head, int t, Op op, V& acc, bool& has) {
  constexpr int per = per_unit<Vector, V>;
  const std::int64_t units = (len - head) / per;
  const std::int64_t tail_begin = head + units * per;
  const int busy = units < Workers ? int(units) : Workers;
  if constexpr (parprim::is_commutative<Op>::value) {
    fold_units<Vector>(p + head, t, units, Workers, op, acc, has);
    if (t == 0) {
      for (std::int64_t i = 0; i < head; ++i) fold_into(acc, has, p[i], op);
      for (std::int64_t i = tail_begin; i < len; ++i) fold_into(acc, has, p[i], op);
    }
    return busy > 0 ? busy : 1;
  }
  const std::int64_t q = units / Workers, r = units % Workers;
  const std::int64_t begin = t * q + (t < r ? t : r);
  const std::int64_t end = begin + q + (t < r ? 1 : 0);
  const int last = busy > 0 ? busy - 1 : 0;
  if (t == 0)
    for (std::int64_t i = 0; i < head; ++i) fold_into(acc, has, p[i], op);
  fold_units<Vector>(p + head, begin, end, 1, op, acc, has);
  if (t == last)
    for (std::int64_t i = tail_begin; i < len; ++i) fold_into(acc, has, p[i], op);
  return busy > 0 ? busy : 1;
}

// Worker t's part of the non-empty segment p[0, len), with 16-byte units where p's address
// allows them (the split into head, units and tail: see the top of the file). Returns how many
// workers, from worker 0 on, hold a value. The block kernel below and the warp kernel
// (parprim/cuda/segment_warps.cuh) share it.
template <int Workers, class V, class Op>
__device__ __forceinline__ int fold_segment(const V* __restrict__ p, std::int64_t len, int t,
                                            Op op, V& acc, bool& has) {
  if constexpr (cuda_prim::vector_unit<V>) {
    constexpr int per = cuda_prim::unit_size<V>;
    const unsigned misaligned = unsigned(reinterpret_cast<std::uintptr_t>(p) & 15u);
    if (misaligned % sizeof(V) == 0) {
      const std::int64_t to_boundary = (per - int(misaligned / sizeof(V))) % per;
      const std::int64_t head = len < to_boundary ? len : to_boundary;
      return fold_part<true, Workers>(p, len, head, t, op, acc, has);
    }
  }
  return fold_part<false, Workers>(p, len, 0, t, op, acc, has);
}

// Whether a kernel gated on the offsets check's verdict (src/cuda/kernels/segmented.cu, its
// published words: cuda_tuning::offsets_verdict_words) runs: the offsets are good and the
// rule (cuda_tuning::per_segment_path, applied once by the check to their true covered range
// and longest segment) picks `path`. Every thread reads the same word, so a block or warp
// leaves together and no barrier or shuffle is left waiting. A null gate lets the kernel run
// (the host already decided).
__device__ __forceinline__ bool gate_open(const unsigned long long* __restrict__ gate,
                                          cuda_tuning::segment_path path) {
  return gate == nullptr ||
         gate[cuda_tuning::offsets_verdict_words::path] == static_cast<unsigned long long>(path);
}

// Block s reduces segment s (data[offsets[s], offsets[s+1]): data is the element at position
// 0 of the offsets), when the gate lets it.
template <class V, class Op>
__global__ void __launch_bounds__(threads)
    reduce_kernel(const V* __restrict__ data, const std::int64_t* __restrict__ offsets,
                  std::int64_t segments, V init, Op op, V* __restrict__ out,
                  const unsigned long long* __restrict__ gate) {
  if (!gate_open(gate, cuda_tuning::segment_path::blocks)) return;
  __shared__ typename cuda_prim::block_reduce<V, Op, threads>::storage s;
  const std::int64_t seg = blockIdx.x;
  const std::int64_t begin = offsets[seg], len = offsets[seg + 1] - begin;
  if (len == 0) {  // the same for the whole block: no barrier is left waiting
    if (threadIdx.x == 0) out[seg] = init;
    return;
  }
  V acc{};
  bool has = false;
  const int holders = fold_segment<threads>(data + begin, len, int(threadIdx.x), op, acc, has);
  const V total = cuda_prim::block_reduce_first<V, Op, threads>(s, acc, op, holders);
  if (threadIdx.x == 0) out[seg] = op(init, total);
}

// Stream-ordered. data: the element at position 0 of the offsets; gate: the offsets check's
// published verdict words, or null where the host picked this kernel from the verdict.
template <class V, class Op>
void launch(const context& ctx, const V* data, const std::int64_t* offsets,
            std::int64_t segments, V init, Op op, V* out, const unsigned long long* gate,
            const char* who) {
  use_device(ctx, who);
  reduce_kernel<V, Op><<<unsigned(segments), threads, 0, stream_of(ctx)>>>(
      data, offsets, segments, init, op, out, gate);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// The runs engine's entry (parprim/cuda/segmented.cuh); the caller checked suits(job).
template <class V, class Op>
void launch(const context& ctx, const detail::segments_job<V>& job, Op op, const char* who) {
  launch(ctx, job.values - job.first, job.offsets, job.segments, job.init, op, job.reduced_out,
         nullptr, who);
}

}  // namespace parprim::cuda_kernels::segment_blocks
