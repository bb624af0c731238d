// Front end of morton_encode: validate the points and the box, turn the box into per-axis
// scales (in double, once), dispatch.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "core/morton_code.hpp"
#include "parprim/detail/validate.hpp"

namespace parprim {

namespace {

template <class T>
std::string show(T v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

// Cells per unit length along one axis: (2^b / 2) / (hi/2 - lo/2), so that a box spanning
// most of T's range does not overflow; a zero extent gives scale 0 (every
// point in cell 0).
template <class T, class C>
T cells_per_unit(T lo, T hi) {
  const double half_extent = double(hi) / 2 - double(lo) / 2;
  if (!(half_extent > 0)) return T(0);
  const double scale = std::ldexp(1.0, morton_bits_per_axis<C>() - 1) / half_extent;
  // A scale beyond T's range (a tiny extent in float) is clamped: cells are then finer than
  // T can resolve, which only means every distinct coordinate gets its own cell or the top.
  return std::isfinite(T(scale)) ? T(scale) : std::numeric_limits<T>::max();
}

}  // namespace

template <class T>
morton_box<T> morton_box<T>::cube(const T (&lo)[3], const T (&hi)[3]) {
  double edge = 0;
  for (int a = 0; a < 3; ++a) edge = std::max(edge, double(hi[a]) - double(lo[a]));
  morton_box<T> b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = lo[a];
    // lo + edge rounded up so that the cube still contains hi on every axis.
    const T top = T(double(lo[a]) + edge);
    b.hi[a] = std::isfinite(top) ? std::max(top, hi[a]) : std::numeric_limits<T>::max();
  }
  return b;
}

template <class T, class C>
void morton_encode(const context& ctx, span<const T> x, span<const T> y, span<const T> z,
                   const morton_box<T>& box, span<C> codes) {
  detail::checker c(ctx, "morton_encode");
  c.valid(x, "x");
  c.valid(y, "y");
  c.valid(z, "z");
  c.valid(codes, "codes");
  c.same_size(x.size(), "x", y.size(), "y");
  c.same_size(x.size(), "x", z.size(), "z");
  c.same_size(x.size(), "x", codes.size(), "codes");
  c.no_overlap(x, "x", codes, "codes", false);
  c.no_overlap(y, "y", codes, "codes", false);
  c.no_overlap(z, "z", codes, "codes", false);
  const char* axis[] = {"x", "y", "z"};
  for (int a = 0; a < 3; ++a) {
    const std::string at = std::string("box.lo[") + std::to_string(a) + "]";
    if (!std::isfinite(box.lo[a]) || !std::isfinite(box.hi[a]))
      c.fail("box (" + std::string(axis[a]) + " axis) lo=" + show(box.lo[a]) + " hi=" + show(box.hi[a]) +
             " must be finite");
    if (box.hi[a] < box.lo[a])
      c.fail("box (" + std::string(axis[a]) + " axis) lo=" + show(box.lo[a]) + " is above hi=" + show(box.hi[a]));
  }
  if (x.size() == 0) return;
  detail::morton_scale<T> s;
  for (int a = 0; a < 3; ++a) {
    s.lo[a] = box.lo[a];
    s.per_unit[a] = cells_per_unit<T, C>(box.lo[a], box.hi[a]);
  }
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::morton_encode<T, C>(ctx, x, y, z, s, codes);
#endif
  cpu_backend::morton_encode<T, C>(ctx, x, y, z, s, codes);
}

template struct morton_box<float>;
template struct morton_box<double>;

#define PARPRIM_INSTANTIATE(T, C)                                                          \
  template void morton_encode<T, C>(const context&, span<const T>, span<const T>, span<const T>, \
                                    const morton_box<T>&, span<C>);
PARPRIM_INSTANTIATE(float, std::uint32_t)
PARPRIM_INSTANTIATE(float, std::uint64_t)
PARPRIM_INSTANTIATE(double, std::uint32_t)
PARPRIM_INSTANTIATE(double, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
