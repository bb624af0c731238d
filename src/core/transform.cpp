// Front end of transform: validate, then dispatch to the backend.
#include "parprim/transform.hpp"

#include "core/validate.hpp"
#include "cpu/cpu_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace parprim {

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f) {
  detail::checker c(ctx, "transform");
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/true);
  c.known_option(f, unary_op::square, "f");
  if (in.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::transform(ctx, in, out, f);
#endif
  cpu_backend::transform(ctx, in, out, f);
}

template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f) {
  detail::checker c(ctx, "transform");
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
  cpu_backend::transform(ctx, a, b, out, f);
}

#define PARPRIM_INSTANTIATE(T)                                                      \
  template void transform<T>(const context&, span<const T>, span<T>, unary_op);      \
  template void transform<T>(const context&, span<const T>, span<const T>, span<T>, \
                             binary_op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
