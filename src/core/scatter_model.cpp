// The multi-pass scatter's cost model: evaluating T(k), choosing k, caching the measurements.
#include "core/scatter_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <utility>

#include "parprim/detail/validate.hpp"
#include "cpu/gather_scatter_backend.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/gather_scatter_backend.hpp"
#endif

namespace parprim {

namespace detail {

double scatter_bandwidths::rand_at(double bytes, int value_bytes) const {
  const std::vector<double>& r = value_bytes == 8 ? rand8 : rand4;
  const std::size_t m = region_bytes.size();
  if (m == 0) return seq_bytes_per_s;
  if (bytes <= region_bytes.front()) return r.front();
  if (bytes >= region_bytes.back()) return r.back();
  // Linear in log(S) between the two measured sizes around `bytes`.
  std::size_t j = 1;
  while (region_bytes[j] < bytes) ++j;
  double x0 = std::log(region_bytes[j - 1]), x1 = std::log(region_bytes[j]);
  double t = (std::log(bytes) - x0) / (x1 - x0);
  return r[j - 1] + t * (r[j] - r[j - 1]);
}

const scatter_bandwidths& bandwidths_of(const context& ctx) {
  // One measurement per (backend, device) for the life of the process; entries are never
  // erased, so the returned references stay valid.
  static std::mutex mutex;
  static std::map<std::pair<int, int>, scatter_bandwidths> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(static_cast<int>(ctx.kind()), ctx.device());
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  scatter_bandwidths bw;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) bw = cuda_backend::measure_scatter_bandwidths(ctx);
  else
#endif
    bw = cpu_backend::measure_scatter_bandwidths(ctx);
  return cache.emplace(key, std::move(bw)).first->second;
}

double sequential_seconds(const scatter_bandwidths& bw, double n, int value_bytes, int index_bytes,
                          int k) {
  const double R = n * value_bytes, L = n * index_bytes;
  if (k <= 1) return bw.launch_s + (L + R) / bw.seq_bytes_per_s;
  if (bw.binned) {
    // Counting sweep (L), binning sweep (reads L + R, writes L + R), scatter of the bins (L + R);
    // launches: the counters' memset and three kernels.
    return 4 * bw.launch_s + (L + 3 * (L + R)) / bw.seq_bytes_per_s;
  }
  const double per_sector = 32.0 / value_bytes;
  const double touched = 1.0 - std::pow(1.0 - 1.0 / k, per_sector);
  return k * bw.launch_s + (L + R * touched) * k / bw.seq_bytes_per_s;
}

scatter_plan plan_with(const scatter_bandwidths& bw, std::int64_t n, std::int64_t out_size,
                       int value_bytes, int index_bytes, int passes) {
  const double R = double(n) * value_bytes;
  const double out_bytes = std::max(1.0, double(out_size) * value_bytes);
  auto evaluate = [&](int k) {
    scatter_plan p;
    p.passes = k;
    p.binned = bw.binned && k > 1;
    p.slice_bytes = out_bytes / k;
    p.seq_gbps = bw.seq_bytes_per_s / 1e9;
    p.rand_gbps = bw.rand_at(p.slice_bytes, value_bytes) / 1e9;
    double seconds = sequential_seconds(bw, double(n), value_bytes, index_bytes, k) +
                     R / bw.rand_at(p.slice_bytes, value_bytes);
    p.predicted_ms = seconds * 1e3;
    return p;
  };
  if (passes > 0) return evaluate(passes);
  scatter_plan best = evaluate(1);
  for (int k = 2; k <= max_scatter_passes; ++k) {
    scatter_plan p = evaluate(k);
    if (p.predicted_ms < best.predicted_ms) best = p;
  }
  return best;
}

}  // namespace detail

scatter_plan plan_scatter(const context& ctx, std::int64_t n, std::int64_t out_size,
                          int value_bytes, int index_bytes, int passes) {
  detail::checker c(ctx, "plan_scatter");
  if (n < 0) c.fail("n=" + std::to_string(n) + " is negative");
  if (out_size < 0) c.fail("out_size=" + std::to_string(out_size) + " is negative");
  if (value_bytes != 4 && value_bytes != 8)
    c.fail("value_bytes=" + std::to_string(value_bytes) + " but must be 4 or 8");
  if (index_bytes != 4 && index_bytes != 8)
    c.fail("index_bytes=" + std::to_string(index_bytes) + " but must be 4 or 8");
  if (passes < 0 || passes > max_scatter_passes)
    c.fail("passes=" + std::to_string(passes) + " is outside [0, " +
           std::to_string(max_scatter_passes) + "]");
  return detail::plan_with(detail::bandwidths_of(ctx), n, out_size, value_bytes, index_bytes, passes);
}

}  // namespace parprim
