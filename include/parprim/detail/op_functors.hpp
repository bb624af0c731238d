// Operator functors shared by both backends: host and device callable.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "parprim/detail/generic.hpp"
#include "parprim/ops.hpp"

#if defined(__CUDACC__)
#define PARPRIM_HD __host__ __device__ __forceinline__
#else
#define PARPRIM_HD inline
#endif

namespace parprim::detail {

// Signed integers add, subtract and multiply through their unsigned type: overflow wraps
// (two's complement) on every backend instead of being undefined behaviour.
template <class T>
PARPRIM_HD T wrap_add(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}
template <class T>
PARPRIM_HD T wrap_sub(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
  } else {
    return a - b;
  }
}
template <class T>
PARPRIM_HD T wrap_mul(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return a * b;
  }
}

template <class T>
struct plus_op {
  PARPRIM_HD T operator()(T a, T b) const { return wrap_add(a, b); }
  static PARPRIM_HD T identity() { return T(0); }
};
// min/max pick the first operand on ties and are written with `<` only, so the result is the
// same on every backend for the same combining order.
template <class T>
struct min_op {
  PARPRIM_HD T operator()(T a, T b) const { return b < a ? b : a; }
  static PARPRIM_HD T identity() {
    if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
};
template <class T>
struct max_op {
  PARPRIM_HD T operator()(T a, T b) const { return a < b ? b : a; }
  static PARPRIM_HD T identity() {
    if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
};

}  // namespace parprim::detail

namespace parprim {

// The library's operators as functors, for the generic overloads:
//   parprim::reduce(ctx, in, 0.0f, parprim::plus<float>{})
// They carry an identity and are commutative, so reduce may use its reordering layouts.
template <class T>
using plus = detail::plus_op<T>;
template <class T>
using minimum = detail::min_op<T>;
template <class T>
using maximum = detail::max_op<T>;

template <class T>
struct is_commutative<detail::plus_op<T>> : std::true_type {};
template <class T>
struct is_commutative<detail::min_op<T>> : std::true_type {};
template <class T>
struct is_commutative<detail::max_op<T>> : std::true_type {};

}  // namespace parprim

namespace parprim::detail {

// The map of reduce and scan without a transform.
struct identity_map {
  template <class T>
  PARPRIM_HD T operator()(const T& x) const { return x; }
};

// Calls f(functor) with the functor for a run-time op.
template <class T, class F>
decltype(auto) with_op(op o, F&& f) {
  switch (o) {
    case op::min: return f(min_op<T>{});
    case op::max: return f(max_op<T>{});
    case op::plus:
    default: return f(plus_op<T>{});
  }
}

template <class T>
PARPRIM_HD T apply_unary(unary_op f, T x) {
  switch (f) {
    case unary_op::negate: return wrap_sub(T(0), x);
    case unary_op::abs:
      if constexpr (std::is_unsigned_v<T>) return x;
      else return x < T(0) ? wrap_sub(T(0), x) : x;
    case unary_op::square: return wrap_mul(x, x);
    case unary_op::identity:
    default: return x;
  }
}

template <class T>
PARPRIM_HD T apply_binary(binary_op f, T a, T b) {
  switch (f) {
    case binary_op::minus: return wrap_sub(a, b);
    case binary_op::multiply: return wrap_mul(a, b);
    case binary_op::min: return b < a ? b : a;
    case binary_op::max: return a < b ? b : a;
    case binary_op::plus:
    default: return wrap_add(a, b);
  }
}

// The precompiled transform's maps as callables for the generic bodies: with the op fixed at
// compile time (the CPU loop is then a plain vectorizable expression) or as a run-time value
// (one CUDA kernel per type; the branch is uniform and the loop memory-bound).
template <unary_op F>
struct unary_const {
  template <class T>
  PARPRIM_HD T operator()(T x) const { return apply_unary(F, x); }
};
template <binary_op F>
struct binary_const {
  template <class T>
  PARPRIM_HD T operator()(T a, T b) const { return apply_binary(F, a, b); }
};
template <class G>
void with_unary(unary_op f, G&& g) {
  switch (f) {
    case unary_op::negate: return g(unary_const<unary_op::negate>{});
    case unary_op::abs: return g(unary_const<unary_op::abs>{});
    case unary_op::square: return g(unary_const<unary_op::square>{});
    case unary_op::identity:
    default: return g(unary_const<unary_op::identity>{});
  }
}
template <class G>
void with_binary(binary_op f, G&& g) {
  switch (f) {
    case binary_op::minus: return g(binary_const<binary_op::minus>{});
    case binary_op::multiply: return g(binary_const<binary_op::multiply>{});
    case binary_op::min: return g(binary_const<binary_op::min>{});
    case binary_op::max: return g(binary_const<binary_op::max>{});
    case binary_op::plus:
    default: return g(binary_const<binary_op::plus>{});
  }
}
struct unary_fn {
  unary_op f;
  template <class T>
  PARPRIM_HD T operator()(T x) const { return apply_unary(f, x); }
};
struct binary_fn {
  binary_op f;
  template <class T>
  PARPRIM_HD T operator()(T a, T b) const { return apply_binary(f, a, b); }
};

}  // namespace parprim::detail
