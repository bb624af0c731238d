// Front end of the precompiled reduce and reduce_into: validate, then run the generic bodies
// instantiated for the library's op functors (CPU: parprim/detail/cpu/reduce.hpp; CUDA:
// src/cuda/kernels/reduce.cu over parprim/cuda/reduce.cuh).
#include "parprim/reduce.hpp"

#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/cuda_backend.hpp"
#endif

namespace parprim::detail {

template <class T>
static void check_reduce_options(const checker& c, span<const T> in, op o, reduce_algorithm alg) {
  c.valid(in, "in");
  c.known_option(o, op::max, "op");
  c.known_option(alg, reduce_algorithm::production, "algorithm");
}

template <class T>
static T reduce_on_cpu(const context& ctx, span<const T> in, op o) {
  return with_op<T>(o, [&](auto f) -> T {
    return cpu::transform_reduce(ctx, in, decltype(f)::identity(), identity_map{}, f);
  });
}

template <class T>
T reduce_precompiled(const context& ctx, span<const T> in, op o, reduce_algorithm alg,
                     workspace* ws) {
  checker c(ctx, "reduce");
  check_reduce_options(c, in, o, alg);
  c.own_workspace(ws);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    // The result goes through one device word; the copy back waits for the stream.
    temp_memory result(ctx, nullptr, sizeof(T));
    cuda_backend::reduce_into(ctx, in, result.as<T>(), o, alg, ws);
    T value{};
    ctx.copy_to_host(&value, result.get(), sizeof(T));
    return value;
  }
#endif
  return reduce_on_cpu(ctx, in, o);
}

template <class T>
void reduce_into_precompiled(const context& ctx, span<const T> in, span<T> out, op o,
                             reduce_algorithm alg, workspace* ws) {
  checker c(ctx, "reduce_into");
  check_reduce_options(c, in, o, alg);
  c.valid(out, "out");
  if (out.size() != 1) c.fail("out.size()=" + std::to_string(out.size()) + " but must be 1");
  c.no_overlap(in, "in", out, "out", false);
  c.own_workspace(ws);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::reduce_into(ctx, in, out.data(), o, alg, ws);
#endif
  out[0] = reduce_on_cpu(ctx, in, o);
}

#define PARPRIM_INSTANTIATE(T)                                                                  \
  template T reduce_precompiled<T>(const context&, span<const T>, op, reduce_algorithm,         \
                                   workspace*);                                                 \
  template void reduce_into_precompiled<T>(const context&, span<const T>, span<T>, op,          \
                                           reduce_algorithm, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::detail
