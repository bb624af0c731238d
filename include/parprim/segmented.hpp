// Reductions and scans of segments.
//
// Segments by offsets: `offsets` holds S + 1 non-decreasing positions into `in`; segment s is
// in[offsets[s] .. offsets[s+1]). Segments may be empty. offsets[0] need not be 0 and
// offsets[S] need not be in.size(): elements outside [offsets[0], offsets[S]) are neither read
// nor written. Offsets that decrease, are negative or exceed in.size() throw parprim::error
// (errc::invalid_argument) before anything is written; on CUDA a kernel checks them and the
// call waits for its verdict (read from pinned host memory) before it returns;
// segmented_reduce may queue its reduce behind the check first, gated on the verdict on the
// device, so that the GPU goes on while the host reads it.
// Segments by flags: a segment starts at element 0 and at every i with flags[i] != 0.
//
//   segmented_reduce           out[s] = init op in[offsets[s]] op ... (left to right); an
//                              empty segment gets init. out.size() == S.
//   segmented_inclusive_scan   out[i] = fold of i's segment up to and including i
//   segmented_exclusive_scan   out[i] = init op (fold of i's segment before i), so the first
//                              element of each segment gets init
//   ..._by_flags               the same scans with segments given by head flags
//
//   Precompiled (any compiler): i32 u32 i64 u64 f32 f64, op::plus/min/max. Integers wrap.
//   Generic (header-only): any trivially copyable T, any associative functor or lambda (it
//   need not be commutative and needs no identity):
//     segmented_reduce(ctx, in, offsets, out, init, op)
//     segmented_inclusive_scan(ctx, in, offsets, out, op)
//     segmented_exclusive_scan(ctx, in, offsets, out, init, op)
//     segmented_inclusive_scan_by_flags(ctx, in, flags, out, op)
//     segmented_exclusive_scan_by_flags(ctx, in, flags, out, init, op)
//   On a CUDA context a generic call must be compiled by nvcc (--extended-lambda for
//   lambdas); from any other compiler it throws parprim::error(errc::backend_unavailable)
//   saying so. On CUDA, T may be at most 64 bytes.
//
// Fold order: within a segment always left to right, grouped in an order fixed by the sizes
// and segments (and the backend), never by timing or thread count: float results are bitwise
// reproducible from run to run, but need not match the sequential loop's rounding.
// segmented_reduce on CUDA of short-to-medium segments (parprim/cuda/segment_warps.cuh:
// averaging 32-1023 elements, none over 8192) folds each segment by one warp, and of medium
// ones (parprim/cuda/segment_blocks.cuh: averaging 256 elements or more, none over 65536) by
// one block, in element order, the split into per-lane or per-thread runs also fixed by the
// input's address modulo 16 (the same for the same buffer). (The precompiled segmented_reduce
// on CUDA folds the built-in operators, which commute, in 16-byte vectors strided over the
// warp or block there, and for other segments averaging 1024 elements or more strided over a
// block: there too the order depends on that address; so does a caller's operator marked
// parprim::is_commutative.) NaN: op::plus
// propagates it; op::min and op::max compare with `<` and keep the left operand when the
// comparison is false, so a NaN survives only where it is the running value (as
// std::min/std::max); a caller's operator decides for itself. Scans may run in place (out
// aliasing in exactly); other overlaps of outputs with inputs are rejected. Errors name the
// function, the backend and the argument:
//   parprim::segmented_reduce [cpu]: out.size()=3 but offsets.size()=5 describes 4 segments
// Stream-ordered on CUDA (after the offsets check).
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/segmented.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/segmented.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class T>
void segmented_reduce(const context& ctx, span<const T> in, span<const std::int64_t> offsets,
                      span<T> out, T init = T{}, op o = op::plus, workspace* ws = nullptr);

template <class T>
void segmented_inclusive_scan(const context& ctx, span<const T> in,
                              span<const std::int64_t> offsets, span<T> out, op o = op::plus,
                              workspace* ws = nullptr);

template <class T>
void segmented_exclusive_scan(const context& ctx, span<const T> in,
                              span<const std::int64_t> offsets, span<T> out, T init = T{},
                              op o = op::plus, workspace* ws = nullptr);

template <class T>
void segmented_inclusive_scan_by_flags(const context& ctx, span<const T> in,
                                       span<const std::uint8_t> flags, span<T> out,
                                       op o = op::plus, workspace* ws = nullptr);

template <class T>
void segmented_exclusive_scan_by_flags(const context& ctx, span<const T> in,
                                       span<const std::uint8_t> flags, span<T> out,
                                       T init = T{}, op o = op::plus, workspace* ws = nullptr);

namespace detail {

// The checks of segmented_reduce but the offsets' values (the sizes and overlaps).
template <class T>
void check_segmented_reduce_shapes(const checker& c, span<const T> in,
                                   span<const std::int64_t> offsets, span<T> out, workspace* ws) {
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  c.no_overlap(offsets, "offsets", out, "out", false);
  c.own_workspace(ws);
  if (offsets.size() >= 1 && offsets.size() - 1 != out.size())
    c.fail("out.size()=" + std::to_string(out.size()) + " but offsets.size()=" +
           std::to_string(offsets.size()) + " describes " + std::to_string(offsets.size() - 1) +
           " segments");
}

// The checks of segmented_reduce; returns the data range the offsets cover.
template <class T>
covered check_segmented_reduce(const checker& c, span<const T> in,
                               span<const std::int64_t> offsets, span<T> out, workspace* ws) {
  check_segmented_reduce_shapes(c, in, offsets, out, ws);
  return check_segment_offsets(c, offsets, in.size());
}

// The checks of the scans: out the size of in (in place allowed); flags (when given) too.
template <class T>
void check_segmented_scan(const checker& c, span<const T> in, span<T> out, workspace* ws) {
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", true);
  c.own_workspace(ws);
}

template <class T>
void check_flags(const checker& c, span<const T> in, span<const std::uint8_t> flags,
                 span<T> out) {
  c.valid(flags, "flags");
  c.same_size(in.size(), "in", flags.size(), "flags");
  c.no_overlap(flags, "flags", out, "out", false);
}

// The jobs of the three call shapes (reduce by offsets, scan by offsets, scan by flags).
template <class T>
segments_job<T> reduce_job(span<const T> in, span<const std::int64_t> offsets, span<T> out,
                           covered range, T init) {
  segments_job<T> job;
  job.n = range.last - range.first;
  job.offsets = offsets.data();
  job.segments = offsets.size() - 1;
  job.longest = range.longest;
  job.first = range.first;
  job.values = in.data() + range.first;
  job.has_init = true;
  job.init = init;
  job.reduced_out = out.data();
  job.by_segment = true;
  return job;
}

// heads: the flags the offsets check marked (scan_heads: CUDA), or null.
template <class T>
segments_job<T> scan_job(span<const T> in, span<const std::int64_t> offsets, span<T> out,
                         covered range, bool inclusive, T init, const std::uint8_t* heads) {
  segments_job<T> job;
  job.n = range.last - range.first;
  job.flags = heads;
  job.offsets = offsets.data();
  job.segments = offsets.size() - 1;
  job.values = in.data() + range.first;
  job.has_init = !inclusive;
  job.init = init;
  job.scan_out = out.data() + range.first;
  job.inclusive = inclusive;
  return job;
}

template <class T>
segments_job<T> flags_scan_job(span<const T> in, span<const std::uint8_t> flags, span<T> out,
                               bool inclusive, T init) {
  segments_job<T> job;
  job.n = in.size();
  job.flags = flags.data();
  job.values = in.data();
  job.has_init = !inclusive;
  job.init = init;
  job.scan_out = out.data();
  job.inclusive = inclusive;
  return job;
}

}  // namespace detail

inline namespace PARPRIM_TU_NAMESPACE {

namespace detail_segmented {
// Runs a checked job with the caller's operator: the CPU body, or the CUDA one through the
// hook (nvcc only).
template <class T, class Op>
void run(const context& ctx, const char* function, const detail::segments_job<T>& job, Op op,
         workspace* ws) {
  if (ctx.kind() == backend::cuda)
    return detail::cuda_body<detail::segmented_tag, detail::with_nvcc<T>>::run(ctx, function,
                                                                              job, op, ws);
  detail::cpu::segments::run(ctx, job, op);
}

// segmented_reduce's follow-up of the CUDA offsets check (detail::offsets_follow_up): the warp
// or block kernel of the caller's operator that the host guesses, queued before the verdict
// (nvcc only: parprim/cuda/segmented.cuh).
template <class T, class Op>
struct queued_reduce {
  const context* ctx;
  span<const T> in;
  span<const std::int64_t> offsets;
  span<T> out;
  T init;
  Op op;
  static int queue(const void* arg, const unsigned long long* verdict) {
    const auto& q = *static_cast<const queued_reduce*>(arg);
    return detail::cuda_body<detail::segmented_tag, detail::with_nvcc<T>>::queue_reduce(
        *q.ctx, "segmented_reduce", q.in, q.offsets, q.out, q.init, q.op, verdict);
  }
};

template <class T, class Op>
void scan_by_offsets(const char* function, const context& ctx, span<const T> in,
                     span<const std::int64_t> offsets, span<T> out, bool inclusive, T init,
                     Op op, workspace* ws) {
  detail::check_element_type<T>();
  detail::checker c(ctx, function);
  detail::check_segmented_scan(c, in, out, ws);
  const detail::scan_heads heads(ctx, ws, in.size());
  const detail::covered range =
      detail::check_segment_offsets(c, offsets, in.size(), nullptr, heads.get());
  if (range.last == range.first) return;
  run(ctx, function, detail::scan_job(in, offsets, out, range, inclusive, init, heads.get()), op,
      ws);
}

template <class T, class Op>
void scan_by_flags(const char* function, const context& ctx, span<const T> in,
                   span<const std::uint8_t> flags, span<T> out, bool inclusive, T init, Op op,
                   workspace* ws) {
  detail::check_element_type<T>();
  detail::checker c(ctx, function);
  detail::check_segmented_scan(c, in, out, ws);
  detail::check_flags(c, in, flags, out);
  if (in.size() == 0) return;
  run(ctx, function, detail::flags_scan_job(in, flags, out, inclusive, init), op, ws);
}
}  // namespace detail_segmented

template <class E, class Op, class = std::enable_if_t<std::is_class_v<Op>>>
void segmented_reduce(const context& ctx, span<E> in, span<const std::int64_t> offsets,
                      span<detail::value_t<E>> out, detail::no_deduce_t<detail::value_t<E>> init,
                      Op op, workspace* ws = nullptr) {
  using T = detail::value_t<E>;
  detail::check_element_type<T>();
  detail::checker c(ctx, "segmented_reduce");
  detail::check_segmented_reduce_shapes(c, detail::as_input(in), offsets, out, ws);
  // On CUDA (nvcc), the kernel the host guesses runs right behind the offsets check, gated on
  // its verdict, as in the precompiled segmented_reduce (src/core/segmented.cpp says why).
  const detail_segmented::queued_reduce<T, Op> queued{&ctx, detail::as_input(in), offsets, out,
                                                      init, op};
  detail::offsets_follow_up follow;
  if constexpr (detail::with_nvcc<T>) {
    if (ctx.kind() == backend::cuda) {
      follow.queue = &detail_segmented::queued_reduce<T, Op>::queue;
      follow.arg = &queued;
    }
  }
  const detail::covered range = detail::check_segment_offsets(c, offsets, in.size(), &follow);
  if (out.size() == 0 || follow.done) return;
  detail_segmented::run(ctx, "segmented_reduce",
                        detail::reduce_job(detail::as_input(in), offsets, out, range, init), op,
                        ws);
}

template <class E, class Op, class = std::enable_if_t<std::is_class_v<Op>>>
void segmented_inclusive_scan(const context& ctx, span<E> in, span<const std::int64_t> offsets,
                              span<detail::value_t<E>> out, Op op, workspace* ws = nullptr) {
  detail_segmented::scan_by_offsets("segmented_inclusive_scan", ctx, detail::as_input(in),
                                    offsets, out, true, detail::value_t<E>{}, op, ws);
}

template <class E, class Op, class = std::enable_if_t<std::is_class_v<Op>>>
void segmented_exclusive_scan(const context& ctx, span<E> in, span<const std::int64_t> offsets,
                              span<detail::value_t<E>> out,
                              detail::no_deduce_t<detail::value_t<E>> init, Op op,
                              workspace* ws = nullptr) {
  detail_segmented::scan_by_offsets("segmented_exclusive_scan", ctx, detail::as_input(in),
                                    offsets, out, false, init, op, ws);
}

template <class E, class Op, class = std::enable_if_t<std::is_class_v<Op>>>
void segmented_inclusive_scan_by_flags(const context& ctx, span<E> in,
                                       span<const std::uint8_t> flags,
                                       span<detail::value_t<E>> out, Op op,
                                       workspace* ws = nullptr) {
  detail_segmented::scan_by_flags("segmented_inclusive_scan_by_flags", ctx, detail::as_input(in),
                                  flags, out, true, detail::value_t<E>{}, op, ws);
}

template <class E, class Op, class = std::enable_if_t<std::is_class_v<Op>>>
void segmented_exclusive_scan_by_flags(const context& ctx, span<E> in,
                                       span<const std::uint8_t> flags,
                                       span<detail::value_t<E>> out,
                                       detail::no_deduce_t<detail::value_t<E>> init, Op op,
                                       workspace* ws = nullptr) {
  detail_segmented::scan_by_flags("segmented_exclusive_scan_by_flags", ctx, detail::as_input(in),
                                  flags, out, false, init, op, ws);
}

}  // namespace PARPRIM_TU_NAMESPACE
}  // namespace parprim

#if PARPRIM_WITH_NVCC
#include "parprim/cuda/segmented.cuh"
#endif
