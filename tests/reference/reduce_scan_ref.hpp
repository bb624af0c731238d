// Sequential oracles for reduce and scan: the "CPU" column of the course's tables.
//
// Integers are combined in their own type with wrapping (two's complement) arithmetic, the
// contract of the library. Floats are combined in double (`acc_t`), so the oracle is more
// precise than any float backend and tests compare against it with a tolerance.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "parprim/ops.hpp"

namespace parprim::reference {

template <class T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class A>
A combine(op o, A a, A b) {
  switch (o) {
    case op::min: return b < a ? b : a;
    case op::max: return a < b ? b : a;
    case op::plus:
    default:
      if constexpr (std::is_integral_v<A>) {
        using U = std::make_unsigned_t<A>;
        return static_cast<A>(static_cast<U>(a) + static_cast<U>(b));
      } else {
        return a + b;
      }
  }
}

template <class A>
A identity(op o) {
  switch (o) {
    case op::min:
      return std::is_floating_point_v<A> ? std::numeric_limits<A>::infinity()
                                         : std::numeric_limits<A>::max();
    case op::max:
      return std::is_floating_point_v<A> ? -std::numeric_limits<A>::infinity()
                                         : std::numeric_limits<A>::lowest();
    case op::plus:
    default: return A(0);
  }
}

template <class T>
acc_t<T> reduce(const T* x, std::int64_t n, op o) {
  acc_t<T> acc = identity<acc_t<T>>(o);
  for (std::int64_t i = 0; i < n; ++i) acc = combine<acc_t<T>>(o, acc, x[i]);
  return acc;
}

// The three forms of scan (parprim/scan.hpp): exclusive from init, inclusive, inclusive from init.
enum class scan_form { exclusive, inclusive, inclusive_from_init };

// The course's sequential scan, generalized to any op and to every form.
template <class T>
std::vector<acc_t<T>> scan(const T* x, std::int64_t n, op o, scan_form form, T init) {
  std::vector<acc_t<T>> out(static_cast<std::size_t>(n));
  const bool inclusive = form != scan_form::exclusive;
  acc_t<T> acc = form == scan_form::inclusive ? identity<acc_t<T>>(o) : acc_t<T>(init);
  for (std::int64_t i = 0; i < n; ++i) {
    if (inclusive) {
      acc = combine<acc_t<T>>(o, acc, x[i]);
      out[static_cast<std::size_t>(i)] = acc;
    } else {
      out[static_cast<std::size_t>(i)] = acc;
      acc = combine<acc_t<T>>(o, acc, x[i]);
    }
  }
  return out;
}

template <class T>
std::vector<acc_t<T>> scan(const T* x, std::int64_t n, op o, bool inclusive, T init) {
  return scan(x, n, o, inclusive ? scan_form::inclusive : scan_form::exclusive, init);
}

// The same scan in the element type itself: what `parprim bench` times as the sequential CPU
// baseline (the seed's Table 2 "CPU" column).
template <class T>
void sequential_exclusive_sum(const T* x, T* y, std::int64_t n) {
  T acc = T(0);
  for (std::int64_t i = 0; i < n; ++i) {
    T v = x[i];
    y[i] = acc;
    acc = static_cast<T>(acc + v);
  }
}

template <class T>
void sequential_inclusive_sum(const T* x, T* y, std::int64_t n) {
  T acc = T(0);
  for (std::int64_t i = 0; i < n; ++i) {
    acc = static_cast<T>(acc + x[i]);
    y[i] = acc;
  }
}

template <class T>
T sequential_sum(const T* x, std::int64_t n) {
  T acc = T(0);
  for (std::int64_t i = 0; i < n; ++i) acc = static_cast<T>(acc + x[i]);
  return acc;
}

}  // namespace parprim::reference
