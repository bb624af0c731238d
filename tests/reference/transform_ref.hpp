// Sequential oracles for transform.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/ops.hpp"

namespace parprim::reference {

template <class T>
T wrap(T a, T b, char how) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    U x = static_cast<U>(a), y = static_cast<U>(b);
    return static_cast<T>(how == '+' ? U(x + y) : how == '-' ? U(x - y) : U(x * y));
  } else {
    return how == '+' ? a + b : how == '-' ? a - b : a * b;
  }
}

template <class T>
T apply(unary_op f, T x) {
  switch (f) {
    case unary_op::identity: return x;
    case unary_op::negate: return wrap(T(0), x, '-');
    case unary_op::abs:
      if constexpr (std::is_signed_v<T>) return x < T(0) ? wrap(T(0), x, '-') : x;
      else return x;
    case unary_op::square: return wrap(x, x, '*');
  }
  return x;
}

template <class T>
T apply(binary_op f, T a, T b) {
  switch (f) {
    case binary_op::plus: return wrap(a, b, '+');
    case binary_op::minus: return wrap(a, b, '-');
    case binary_op::multiply: return wrap(a, b, '*');
    case binary_op::min: return b < a ? b : a;
    case binary_op::max: return a < b ? b : a;
  }
  return a;
}

}  // namespace parprim::reference
