// Precompiled front ends of segmented_reduce and the segmented scans: validate (offsets
// included, with the checks the generic ones share: parprim/segmented.hpp), then run one
// runs_job (src/core/runs_job.hpp) with offsets or flags as the head source; on CUDA,
// short-to-medium segments go to one warp per segment (parprim/cuda/segment_warps.cuh) and
// medium ones to one block per segment (parprim/cuda/segment_blocks.cuh), queued behind the
// offsets check when the host's guess picks them (segmented_reduce below) or else chosen
// inside the runs engine's entry, and other segments averaging 1024 elements or more (a huge
// one among them) to the chunked reduce (src/cuda/kernels/segmented_reduce.cuh); the scans
// run the single-pass by-key scan on head flags there (src/cuda/kernels/segmented.cu). Also
// the library's check of segment offsets for the generic front ends.
#include "parprim/segmented.hpp"

#include "core/runs_dispatch.hpp"
#include "core/segment_offsets.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/segmented_backend.hpp"
#endif
#include "parprim/types.hpp"

namespace parprim {

namespace detail {
covered check_segment_offsets(const checker& c, span<const std::int64_t> offsets, std::int64_t n,
                              offsets_follow_up* follow, std::uint8_t* heads) {
  offsets_check check(c, offsets, n, heads);
#if PARPRIM_HAVE_CUDA
  if (follow && follow->queue && check.device_verdict()) {
    const int queued = follow->queue(follow->arg, check.device_verdict());
    const covered range = check.wait();
    follow->done = cuda_tuning::guess_confirmed(cuda_tuning::segment_path(queued),
                                                range.last - range.first, offsets.size() - 1,
                                                range.longest);
    return range;
  }
#else
  (void)follow;
#endif
  return check.wait();
}
}  // namespace detail

namespace {

// The generic job with the built-in operator, run on the precompiled engines.
template <class T>
void run_precompiled(const context& ctx, const detail::segments_job<T>& generic, op o,
                     workspace* ws) {
  detail::runs_job<std::uint32_t, T> job;
  static_cast<detail::segments_job<T>&>(job) = generic;
  job.o = o;
  detail::run_job(ctx, job, ws);
}

template <class T>
void segmented_scan_by_offsets(const char* name, const context& ctx, span<const T> in,
                               span<const std::int64_t> offsets, span<T> out, bool inclusive,
                               T init, op o, workspace* ws) {
  detail::checker c(ctx, name);
  detail::check_segmented_scan(c, in, out, ws);
  c.known_option(o, op::max, "op");
  const detail::scan_heads heads(ctx, ws, in.size());
  const detail::covered range =
      detail::check_segment_offsets(c, offsets, in.size(), nullptr, heads.get());
  if (range.last == range.first) return;
  run_precompiled(ctx, detail::scan_job(in, offsets, out, range, inclusive, init, heads.get()), o,
                  ws);
}

template <class T>
void segmented_scan_by_flags(const char* name, const context& ctx, span<const T> in,
                             span<const std::uint8_t> flags, span<T> out, bool inclusive, T init,
                             op o, workspace* ws) {
  detail::checker c(ctx, name);
  detail::check_segmented_scan(c, in, out, ws);
  detail::check_flags(c, in, flags, out);
  c.known_option(o, op::max, "op");
  if (in.size() == 0) return;
  run_precompiled(ctx, detail::flags_scan_job(in, flags, out, inclusive, init), o, ws);
}

}  // namespace

// On CUDA the offsets check runs on the device and the path depends on its verdict (the
// covered range and the longest segment: cuda_tuning::per_segment_path). Waiting for the
// verdict before launching left the GPU idle for a copy back, a host wake-up and a launch:
// 108-114 us a call for 2^26 f32 in segments of 4096 on the H100, where the reduce kernel
// takes 88.1 us (ncu) and CUB's whole call 86.9 us. So the warp or block kernel that the
// host guesses from n and the segment count alone (uniform segments covering the input) is
// queued right behind the check, gated on the check's device-side verdict, and the host waits
// for the check only: where the verdict confirms the guess, the call is done once the host
// has read it, the reduce still running; where it does not, the gated grid (at most
// segment_paths_tuning::max_gated_blocks blocks) exited without writing and the path the
// verdict picks runs as before; bad offsets throw with nothing written.
template <class T>
void segmented_reduce(const context& ctx, span<const T> in, span<const std::int64_t> offsets,
                      span<T> out, T init, op o, workspace* ws) {
  detail::checker c(ctx, "segmented_reduce");
  c.known_option(o, op::max, "op");
  detail::check_segmented_reduce_shapes(c, in, offsets, out, ws);
  detail::offsets_check check(c, offsets, in.size());
#if PARPRIM_HAVE_CUDA
  using cuda_tuning::segment_path;
  segment_path guess = segment_path::neither;
  if (ctx.kind() == backend::cuda)
    guess = cuda_backend::segmented_reduce_speculated(ctx, in.data(), in.size(), offsets.data(),
                                                      out.size(), out.data(), init, o,
                                                      check.device_verdict());
#endif
  const detail::covered range = check.wait();
  if (out.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    const std::int64_t covered = range.last - range.first;
    if (cuda_tuning::guess_confirmed(guess, covered, out.size(), range.longest)) return;
    if (cuda_backend::prefers_chunked_reduce(covered, out.size(), range.longest))
      return cuda_backend::segmented_reduce_chunked(ctx, in.data(), offsets.data(), out.size(),
                                                    range.first, range.last, out.data(), init,
                                                    o, ws);
  }
#endif
  run_precompiled(ctx, detail::reduce_job(in, offsets, out, range, init), o, ws);
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
