// CPU histogram: each worker counts its contiguous share of the samples into private
// histograms, and the workers then add them up bin by bin, in the same parallel region.
// When the private histograms would take too much memory (many bins times many workers) the
// workers share one histogram through atomic increments.
//
// Counting, per worker: samples are taken in chunks; the bins of a chunk are computed first
// (a loop with no stores to the histogram), then counted into `sub_histograms` interleaved
// 32-bit histograms, sample j into sub-histogram j % sub_histograms. Runs of equal bins (a
// skewed input, or a uniform one with few bins) would otherwise make each increment wait for
// the previous store to the same counter; with four copies four increments are in flight.
// Samples outside the range go to a spare counter past the last bin instead of a branch.
// The 32-bit counters are added into the worker's 64-bit histogram every flush_samples.
#include <omp.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#include "core/histogram_bins.hpp"
#include "cpu/gather_scatter_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {

constexpr int sub_histograms = 4;
constexpr std::int64_t chunk = 1024;                         // samples whose bins are computed at once
constexpr std::int64_t flush_samples = std::int64_t(1) << 30;  // well below 2^32 per 32-bit counter
constexpr std::int64_t sub_histogram_max_bins = 1 << 14;     // 4 x 64 KiB: within the L2

// The bins of x[0..m), no_bin mapped to `spare`. For 32-bit integers with the fixed-point
// reciprocal (detail::even_bins: a 256-bin histogram of u32 takes this path) the same
// formula is written without branches, so the compiler vectorizes it; other types call the
// shared bin function per sample.
template <class T, class BinOf>
void bins_of_chunk(const T* x, std::int64_t m, const BinOf& bin_of, std::uint32_t spare,
                   std::uint32_t* out) {
  if constexpr (std::is_integral_v<T> && sizeof(T) == 4) {
    if (bin_of.fast32) {
      const auto lower = static_cast<std::uint32_t>(bin_of.lower);
      const auto range = static_cast<std::uint32_t>(bin_of.range);  // < 2^32 for 32-bit samples
      const std::uint32_t scale = bin_of.scale32, bins = bin_of.bins;
      for (std::int64_t j = 0; j < m; ++j) {
        const std::uint32_t d = static_cast<std::uint32_t>(x[j]) - lower;
        std::uint32_t q = static_cast<std::uint32_t>((std::uint64_t(d) * scale) >> 32);
        q += std::uint64_t(q + 1) * range <= std::uint64_t(d) * bins ? 1u : 0u;
        out[j] = d < range ? q : spare;
      }
      return;
    }
  }
  for (std::int64_t j = 0; j < m; ++j) {
    const std::uint32_t b = bin_of(x[j]);
    out[j] = b == detail::no_bin ? spare : b;
  }
}

// Adds the bins of x[begin..end) to h (num_bins counters; no_bin samples are dropped).
template <class T, class BinOf>
void count_range(const T* x, std::int64_t begin, std::int64_t end, BinOf bin_of,
                 std::int64_t num_bins, std::uint64_t* h) {
  const int copies = num_bins <= sub_histogram_max_bins ? sub_histograms : 1;
  const std::int64_t stride = num_bins + 1;  // + the spare counter for samples out of range
  std::vector<std::uint32_t> sub(static_cast<std::size_t>(copies * stride), 0);
  std::uint32_t bins[chunk];
  std::int64_t since_flush = 0;
  auto flush = [&] {
    for (int c = 0; c < copies; ++c)
      for (std::int64_t b = 0; b < num_bins; ++b) h[b] += sub[static_cast<std::size_t>(c * stride + b)];
    std::fill(sub.begin(), sub.end(), 0u);
    since_flush = 0;
  };
  const auto spare = static_cast<std::uint32_t>(num_bins);
  for (std::int64_t s = begin; s < end; s += chunk) {
    const std::int64_t m = std::min(chunk, end - s);
    bins_of_chunk(x + s, m, bin_of, spare, bins);
    std::uint32_t* out = sub.data();
    std::int64_t j = 0;
    if (copies == sub_histograms)
      for (; j + sub_histograms <= m; j += sub_histograms) {
        ++out[bins[j]];
        ++out[stride + bins[j + 1]];
        ++out[2 * stride + bins[j + 2]];
        ++out[3 * stride + bins[j + 3]];
      }
    for (; j < m; ++j) ++out[bins[j]];
    since_flush += m;
    if (since_flush >= flush_samples) flush();
  }
  flush();
}

}  // namespace

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
    count_range(x, 0, n, bin_of, num_bins, out);
    return;
  }
  constexpr std::int64_t private_limit = std::int64_t(1) << 24;  // counters, all workers
  if (num_bins * workers <= private_limit) {
    std::vector<std::uint64_t> priv(static_cast<std::size_t>(num_bins * workers), 0);
#pragma omp parallel num_threads(workers)
    {
      const int t = omp_get_thread_num(), team = omp_get_num_threads();
      const std::int64_t share = (n + team - 1) / team;
      const std::int64_t begin = std::min(n, t * share), end = std::min(n, begin + share);
      if (begin < end) count_range(x, begin, end, bin_of, num_bins, priv.data() + t * num_bins);
#pragma omp barrier
      // Merge: each bin sums its workers' counts (a team smaller than asked left zeros).
#pragma omp for schedule(static)
      for (std::int64_t b = 0; b < num_bins; ++b) {
        std::uint64_t s = 0;
        for (int w = 0; w < team; ++w) s += priv[static_cast<std::size_t>(w * num_bins + b)];
        out[b] = s;
      }
    }
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
