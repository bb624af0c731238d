// Force errors against exact double-precision sums over a sample of bodies.
#include "barnes_hut_accuracy.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

namespace parprim::nbody {

std::vector<std::int64_t> even_sample(std::int64_t n, std::int64_t sample) {
  std::vector<std::int64_t> out;
  const std::int64_t k = std::min(n, std::max<std::int64_t>(sample, 0));
  for (std::int64_t s = 0; s < k; ++s) out.push_back(s * n / k);
  return out;
}

template <class T>
force_error measure_force_error(body_system<T>& system, const std::vector<std::int64_t>& sample) {
  const body_set<T> b = system.state();
  const accel_set<T> a = system.accelerations();
  const double eps2 = double(system.softening()) * double(system.softening());
  const std::int64_t n = b.size(), k = static_cast<std::int64_t>(sample.size());
  std::vector<double> err(static_cast<std::size_t>(k), -1.0);
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t s = 0; s < k; ++s) {
    const std::size_t i = static_cast<std::size_t>(sample[std::size_t(s)]);
    double ex = 0, ey = 0, ez = 0;
    for (std::int64_t jj = 0; jj < n; ++jj) {
      const std::size_t j = static_cast<std::size_t>(jj);
      const double dx = double(b.x[j]) - b.x[i], dy = double(b.y[j]) - b.y[i], dz = double(b.z[j]) - b.z[i];
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      if (j == i || !(r2 > 0)) continue;
      const double f = double(b.mass[j]) / (r2 * std::sqrt(r2));
      ex += dx * f, ey += dy * f, ez += dz * f;
    }
    const double ref = std::sqrt(ex * ex + ey * ey + ez * ez);
    if (ref > 0)
      err[std::size_t(s)] = std::hypot(double(a.x[i]) - ex, double(a.y[i]) - ey, double(a.z[i]) - ez) / ref;
  }
  err.erase(std::remove(err.begin(), err.end(), -1.0), err.end());
  force_error r;
  r.sample = static_cast<std::int64_t>(err.size());
  if (err.empty()) return r;
  std::sort(err.begin(), err.end());
  auto at = [&](double q) { return err[std::min(err.size() - 1, static_cast<std::size_t>(q * double(err.size())))]; };
  double sum2 = 0;
  for (double e : err) sum2 += e * e;
  r.median = at(0.5), r.p99 = at(0.99), r.max = err.back();
  r.rms = std::sqrt(sum2 / double(err.size()));
  return r;
}

template force_error measure_force_error<float>(body_system<float>&, const std::vector<std::int64_t>&);
template force_error measure_force_error<double>(body_system<double>&, const std::vector<std::int64_t>&);

}  // namespace parprim::nbody
