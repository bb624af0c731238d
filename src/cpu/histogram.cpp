// CPU histogram: each block of samples counts into a private histogram of its worker, and
// the private histograms are added at the end. When that would take too much memory (many
// bins times many workers) the workers share one histogram through atomic increments.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/histogram_bins.hpp"
#include "cpu/gather_scatter_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

template <class T>
void histogram(const context& ctx, span<const T> samples, span<std::uint64_t> bins_out,
               std::int64_t num_bins, T lower, T upper) {
  const auto bin_of = detail::make_even_bins(lower, upper, num_bins);
  const std::int64_t n = samples.size();
  const T* x = samples.data();
  std::uint64_t* out = bins_out.data();
  std::fill(out, out + num_bins, std::uint64_t(0));
  const int workers = workers_for(ctx, n);
  if (workers == 1) {
    for (std::int64_t i = 0; i < n; ++i) {
      std::uint32_t b = bin_of(x[i]);
      if (b != detail::no_bin) ++out[b];
    }
    return;
  }
  constexpr std::int64_t private_limit = std::int64_t(1) << 24;  // counters, all workers
  if (num_bins * workers <= private_limit) {
    std::vector<std::uint64_t> priv(static_cast<std::size_t>(num_bins * workers), 0);
#pragma omp parallel num_threads(workers)
    {
      std::uint64_t* mine = priv.data() + std::int64_t(omp_get_thread_num()) * num_bins;
#pragma omp for schedule(static)
      for (std::int64_t i = 0; i < n; ++i) {
        std::uint32_t b = bin_of(x[i]);
        if (b != detail::no_bin) ++mine[b];
      }
    }
    // Merge: each bin sums its workers' counts.
    parallel_for(ctx, num_bins, [&](std::int64_t b) {
      std::uint64_t s = 0;
      for (int w = 0; w < workers; ++w) s += priv[static_cast<std::size_t>(w * num_bins + b)];
      out[b] = s;
    });
    return;
  }
#pragma omp parallel for schedule(static) num_threads(workers)
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint32_t b = bin_of(x[i]);
    if (b != detail::no_bin) {
#pragma omp atomic
      ++out[b];
    }
  }
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void histogram<T>(const context&, span<const T>, span<std::uint64_t>, std::int64_t, \
                             T, T);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
