// transform on the GPU: the precompiled entry points, the generic body of
// parprim/cuda/transform.cuh instantiated for the library's unary_op / binary_op maps. The op
// is a run-time argument: one kernel per element type and arity.
#include "cuda/cuda_backend.hpp"
#include "parprim/cuda/transform.cuh"
#include "parprim/detail/op_functors.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f) {
  if (in.size() == 0) return;
  cuda_kernels::transform(ctx, in.data(), static_cast<const T*>(nullptr), out.data(), in.size(),
                          cuda_kernels::ignore_second<T, detail::unary_fn>{{f}}, "transform");
}

template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f) {
  if (a.size() == 0) return;
  cuda_kernels::transform(ctx, a.data(), b.data(), out.data(), a.size(), detail::binary_fn{f},
                          "transform");
}

#define PARPRIM_INSTANTIATE(T)                                                          \
  template void transform<T>(const context&, span<const T>, span<T>, unary_op);          \
  template void transform<T>(const context&, span<const T>, span<const T>, span<T>, binary_op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
