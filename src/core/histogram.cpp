// Front end of histogram: validate, then dispatch to the backend.
#include "parprim/histogram.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>

#include "parprim/detail/validate.hpp"
#include "cpu/gather_scatter_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/gather_scatter_backend.hpp"
#endif

namespace parprim {

namespace {
template <class T>
std::string show(T v) {
  std::ostringstream s;
  s.precision(std::numeric_limits<T>::max_digits10);
  s << v;
  return s.str();
}
}  // namespace

template <class T>
void histogram(const context& ctx, span<const T> samples, span<std::uint64_t> bins_out,
               std::int64_t num_bins, T lower, T upper) {
  detail::checker c(ctx, "histogram");
  c.valid(samples, "samples");
  c.valid(bins_out, "bins_out");
  if (num_bins <= 0) c.fail("num_bins=" + std::to_string(num_bins) + " but must be at least 1");
  if (num_bins > std::numeric_limits<std::int32_t>::max())
    c.fail("num_bins=" + std::to_string(num_bins) + " is above the limit of 2^31 - 1");
  if (bins_out.size() != num_bins)
    c.fail("bins_out.size()=" + std::to_string(bins_out.size()) + " but num_bins=" +
           std::to_string(num_bins));
  if (!(lower < upper)) c.fail("lower=" + show(lower) + " is not below upper=" + show(upper));
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::isfinite(lower) || !std::isfinite(upper) || !std::isfinite(upper - lower))
      c.fail("lower=" + show(lower) + " and upper=" + show(upper) +
             " must be finite with a finite difference");
    // The bin of a sample is (s - lower) * scale (histogram_bins.hpp): an infinite scale would
    // put every sample in the last bin.
    const T scale = static_cast<T>(num_bins) / (upper - lower);
    if (!std::isfinite(scale))
      c.fail("num_bins=" + std::to_string(num_bins) + " / (upper - lower)=" + show(T(upper - lower)) +
             " is not finite in " + type_name<T>() + ": the range is too narrow for that many bins");
  }
  c.no_overlap(samples, "samples", bins_out.as_const(), "bins_out", false);
  if (samples.size() == 0) {
    ctx.fill_bytes(bins_out.data(), 0, static_cast<std::size_t>(bins_out.size_bytes()));
    return;
  }
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::histogram(ctx, samples, bins_out, num_bins, lower, upper);
#endif
  cpu_backend::histogram(ctx, samples, bins_out, num_bins, lower, upper);
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void histogram<T>(const context&, span<const T>, span<std::uint64_t>, std::int64_t, \
                             T, T);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
