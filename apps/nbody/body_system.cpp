// The checks both backends share, and the factory that picks one.
#include "body_system.hpp"

#include <cmath>
#include <string>

#include "parprim/detail/validate.hpp"
#include "systems.hpp"

namespace parprim::nbody {

namespace {

template <class T>
std::string show(T v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

}  // namespace

template <class T>
void body_system<T>::check_bodies(const body_set<T>& b, const char* who) const {
  detail::checker c(ctx_, who);
  const std::int64_t n = b.size();
  if (n < 1) c.fail("the body set is empty (n must be at least 1)");
  if (n > (std::int64_t(1) << 30))
    c.fail("n=" + std::to_string(n) + " bodies is more than 2^30 (the kernels index with 32-bit ints)");
  if (n != n_ && n_ != 0)
    c.fail("the body set has " + std::to_string(n) + " bodies but the system holds " + std::to_string(n_));
  const char* names[] = {"x", "y", "z", "vx", "vy", "vz"};
  const std::vector<T>* fields[] = {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz};
  for (int f = 0; f < 6; ++f)
    if (fields[f]->size() != b.mass.size())
      c.fail(std::string(names[f]) + ".size()=" + std::to_string(fields[f]->size()) +
             " but mass.size()=" + std::to_string(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const T m = b.mass[std::size_t(i)];
    if (!std::isfinite(m) || m < 0)
      c.fail("mass[" + std::to_string(i) + "]=" + show(m) + " is not a finite, non-negative number");
    for (int f = 0; f < 6; ++f)
      if (!std::isfinite((*fields[f])[std::size_t(i)]))
        c.fail(std::string(names[f]) + "[" + std::to_string(i) + "]=" + show((*fields[f])[std::size_t(i)]) +
               " is not finite");
  }
}

template <class T>
void body_system<T>::check_step(std::int64_t steps, T dt) const {
  detail::checker c(ctx_, "nbody::body_system::advance");
  if (steps < 0) c.fail("steps=" + std::to_string(steps) + " is negative");
  if (!(dt > 0) || !std::isfinite(dt)) c.fail("dt=" + show(dt) + " must be a positive, finite time step");
}

template <class T>
std::unique_ptr<body_system<T>> make_body_system(const context& ctx, const body_set<T>& bodies, T eps) {
  detail::checker c(ctx, "nbody::make_body_system");
  if (!(eps >= 0) || !std::isfinite(eps))
    c.fail("eps=" + show(eps) + " must be a finite softening length >= 0");
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return make_cuda_body_system<T>(ctx, bodies, eps);
#endif
  return make_cpu_body_system<T>(ctx, bodies, eps);
}

template class body_system<float>;
template class body_system<double>;
template std::unique_ptr<body_system<float>> make_body_system<float>(const context&, const body_set<float>&, float);
template std::unique_ptr<body_system<double>> make_body_system<double>(const context&, const body_set<double>&,
                                                                       double);

}  // namespace parprim::nbody
