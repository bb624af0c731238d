// Front end of reduce and reduce_into: validate, then dispatch to the backend.
#include "parprim/reduce.hpp"

#include "core/op_functors.hpp"
#include "core/temp_memory.hpp"
#include "core/validate.hpp"
#include "cpu/cpu_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace parprim {

template <class T>
static void check_reduce_options(const detail::checker& c, span<const T> in, op o,
                                 reduce_algorithm alg) {
  c.valid(in, "in");
  c.known_option(o, op::max, "op");
  c.known_option(alg, reduce_algorithm::production, "algorithm");
}

template <class T>
T reduce(const context& ctx, span<const T> in, op o, reduce_algorithm alg, workspace* ws) {
  detail::checker c(ctx, "reduce");
  check_reduce_options(c, in, o, alg);
  if (ws && &ws->ctx().state() != &ctx.state()) c.fail("workspace belongs to another context");
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    // The result goes through one device word; the copy back waits for the stream.
    detail::temp_memory result(ctx, nullptr, sizeof(T));
    cuda_backend::reduce_into(ctx, in, result.as<T>(), o, alg, ws);
    T value{};
    ctx.copy_to_host(&value, result.get(), sizeof(T));
    return value;
  }
#endif
  (void)ws;
  return cpu_backend::reduce(ctx, in, o);
}

template <class T>
void reduce_into(const context& ctx, span<const T> in, span<T> out, op o, reduce_algorithm alg,
                 workspace* ws) {
  detail::checker c(ctx, "reduce_into");
  check_reduce_options(c, in, o, alg);
  c.valid(out, "out");
  if (out.size() != 1) c.fail("out.size()=" + std::to_string(out.size()) + " but must be 1");
  c.no_overlap(in, "in", out, "out", false);
  if (ws && &ws->ctx().state() != &ctx.state()) c.fail("workspace belongs to another context");
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::reduce_into(ctx, in, out.data(), o, alg, ws);
#endif
  out[0] = cpu_backend::reduce(ctx, in, o);
}

#define PARPRIM_INSTANTIATE(T)                                                              \
  template T reduce<T>(const context&, span<const T>, op, reduce_algorithm, workspace*);    \
  template void reduce_into<T>(const context&, span<const T>, span<T>, op, reduce_algorithm, \
                               workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
