// The course's scans on the GPU, extended to any n with the tutorial's three phases:
//   1. scan blocks:        each block scans its segment and writes the segment's total;
//   2. scan block sums:    an exclusive scan of the totals, by the same algorithm, recursively
//                          (one block once they fit), starting from init for exclusive scans;
//   3. add increments:     every element of segment b is combined with scanned total b.
// Levels: ceil(n / E), ceil(n / E^2), ... sums, carved from one scratch allocation
// (E = elements per block: 1024 for every variant with the default tuning).
// The combining order is fixed by n, so float results are reproducible. In place works: each
// block reads its own segment before writing it, and phase 3 reads and writes element-wise.
#include <vector>

#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/scan_blelloch.cuh"
#include "cuda/kernels/scan_hillis_steele.cuh"
#include "cuda/kernels/scan_internal.hpp"
#include "parprim/cuda/tuning/scan_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::scan_textbook_tuning;

// ---- Phase 3: segment b of `elements` elements gets increments[b] in front. Block 0 is
// skipped when its increment is the identity (inclusive scans without a start value).
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads)
    add_increments_kernel(T* out, std::int64_t n, const T* increments, int elements, bool skip_first) {
  if (skip_first && blockIdx.x == 0) return;
  Op op;
  const T inc = increments[blockIdx.x];
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * elements;
  for (int j = threadIdx.x; j < elements; j += Threads) {
    const std::int64_t i = base + j;
    if (i < n) out[i] = op(inc, out[i]);
  }
}

int elements_per_block(scan_algorithm alg) {
  return alg == scan_algorithm::hillis_steele ? tuning::hillis_steele_threads
                                              : 2 * tuning::blelloch_threads;
}

template <class T, class Op>
void launch_block_scan(const context& ctx, scan_algorithm alg, std::int64_t blocks, const T* in,
                       T* out, std::int64_t n, T* block_sums, bool inclusive, bool apply_start,
                       T start, const char* who) {
  const cudaStream_t s = stream_of(ctx);
  const unsigned grid = static_cast<unsigned>(blocks);
  switch (alg) {
    case scan_algorithm::hillis_steele:
      hillis_steele_block_kernel<T, Op, tuning::hillis_steele_threads>
          <<<grid, tuning::hillis_steele_threads, 0, s>>>(in, out, n, block_sums, inclusive,
                                                          apply_start, start);
      break;
    case scan_algorithm::blelloch:
      blelloch_block_kernel<T, Op, tuning::blelloch_threads, false>
          <<<grid, tuning::blelloch_threads, 0, s>>>(in, out, n, block_sums, inclusive,
                                                     apply_start, start);
      break;
    case scan_algorithm::blelloch_conflict_free:
    default:
      blelloch_block_kernel<T, Op, tuning::blelloch_threads, true>
          <<<grid, tuning::blelloch_threads, 0, s>>>(in, out, n, block_sums, inclusive,
                                                     apply_start, start);
      break;
  }
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// Scans n elements of `in` into `out`; `start` goes in front when apply_start. `sums` points
// to scratch for this level's block totals and every deeper level's.
template <class T, class Op>
void scan_levels(const context& ctx, scan_algorithm alg, const T* in, T* out, std::int64_t n,
                 bool inclusive, bool apply_start, T start, T* sums, const char* who) {
  const int elements = elements_per_block(alg);
  const std::int64_t blocks = ceil_div(n, elements);
  if (blocks <= 1) {
    launch_block_scan<T, Op>(ctx, alg, 1, in, out, n, nullptr, inclusive, apply_start, start, who);
    return;
  }
  // ---- Phase 1: scan each segment, record its total.
  launch_block_scan<T, Op>(ctx, alg, blocks, in, out, n, sums, inclusive, false, start, who);
  // ---- Phase 2: exclusive scan of the totals, in place, from `start` when there is one.
  scan_levels<T, Op>(ctx, alg, sums, sums, blocks, false, apply_start, start, sums + blocks, who);
  // ---- Phase 3: add each segment's increment.
  add_increments_kernel<T, Op, tuning::add_threads>
      <<<static_cast<unsigned>(blocks), tuning::add_threads, 0, stream_of(ctx)>>>(
          out, n, sums, elements, !apply_start);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace

template <class T>
void scan_textbook(const context& ctx, const T* in, T* out, std::int64_t n, op o,
                   detail::scan_kind kind, T init, scan_algorithm alg, workspace* ws) {
  const char* who = detail::includes_own(kind) ? "inclusive_scan" : "exclusive_scan";
  // Scratch for the block totals of every level.
  const int elements = elements_per_block(alg);
  std::int64_t total = 0;
  for (std::int64_t level = ceil_div(n, elements); level > 1; level = ceil_div(level, elements))
    total += level;
  detail::temp_memory scratch(ctx, ws, detail::align_up(static_cast<std::size_t>(total) * sizeof(T)));
  // Exclusive scans and inclusive ones from init start from init; plain inclusive ones from
  // nothing.
  detail::with_op<T>(o, [&](auto f) {
    scan_levels<T, decltype(f)>(ctx, alg, in, out, n, detail::includes_own(kind),
                                detail::starts_from_init(kind), init, scratch.as<T>(), who);
  });
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void scan_textbook<T>(const context&, const T*, T*, std::int64_t, op,              \
                                 detail::scan_kind, T, scan_algorithm, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_kernels
