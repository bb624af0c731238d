// Front end of dot and dot_into: validate, then dispatch to the backend.
#include "parprim/dot.hpp"

#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/blas_backend.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/blas_backend.hpp"
#endif

namespace parprim {

const char* to_string(dot_algorithm a) noexcept {
  switch (a) {
    case dot_algorithm::shared_memory: return "shared_memory";
    case dot_algorithm::production: return "production";
  }
  return "unknown";
}

template <class T>
static void check_dot_inputs(const detail::checker& c, span<const T> x, span<const T> y,
                             dot_algorithm alg, workspace* ws) {
  c.valid(x, "x");
  c.valid(y, "y");
  c.same_size(x.size(), "x", y.size(), "y");
  c.known_option(alg, dot_algorithm::production, "algorithm");
  c.own_workspace(ws);
}

template <class T>
T dot(const context& ctx, span<const T> x, span<const T> y, dot_algorithm alg, workspace* ws) {
  detail::checker c(ctx, "dot");
  check_dot_inputs(c, x, y, alg, ws);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    // The result goes through one device word; the copy back waits for the stream.
    detail::temp_memory result(ctx, nullptr, sizeof(T));
    cuda_backend::dot_into(ctx, x, y, result.as<T>(), alg, ws);
    T value{};
    ctx.copy_to_host(&value, result.get(), sizeof(T));
    return value;
  }
#endif
  return cpu_backend::dot(ctx, x, y);
}

template <class T>
void dot_into(const context& ctx, span<const T> x, span<const T> y, span<T> out,
              dot_algorithm alg, workspace* ws) {
  detail::checker c(ctx, "dot_into");
  check_dot_inputs(c, x, y, alg, ws);
  c.valid(out, "out");
  if (out.size() != 1) c.fail("out.size()=" + std::to_string(out.size()) + " but must be 1");
  c.no_overlap(x, "x", out, "out", false);
  c.no_overlap(y, "y", out, "out", false);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::dot_into(ctx, x, y, out.data(), alg, ws);
#endif
  out[0] = cpu_backend::dot(ctx, x, y);
}

#define PARPRIM_INSTANTIATE(T)                                                             \
  template T dot<T>(const context&, span<const T>, span<const T>, dot_algorithm,           \
                    workspace*);                                                           \
  template void dot_into<T>(const context&, span<const T>, span<const T>, span<T>,         \
                            dot_algorithm, workspace*);
PARPRIM_INSTANTIATE(float)
PARPRIM_INSTANTIATE(double)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
