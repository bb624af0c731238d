// `parprim bench histogram`: even-bin histograms against CUB DeviceHistogram::HistogramEven
// (GPU) or a plain sequential loop (CPU).
//
// Rows: 256 bins of u32 random bits over [0, 2^32 - 1) by size (the headline at 2^28); the
// same with all samples equal (every increment on one bin); f32 in [0, 1); and 4096 and
// 65536 bins (the largest privatized count and the global-atomics path).
//
// Every row's counts (poisoned with 0xA5 bytes before the timed calls) are copied back after
// them and must equal, bin for bin: CUB's on the GPU for integer samples (CUB defines integer
// bins as we do), the plain sequential loop's for f32 samples on the GPU (CUB documents no
// rounding of float bins; the loop computes the formula parprim documents, in f32 as we do),
// and the sequential loop's (the yardstick) on the CPU. Figure "mismatch_vs_yardstick", 0 or 1,
// on both backends.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/histogram.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_histogram.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// A plain sequential loop: the textbook bin formula, one sample at a time. The CPU rows'
// yardstick, and what the GPU's f32 rows must equal.
template <class T>
void sequential_histogram(const T* x, std::int64_t n, std::uint64_t* h, std::int64_t bins, T lower, T upper) {
  for (std::int64_t b = 0; b < bins; ++b) h[b] = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const T s = x[i];
    if (!(s >= lower && s < upper)) continue;
    std::int64_t b;
    if constexpr (std::is_floating_point_v<T>) {
      b = static_cast<std::int64_t>((s - lower) * (T(bins) / (upper - lower)));
      if (b >= bins) b = bins - 1;
    } else {
      b = static_cast<std::int64_t>(std::uint64_t(s - lower) * std::uint64_t(bins) / std::uint64_t(upper - lower));
    }
    ++h[b];
  }
}

template <class T>
void measure(session& s, table& t, const std::string& variant, const std::vector<T>& host, std::int64_t bins,
             T lower, T upper) {
  const std::int64_t n = static_cast<std::int64_t>(host.size());
  auto x = buffer<T>::from_host(s.ctx(), host);
  buffer<std::uint64_t> out(s.ctx(), bins);
  out.fill_bytes(0xA5);  // every bin is overwritten: a call that writes nothing cannot pass
  const double ms = s.time_ms([&] { histogram<T>(s.ctx(), x, out, bins, lower, upper); });
  const std::vector<std::uint64_t> ours = out.to_host();
  double yard = nan;
  std::string yard_name = "sequential";
  std::vector<std::uint64_t> want(static_cast<std::size_t>(bins));  // the counts ours must equal
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_name = "cub";
    buffer<unsigned> counts(s.ctx(), bins);
    yard = yardstick::cub_histogram_even_ms<T>(s, x.data(), n, static_cast<int>(bins), lower, upper, counts.data());
    if constexpr (std::is_integral_v<T>) {
      const std::vector<unsigned> theirs = counts.to_host();
      std::copy(theirs.begin(), theirs.end(), want.begin());
    } else {
      sequential_histogram(host.data(), n, want.data(), bins, lower, upper);
    }
  }
#endif
  if (!s.on_gpu())
    yard = s.time_host_ms([&] { sequential_histogram(host.data(), n, want.data(), bins, lower, upper); });
  const bool agree = ours == want;
  row r;
  r.primitive = "histogram";
  r.variant = variant + "/bins=" + std::to_string(bins);
  r.type = type_name<T>();
  r.n = n;
  r.ms = ms;
  r.gbps = double(n) * sizeof(T) / (ms * 1e6);
  r.yardstick = yard_name;
  r.yardstick_ms = yard;
  r.extra["copy_gbps"] = s.copy_gbps();
  r.extra["gsamples_per_s"] = double(n) / (ms * 1e6);
  r.extra["pct_of_copy"] = 100.0 * r.gbps / s.copy_gbps();
  r.extra["mismatch_vs_yardstick"] = agree ? 0 : 1;
  s.add(r);
  t.add({variant, type_name<T>(), fmt_int(bins), fmt_int(n), fmt(ms, 4), fmt(r.gbps, 0),
         fmt(r.extra["pct_of_copy"], 1), fmt(double(n) / (ms * 1e6), 1), fmt(yard, 4), fmt(yard / ms, 2),
         agree ? "yes" : "NO"});
}

void run_histogram(session& s) {
  const std::string yard = s.on_gpu() ? "CUB" : "sequential";
  table t("histogram (even bins) on " + s.ctx().name() + " vs " + yard + " (copy " + fmt(s.copy_gbps(), 0) +
              " GB/s; GB/s counts samples read)",
          {"samples", "type", "bins", "n", "ms", "GB/s", "% of copy", "Gsamples/s", yard + " ms", "vs " + yard, "same counts"});
  const std::vector<std::int64_t> defaults =
      s.on_gpu() ? std::vector<std::int64_t>{std::int64_t(1) << 20, std::int64_t(1) << 24, std::int64_t(1) << 28}
                 : std::vector<std::int64_t>{std::int64_t(1) << 20, std::int64_t(1) << 24};
  const auto sizes = s.sizes_or(defaults, 4);
  const std::uint32_t top = std::numeric_limits<std::uint32_t>::max();
  for (std::int64_t n : sizes)
    measure<std::uint32_t>(s, t, "uniform", random_data<std::uint32_t>(n, 21), 256, 0u, top);
  if (!sizes.empty()) {
    const std::int64_t n = sizes.back();
    measure<std::uint32_t>(s, t, "all equal", std::vector<std::uint32_t>(static_cast<std::size_t>(n), 0x12345678u),
                           256, 0u, top);
    measure<float>(s, t, "uniform [0,1)", random_data<float>(n, 22), 256, 0.f, 1.f);
    auto x = random_data<std::uint32_t>(n, 23);
    measure<std::uint32_t>(s, t, "uniform", x, 4096, 0u, top);
    measure<std::uint32_t>(s, t, "uniform", x, 65536, 0u, top);
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("histogram", "histogram (even bins) vs CUB HistogramEven: 256 bins by size, skew, f32, more bins",
                    31, run_histogram);

}  // namespace parprim::bench
