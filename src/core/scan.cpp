// Front end of the precompiled inclusive_scan (with or without init) and exclusive_scan: validate, then run the
// generic bodies instantiated for the library's op functors (CPU: parprim/detail/cpu/scan.hpp;
// CUDA: src/cuda/kernels/scan.cu over parprim/cuda/scan.cuh, or the course's scans).
#include "parprim/scan.hpp"

#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace parprim::detail {

template <class T>
void scan_precompiled(const char* function, const context& ctx, span<const T> in, span<T> out,
                      op o, scan_kind kind, T init, scan_algorithm alg, workspace* ws) {
  checker c(ctx, function);
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/true);
  c.known_option(o, op::max, "op");
  c.known_option(alg, scan_algorithm::decoupled_lookback, "algorithm");
  c.own_workspace(ws);
  if (in.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::scan(ctx, in, out, o, kind, init, alg, ws);
#endif
  with_op<T>(o, [&](auto f) { cpu::scan(ctx, in, out, kind, init, identity_map{}, f); });
}

#define PARPRIM_INSTANTIATE(T)                                                             \
  template void scan_precompiled<T>(const char*, const context&, span<const T>, span<T>, op, \
                                    scan_kind, T, scan_algorithm, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::detail
