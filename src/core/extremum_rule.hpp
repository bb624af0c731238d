// The order argmin and argmax pick by, shared by both backends (plain C++, host and device).
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::detail {

// Whether `a` at index ia beats `b` at index ib for argmax (Largest) or argmin: a NaN beats
// every number (NumPy's and PyTorch's rule), the lower index wins between equal values or two
// NaNs. A strict total order on (value, index) pairs, so every grouping of a reduction picks
// the same element: the backends' results are the same bits whatever their blocking.
template <bool Largest, class T>
PARPRIM_HD bool beats(T a, std::int64_t ia, T b, std::int64_t ib) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool a_nan = a != a, b_nan = b != b;
    if (a_nan || b_nan) return a_nan && (!b_nan || ia < ib);
  }
  if (a == b) return ia < ib;
  return Largest ? b < a : a < b;
}

}  // namespace parprim::detail
