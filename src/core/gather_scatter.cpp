// Front end of gather and scatter: validate, then dispatch to the backend.
#include "parprim/gather_scatter.hpp"

#include "core/bad_position.hpp"
#include "core/scatter_model.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/gather_scatter_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/gather_scatter_backend.hpp"
#endif

namespace parprim {

const char* to_string(scatter_algorithm a) noexcept {
  switch (a) {
    case scatter_algorithm::single_pass: return "single_pass";
    case scatter_algorithm::multi_pass: return "multi_pass";
  }
  return "?";
}

namespace {
[[noreturn]] void fail_index(const detail::checker& c, std::int64_t pos, const char* bound_name,
                             std::int64_t size) {
  c.fail(detail::bad_index_what(pos, bound_name, size), errc::out_of_range);
}
}  // namespace

template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out) {
  detail::checker c(ctx, "gather");
  c.valid(values, "values");
  c.valid(indices, "indices");
  c.valid(out, "out");
  c.same_size(indices.size(), "indices", out.size(), "out");
  c.no_overlap(values, "values", out, "out", false);
  c.no_overlap(indices, "indices", out, "out", false);
  if (indices.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::gather(ctx, values, indices, out);
#endif
  std::int64_t bad = cpu_backend::first_outside(ctx, indices, values.size());
  if (bad >= 0) fail_index(c, bad, "values", values.size());
  cpu_backend::gather(ctx, values, indices, out);
}

template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             scatter_options options) {
  detail::checker c(ctx, "scatter");
  c.valid(values, "values");
  c.valid(indices, "indices");
  c.valid(out, "out");
  c.same_size(values.size(), "values", indices.size(), "indices");
  c.no_overlap(values, "values", out, "out", false);
  c.no_overlap(indices, "indices", out, "out", false);
  c.known_option(options.algorithm, scatter_algorithm::multi_pass, "options.algorithm");
  if (options.passes < 0 || options.passes > max_scatter_passes)
    c.fail("options.passes=" + std::to_string(options.passes) + " is outside [0, " +
           std::to_string(max_scatter_passes) + "]");
  const std::int64_t n = values.size();
  if (n == 0) return;
  int passes = 1;
  if (options.algorithm == scatter_algorithm::multi_pass && out.size() > 0) {
    passes = options.passes;
    if (passes == 0)
      passes = detail::plan_with(detail::bandwidths_of(ctx), n, out.size(), int(sizeof(T)),
                                 int(sizeof(I)), 0)
                   .passes;
    // More passes than output elements would leave empty slices.
    if (passes > out.size()) passes = static_cast<int>(out.size());
  }
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::scatter(ctx, values, indices, out, passes);
#endif
  std::int64_t bad = cpu_backend::first_outside(ctx, indices, out.size());
  if (bad >= 0) fail_index(c, bad, "out", out.size());
  cpu_backend::scatter(ctx, values, indices, out, passes);
}

#define PARPRIM_INSTANTIATE_I(T, I)                                                        \
  template void gather<T, I>(const context&, span<const T>, span<const I>, span<T>);       \
  template void scatter<T, I>(const context&, span<const T>, span<const I>, span<T>,       \
                              scatter_options);
#define PARPRIM_INSTANTIATE(T)               \
  PARPRIM_INSTANTIATE_I(T, std::int32_t)     \
  PARPRIM_INSTANTIATE_I(T, std::int64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_I

}  // namespace parprim
