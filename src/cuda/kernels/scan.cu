// scan on the GPU: the precompiled entry point. The decoupled look-back scan (the default) is
// the generic body of parprim/cuda/scan.cuh with the library's op functors; the course's
// scans are in scan_textbook.cu.
#include "cuda/cuda_backend.hpp"
#include "cuda/kernels/scan_internal.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/scan.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

template <class T>
void scan(const context& ctx, span<const T> in, span<T> out, op o, detail::scan_kind kind, T init,
          scan_algorithm alg, workspace* ws) {
  const char* who = detail::includes_own(kind) ? "inclusive_scan" : "exclusive_scan";
  const std::int64_t n = in.size();
  if (n == 0) return;
  if (alg != scan_algorithm::decoupled_lookback) {
    cuda_kernels::use_device(ctx, who);
    return cuda_kernels::scan_textbook<T>(ctx, in.data(), out.data(), n, o, kind, init, alg, ws);
  }
  detail::with_op<T>(o, [&](auto f) {
    cuda_kernels::scan(ctx, in.data(), out.data(), n, kind, init, detail::identity_map{}, f,
                       ws, who);
  });
}

#define PARPRIM_INSTANTIATE(T)                                                               \
  template void scan<T>(const context&, span<const T>, span<T>, op, detail::scan_kind, T,        \
                        scan_algorithm, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
