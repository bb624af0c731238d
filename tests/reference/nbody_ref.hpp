// Sequential N-body oracle: softened all-pairs accelerations and potentials in double
// precision, from bodies of any precision (converted exactly to double first).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace parprim::reference {

// a_i = sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^(3/2)
template <class Bodies>
std::array<double, 3> nbody_acceleration(const Bodies& b, double eps, std::int64_t i) {
  const std::size_t n = b.mass.size(), ii = static_cast<std::size_t>(i);
  const double xi = b.x[ii], yi = b.y[ii], zi = b.z[ii], e2 = eps * eps;
  double ax = 0, ay = 0, az = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j == ii) continue;
    const double dx = double(b.x[j]) - xi, dy = double(b.y[j]) - yi, dz = double(b.z[j]) - zi;
    const double r2 = dx * dx + dy * dy + dz * dz + e2;
    if (r2 == 0) continue;
    const double s = double(b.mass[j]) / (r2 * std::sqrt(r2));
    ax += dx * s, ay += dy * s, az += dz * s;
  }
  return {ax, ay, az};
}

// phi_i = -sum_{j != i} m_j / sqrt(|x_j - x_i|^2 + eps^2)
template <class Bodies>
double nbody_potential(const Bodies& b, double eps, std::int64_t i) {
  const std::size_t n = b.mass.size(), ii = static_cast<std::size_t>(i);
  double p = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j == ii) continue;
    const double dx = double(b.x[j]) - double(b.x[ii]), dy = double(b.y[j]) - double(b.y[ii]);
    const double dz = double(b.z[j]) - double(b.z[ii]);
    const double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
    if (r2 > 0) p -= double(b.mass[j]) / std::sqrt(r2);
  }
  return p;
}

// Relative error of an acceleration field against the oracle over bodies `sample`:
//   field: sqrt(sum |a - a_ref|^2 / sum |a_ref|^2)
//   worst: max |a_i - a_ref,i| / |a_ref,i| (one body deep in a cancelling sum can be large)
struct accel_error {
  double field = 0, worst = 0;
};

template <class Bodies, class Accels>
accel_error nbody_accel_error(const Bodies& b, const Accels& a, double eps,
                              const std::vector<std::int64_t>& sample) {
  double num = 0, den = 0, worst = 0;
  for (auto i : sample) {
    const auto r = nbody_acceleration(b, eps, i);
    const std::size_t k = static_cast<std::size_t>(i);
    const double ex = double(a.x[k]) - r[0], ey = double(a.y[k]) - r[1], ez = double(a.z[k]) - r[2];
    const double e2 = ex * ex + ey * ey + ez * ez, r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
    num += e2, den += r2;
    if (r2 > 0) worst = std::max(worst, std::sqrt(e2 / r2));
    else if (e2 > 0) worst = INFINITY;
  }
  accel_error e;
  e.field = den > 0 ? std::sqrt(num / den) : (num > 0 ? INFINITY : 0.0);
  e.worst = worst;
  return e;
}

// Every body when n is small, else `count` bodies spread evenly over the index range.
inline std::vector<std::int64_t> nbody_sample(std::int64_t n, std::int64_t count = 256) {
  std::vector<std::int64_t> s;
  if (n <= count) {
    for (std::int64_t i = 0; i < n; ++i) s.push_back(i);
  } else {
    for (std::int64_t k = 0; k < count; ++k) s.push_back(k * (n - 1) / (count - 1));
  }
  return s;
}

}  // namespace parprim::reference
