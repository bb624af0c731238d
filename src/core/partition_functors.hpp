// Predicates and bucket functions, evaluated identically on both backends (host and device
// callable), so copy_if, partition and split give the same answer everywhere.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD
#include "core/sort_keys.hpp"
#include "parprim/partition.hpp"

namespace parprim::detail {

template <class T>
PARPRIM_HD key_word_t<T> raw_bits(T x) {
  key_word_t<T> u;
  if constexpr (std::is_same_v<T, key_word_t<T>>) {
    u = x;
  } else {
    std::memcpy(&u, &x, sizeof(T));
  }
  return u;
}

// A predicate<T> with its compare as a plain int (kernel arguments stay trivially copyable).
template <class T>
struct predicate_eval {
  int cmp;
  T value;

  PARPRIM_HD bool operator()(T x) const {
    bool r;
    switch (static_cast<compare>(cmp)) {
      case compare::less: r = x < value; break;
      case compare::less_equal: r = x <= value; break;
      case compare::greater: r = x > value; break;
      case compare::greater_equal: r = x >= value; break;
      case compare::equal: r = x == value; break;
      case compare::not_equal: r = x != value; break;
      case compare::bits_set:
      default: r = (raw_bits(x) & raw_bits(value)) != 0; break;
    }
    return r;
  }
};

template <class T>
predicate_eval<T> make_predicate_eval(predicate<T> p) {
  return predicate_eval<T>{static_cast<int>(p.cmp), p.value};
}

// The even_range form's bucket of t = (x - lower) * scale: below 0 the first, from `last` on
// (and NaN) the last.
PARPRIM_HD std::uint32_t even_range_bucket(double t, double last) {
  if (t >= 0.0) return static_cast<std::uint32_t>(t < last ? t : last);
  return t < 0.0 ? 0u : static_cast<std::uint32_t>(last);  // NaN: last bucket
}

// A bucket_fn prepared for evaluation: the range form's scale is computed once on the host so
// that both backends do the same two double operations per element, (x - lower) * scale (no
// multiply-add can be formed from a subtract followed by a multiply).
struct bucket_eval {
  int key_bits;  // 1: key_bits form, 0: even_range form
  int shift;
  int width;
  int kind;  // key_kind, for key_bits
  double lower;
  double scale;
  std::int64_t buckets;

  template <class T>
  PARPRIM_HD std::uint32_t operator()(T x) const {
    if (key_bits) return key_field(raw_bits(x), static_cast<key_kind>(kind), false, shift, width);
    return range(x);
  }
  // The even_range form alone (the CPU backend picks the form once per call).
  template <class T>
  PARPRIM_HD std::uint32_t range(T x) const {
    return even_range_bucket((static_cast<double>(x) - lower) * scale, static_cast<double>(buckets - 1));
  }
};

template <class T>
bucket_eval make_bucket_eval(const bucket_fn& f) {
  bucket_eval e{};
  e.key_bits = f.how == bucket_fn::kind::key_bits ? 1 : 0;
  e.shift = f.shift;
  e.width = f.width;
  e.kind = static_cast<int>(kind_of<T>());
  e.lower = f.lower;
  e.buckets = f.buckets();
  e.scale = e.key_bits ? 0.0 : static_cast<double>(f.count) / (f.upper - f.lower);
  return e;
}

}  // namespace parprim::detail
