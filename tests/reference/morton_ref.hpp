// Sequential Morton-code oracle: quantize as the header documents (cells per unit length
// computed in double, the product (v - lo) * scale rounded in T), then interleave one bit at a
// time (no shift-and-mask tricks), x highest.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

namespace parprim::reference {

// The cell of v on an axis [lo, hi] cut into 2^bits cells; points outside go to the nearest
// end cell, NaN to cell 0, a zero-length axis to cell 0.
template <class T>
std::uint64_t morton_cell_ref(T v, T lo, T hi, int bits) {
  const double cells = std::ldexp(1.0, bits);
  const double half_extent = double(hi) / 2 - double(lo) / 2;
  if (!(half_extent > 0)) return 0;
  const double scale = (cells / 2) / half_extent;
  const T per_unit = std::isfinite(T(scale)) ? T(scale) : std::numeric_limits<T>::max();
  const T q = (v - lo) * per_unit;
  if (std::isnan(q) || q <= T(0)) return 0;
  if (double(q) >= cells - 1) return static_cast<std::uint64_t>(cells - 1);
  return static_cast<std::uint64_t>(std::floor(double(q)));
}

inline std::uint64_t morton_interleave_ref(std::uint64_t qx, std::uint64_t qy, std::uint64_t qz, int bits) {
  std::uint64_t code = 0;
  for (int k = bits - 1; k >= 0; --k) {
    code = (code << 1) | ((qx >> k) & 1);
    code = (code << 1) | ((qy >> k) & 1);
    code = (code << 1) | ((qz >> k) & 1);
  }
  return code;
}

}  // namespace parprim::reference
