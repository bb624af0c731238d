// Front ends of segmented_reduce and the segmented scans: validate (offsets included), then
// run one runs_job (src/core/runs_job.hpp) with offsets or flags as the head source; on CUDA,
// segments averaging 1024 elements or more go to the chunked reduce instead
// (src/cuda/kernels/segmented_reduce.cuh).
#include "parprim/segmented.hpp"

#include "core/runs_dispatch.hpp"
#include "core/segment_offsets.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/segmented_backend.hpp"
#endif
#include "parprim/types.hpp"

namespace parprim {

namespace {

using detail::check_offsets;
using detail::covered;

template <class T>
void segmented_scan_by_offsets(const char* name, const context& ctx, span<const T> in,
                               span<const std::int64_t> offsets, span<T> out, bool inclusive,
                               T init, op o, workspace* ws) {
  detail::checker c(ctx, name);
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", true);
  c.known_option(o, op::max, "op");
  detail::check_workspace(c, ws);
  covered range = check_offsets(c, offsets, in.size());
  if (range.last == range.first) return;
  detail::runs_job<std::uint32_t, T> job;
  job.n = range.last - range.first;
  job.offsets = offsets.data();
  job.segments = offsets.size() - 1;
  job.values = in.data() + range.first;
  job.o = o;
  job.has_init = !inclusive;
  job.init = init;
  job.scan_out = out.data() + range.first;
  job.inclusive = inclusive;
  detail::run_job(ctx, job, ws);
}

template <class T>
void segmented_scan_by_flags(const char* name, const context& ctx, span<const T> in,
                             span<const std::uint8_t> flags, span<T> out, bool inclusive, T init,
                             op o, workspace* ws) {
  detail::checker c(ctx, name);
  c.valid(in, "in");
  c.valid(flags, "flags");
  c.valid(out, "out");
  c.same_size(in.size(), "in", flags.size(), "flags");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", true);
  c.no_overlap(flags, "flags", out, "out", false);
  c.known_option(o, op::max, "op");
  detail::check_workspace(c, ws);
  if (in.size() == 0) return;
  detail::runs_job<std::uint32_t, T> job;
  job.n = in.size();
  job.flags = flags.data();
  job.values = in.data();
  job.o = o;
  job.has_init = !inclusive;
  job.init = init;
  job.scan_out = out.data();
  job.inclusive = inclusive;
  detail::run_job(ctx, job, ws);
}

}  // namespace

template <class T>
void segmented_reduce(const context& ctx, span<const T> in, span<const std::int64_t> offsets,
                      span<T> out, T init, op o, workspace* ws) {
  detail::checker c(ctx, "segmented_reduce");
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  c.no_overlap(offsets, "offsets", out, "out", false);
  c.known_option(o, op::max, "op");
  detail::check_workspace(c, ws);
  if (offsets.size() >= 1 && offsets.size() - 1 != out.size())
    c.fail("out.size()=" + std::to_string(out.size()) + " but offsets.size()=" +
           std::to_string(offsets.size()) + " describes " + std::to_string(offsets.size() - 1) +
           " segments");
  covered range = check_offsets(c, offsets, in.size());
  if (out.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda &&
      cuda_backend::prefers_chunked_reduce(range.last - range.first, out.size()))
    return cuda_backend::segmented_reduce_chunked(ctx, in.data(), offsets.data(), out.size(),
                                                  range.first, range.last, out.data(), init, o,
                                                  ws);
#endif
  detail::runs_job<std::uint32_t, T> job;
  job.n = range.last - range.first;
  job.offsets = offsets.data();
  job.segments = offsets.size() - 1;
  job.values = in.data() + range.first;
  job.o = o;
  job.has_init = true;
  job.init = init;
  job.reduced_out = out.data();
  job.by_segment = true;
  detail::run_job(ctx, job, ws);
}

template <class T>
void segmented_inclusive_scan(const context& ctx, span<const T> in,
                              span<const std::int64_t> offsets, span<T> out, op o, workspace* ws) {
  segmented_scan_by_offsets("segmented_inclusive_scan", ctx, in, offsets, out, true, T{}, o, ws);
}

template <class T>
void segmented_exclusive_scan(const context& ctx, span<const T> in,
                              span<const std::int64_t> offsets, span<T> out, T init, op o,
                              workspace* ws) {
  segmented_scan_by_offsets("segmented_exclusive_scan", ctx, in, offsets, out, false, init, o, ws);
}

template <class T>
void segmented_inclusive_scan_by_flags(const context& ctx, span<const T> in,
                                       span<const std::uint8_t> flags, span<T> out, op o,
                                       workspace* ws) {
  segmented_scan_by_flags("segmented_inclusive_scan_by_flags", ctx, in, flags, out, true, T{}, o,
                          ws);
}

template <class T>
void segmented_exclusive_scan_by_flags(const context& ctx, span<const T> in,
                                       span<const std::uint8_t> flags, span<T> out, T init, op o,
                                       workspace* ws) {
  segmented_scan_by_flags("segmented_exclusive_scan_by_flags", ctx, in, flags, out, false, init,
                          o, ws);
}

#define PARPRIM_INSTANTIATE(T)                                                                  \
  template void segmented_reduce<T>(const context&, span<const T>, span<const std::int64_t>,   \
                                    span<T>, T, op, workspace*);                                \
  template void segmented_inclusive_scan<T>(const context&, span<const T>,                     \
                                            span<const std::int64_t>, span<T>, op, workspace*); \
  template void segmented_exclusive_scan<T>(const context&, span<const T>,                     \
                                            span<const std::int64_t>, span<T>, T, op,          \
                                            workspace*);                                        \
  template void segmented_inclusive_scan_by_flags<T>(                                           \
      const context&, span<const T>, span<const std::uint8_t>, span<T>, op, workspace*);        \
  template void segmented_exclusive_scan_by_flags<T>(                                           \
      const context&, span<const T>, span<const std::uint8_t>, span<T>, T, op, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
