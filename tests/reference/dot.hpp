// Sequential oracle for dot: the sum accumulated in long double (far more precise than the
// f32 and f64 results it checks), plus the sum of |x[i] * y[i]| that error bounds scale with.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace parprim::reference {

struct dot_result {
  double value = 0;     // sum of x[i] * y[i], accumulated in long double
  double abs_sum = 0;   // sum of |x[i] * y[i]|
};

template <class T>
dot_result dot(const std::vector<T>& x, const std::vector<T>& y) {
  long double s = 0, a = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double p = static_cast<long double>(x[i]) * static_cast<long double>(y[i]);
    s += p;
    a += std::fabs(p);
  }
  return {static_cast<double>(s), static_cast<double>(a)};
}

}  // namespace parprim::reference
