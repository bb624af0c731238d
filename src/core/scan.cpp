// Front end of inclusive_scan and exclusive_scan: validate, then dispatch to the backend.
#include "parprim/scan.hpp"

#include "core/validate.hpp"
#include "cpu/cpu_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace parprim {

template <class T>
static void scan_front_end(const char* name, const context& ctx, span<const T> in, span<T> out,
                           op o, bool inclusive, T init, scan_algorithm alg, workspace* ws) {
  detail::checker c(ctx, name);
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/true);
  c.known_option(o, op::max, "op");
  c.known_option(alg, scan_algorithm::decoupled_lookback, "algorithm");
  if (ws && &ws->ctx().state() != &ctx.state()) c.fail("workspace belongs to another context");
  if (in.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::scan(ctx, in, out, o, inclusive, init, alg, ws);
#endif
  (void)ws;
  cpu_backend::scan(ctx, in, out, o, inclusive, init);
}

template <class T>
void inclusive_scan(const context& ctx, span<const T> in, span<T> out, op o, scan_algorithm alg,
                    workspace* ws) {
  scan_front_end("inclusive_scan", ctx, in, out, o, true, T{}, alg, ws);
}

template <class T>
void exclusive_scan(const context& ctx, span<const T> in, span<T> out, T init, op o,
                    scan_algorithm alg, workspace* ws) {
  scan_front_end("exclusive_scan", ctx, in, out, o, false, init, alg, ws);
}

#define PARPRIM_INSTANTIATE(T)                                                                  \
  template void inclusive_scan<T>(const context&, span<const T>, span<T>, op, scan_algorithm,  \
                                  workspace*);                                                  \
  template void exclusive_scan<T>(const context&, span<const T>, span<T>, T, op, scan_algorithm, \
                                  workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
