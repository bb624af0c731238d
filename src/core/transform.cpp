// Front end of the precompiled transform: validate, then run the generic bodies with the
// library's maps (CPU: parprim/detail/cpu/transform.hpp; CUDA: src/cuda/kernels/transform.cu).
#include "parprim/transform.hpp"

#include "parprim/detail/validate.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace parprim::detail {

template <class T>
void transform_precompiled(const context& ctx, span<const T> in, span<T> out, unary_op f) {
  checker c(ctx, "transform");
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/true);
  c.known_option(f, unary_op::square, "f");
  if (in.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::transform(ctx, in, out, f);
#endif
  with_unary(f, [&](auto fn) { cpu::transform(ctx, in, out, fn); });
}

template <class T>
void transform_precompiled(const context& ctx, span<const T> a, span<const T> b, span<T> out,
                           binary_op f) {
  checker c(ctx, "transform");
  c.valid(a, "a");
  c.valid(b, "b");
  c.valid(out, "out");
  c.same_size(a.size(), "a", b.size(), "b");
  c.same_size(a.size(), "a", out.size(), "out");
  c.no_overlap(a, "a", out, "out", true);
  c.no_overlap(b, "b", out, "out", true);
  c.known_option(f, binary_op::max, "f");
  if (a.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::transform(ctx, a, b, out, f);
#endif
  with_binary(f, [&](auto fn) { cpu::transform(ctx, a, b, out, fn); });
}

#define PARPRIM_INSTANTIATE(T)                                                      \
  template void transform_precompiled<T>(const context&, span<const T>, span<T>, unary_op); \
  template void transform_precompiled<T>(const context&, span<const T>, span<const T>,       \
                                         span<T>, binary_op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::detail
