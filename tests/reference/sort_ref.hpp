// Sequential oracles for radix sort: std::stable_sort with the documented key order.
//
// key_less is written from the documented order, not from the library's bit tricks:
//   numbers by value, -0.0 before +0.0, then NaNs (clear sign bit first, by bits; then set
//   sign bit, by bits descending, as the order-preserving image places them).
// ordered_image gives the documented unsigned image directly (piecewise: negative floats map
// to C - bits, the rest to bits + D), for oracles that sort on a bit range of it; a test
// checks that the two agree.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "parprim/sort.hpp"  // f16

namespace parprim::reference {

template <class K>
using image_t = std::conditional_t<
    sizeof(K) == 1, std::uint8_t,
    std::conditional_t<sizeof(K) == 2, std::uint16_t,
                       std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>>;

template <class K>
inline constexpr bool is_float_key_v = std::is_floating_point_v<K> || std::is_same_v<K, f16>;

// The value of an IEEE binary16 bit pattern (NaNs as NaN), decoded from the format's
// definition: sign, 5 exponent bits (bias 15), 10 mantissa bits, subnormals below exponent 1.
inline double f16_value(f16 h) {
  const int sign = h.bits >> 15, exponent = (h.bits >> 10) & 31, mantissa = h.bits & 1023;
  double v;
  if (exponent == 31) v = mantissa ? std::nan("") : INFINITY;
  else if (exponent == 0) v = std::ldexp(double(mantissa), -24);
  else v = std::ldexp(double(1024 + mantissa), exponent - 25);
  return sign ? -v : v;
}

template <class K>
image_t<K> bits_of(K k) {
  image_t<K> u;
  std::memcpy(&u, &k, sizeof(K));
  return u;
}

// Strict weak order of the ascending sort.
template <class K>
bool key_less(K a, K b) {
  if constexpr (std::is_same_v<K, f16>) {
    const double x = f16_value(a), y = f16_value(b);
    auto cls = [](f16 h, double v) { return std::isnan(v) ? ((h.bits >> 15) ? 2 : 1) : 0; };
    int ca = cls(a, x), cb = cls(b, y);
    if (ca != cb) return ca < cb;
    if (ca == 0) return x < y || (x == y && (a.bits >> 15) && !(b.bits >> 15));
    if (ca == 1) return a.bits < b.bits;
    return a.bits > b.bits;
  } else if constexpr (std::is_floating_point_v<K>) {
    auto cls = [](K x) { return std::isnan(x) ? (std::signbit(x) ? 2 : 1) : 0; };
    int ca = cls(a), cb = cls(b);
    if (ca != cb) return ca < cb;
    if (ca == 0) return a < b || (a == b && std::signbit(a) && !std::signbit(b));
    if (ca == 1) return bits_of(a) < bits_of(b);
    return bits_of(a) > bits_of(b);
  } else {
    return a < b;
  }
}

// The documented unsigned image (parprim/sort.hpp); descending inverts it.
template <class K>
image_t<K> ordered_image(K k, bool descending) {
  using U = image_t<K>;
  const U sign = U(U(1) << (sizeof(U) * 8 - 1));
  U u = bits_of(k);
  U image;
  if constexpr (is_float_key_v<K>) {
    const U neg_inf = sizeof(U) == 2   ? U(0xFC00u)
                      : sizeof(U) == 4 ? U(0xFF800000u)
                                       : U(0xFFF0000000000000ull);
    const U pos_shift = sizeof(U) == 2   ? U(0x7C01u)
                        : sizeof(U) == 4 ? U(0x7F800001u)
                                         : U(0x7FF0000000000001ull);
    image = (u & sign) ? U(neg_inf - u) : U(u + pos_shift);
  } else if constexpr (std::is_signed_v<K>) {
    image = U(u ^ sign);
  } else {
    image = u;
  }
  return descending ? U(~image) : image;
}

// Bits [begin, end) of the image.
template <class K>
image_t<K> image_field(K k, bool descending, int begin, int end) {
  using U = image_t<K>;
  const int width = end - begin;
  U mask = width >= int(sizeof(U) * 8) ? U(~U(0)) : U((U(1) << width) - 1);
  return U(ordered_image(k, descending) >> begin) & mask;
}

// The permutation a stable sort applies: result[j] = index of the key that lands at j.
// Full bit range: ordered by key_less; otherwise by the bit field of the image.
template <class K>
std::vector<std::int64_t> stable_sort_permutation(const std::vector<K>& keys, bool descending,
                                                  int begin_bit, int end_bit) {
  std::vector<std::int64_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), std::int64_t(0));
  const bool full = begin_bit == 0 && end_bit == int(sizeof(K) * 8);
  if (full) {
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
      return descending ? key_less(keys[b], keys[a]) : key_less(keys[a], keys[b]);
    });
  } else {
    std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
      return image_field(keys[a], descending, begin_bit, end_bit) <
             image_field(keys[b], descending, begin_bit, end_bit);
    });
  }
  return idx;
}

}  // namespace parprim::reference
