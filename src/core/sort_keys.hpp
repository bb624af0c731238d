// Sort keys as unsigned bit patterns: what radix sort, split and their oracles agree on.
//
// Every key type is reduced to an 8-, 16-, 32- or 64-bit unsigned word (its raw bits) plus a
// key_kind, so the kernels exist only for unsigned words; the kind and the order are run-time
// arguments. ordered_bits() maps the raw bits to an unsigned image whose unsigned order is
// the documented key order (parprim/sort.hpp):
//   unsigned  the bits themselves
//   signed    sign bit flipped: INT_MIN -> 0, -1 -> 0x7F..F, 0 -> 0x80..0
//   floating  sign-magnitude flip (negative: all bits inverted; positive: sign bit set), then
//             a rotation down by the number of negative NaN patterns (0x007FFFFF for f32,
//             0x03FF for f16: 2^mantissa_bits - 1),
//             which carries those NaNs from below -inf to the very top. Result:
//             -inf = 0 < ... < -0.0 < +0.0 < ... < +inf < +NaN... < -NaN...
//   descending: every bit of the image inverted afterwards.
// The map is a bijection, so sorts move raw keys and compute digits on the fly: no pass
// converts keys in memory, and keys come back bit for bit (NaN payloads included).
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD
#include "parprim/sort.hpp"                  // f16
#include "parprim/types.hpp"                 // type_name

namespace parprim::detail {

enum class key_kind : int { unsigned_int = 0, signed_int = 1, floating = 2 };

// Short names of every sort key type, for messages and test traces: type_name's six
// (parprim/types.hpp) plus i8 u8 i16 u16 f16.
template <class K>
constexpr const char* key_type_name() {
  if constexpr (std::is_same_v<K, std::int8_t>) return "i8";
  else if constexpr (std::is_same_v<K, std::uint8_t>) return "u8";
  else if constexpr (std::is_same_v<K, std::int16_t>) return "i16";
  else if constexpr (std::is_same_v<K, std::uint16_t>) return "u16";
  else if constexpr (std::is_same_v<K, f16>) return "f16";
  else return type_name<K>();
}

template <class K>
constexpr key_kind kind_of() {
  if constexpr (std::is_floating_point_v<K> || std::is_same_v<K, f16>) return key_kind::floating;
  else if constexpr (std::is_signed_v<K>) return key_kind::signed_int;
  else return key_kind::unsigned_int;
}

// The unsigned word with the same size as K.
template <class K>
using key_word_t = std::conditional_t<
    sizeof(K) == 1, std::uint8_t,
    std::conditional_t<sizeof(K) == 2, std::uint16_t,
                       std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>>;

// Negative NaN patterns of the IEEE format stored in U (exponent all ones, sign set, mantissa
// non-zero): 2^mantissa_bits - 1. One-byte words hold no float format.
template <class U>
PARPRIM_HD constexpr U negative_nan_count() {
  if constexpr (sizeof(U) == 2) return U(0x03FFu);
  else if constexpr (sizeof(U) == 4) return U(0x007FFFFFu);
  else if constexpr (sizeof(U) == 8) return U(0x000FFFFFFFFFFFFFull);
  else return U(0);
}

template <class U>
PARPRIM_HD U ordered_bits(U raw, key_kind kind, bool descending) {
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  constexpr U negative_nans = negative_nan_count<U>();
  U k = raw;
  if (kind == key_kind::signed_int) {
    k = U(raw ^ sign);
  } else if (kind == key_kind::floating) {
    k = (raw & sign) ? U(~raw) : U(raw | sign);
    k = U(k - negative_nans);
  }
  return descending ? U(~k) : k;
}

// The inverse of ordered_bits: the raw bits whose ordered image is `image`.
template <class U>
PARPRIM_HD U original_bits(U image, key_kind kind, bool descending) {
  constexpr U sign = U(U(1) << (sizeof(U) * 8 - 1));
  constexpr U negative_nans = negative_nan_count<U>();
  U k = descending ? U(~image) : image;
  if (kind == key_kind::signed_int) {
    k = U(k ^ sign);
  } else if (kind == key_kind::floating) {
    k = U(k + negative_nans);
    k = (k & sign) ? U(k ^ sign) : U(~k);
  }
  return k;
}

// Bits [shift, shift + width) of the ordered image, width in [1, 32].
template <class U>
PARPRIM_HD std::uint32_t key_field(U raw, key_kind kind, bool descending, int shift, int width) {
  U k = ordered_bits(raw, kind, descending);
  U mask = width >= int(sizeof(U) * 8) ? U(~U(0)) : U((U(1) << width) - 1);
  return static_cast<std::uint32_t>(U(k >> shift) & mask);
}

// A sort request with the key type erased (what the front end hands to a backend).
struct sort_request {
  void* keys = nullptr;
  void* values = nullptr;  // null for keys only
  std::int64_t n = 0;
  int key_bytes = 4;       // 1, 2, 4 or 8
  int value_bytes = 0;     // 0, 4 or 8
  key_kind kind = key_kind::unsigned_int;
  bool descending = false;
  int begin_bit = 0;       // resolved range, 0 <= begin_bit < end_bit <= 8 * key_bytes
  int end_bit = 32;
  // argsort: the caller's keys, read and left as they are; `keys` is then scratch for n keys
  // and the values (the indices) start as 0, 1, ..., n - 1, made by the sort, never read.
  const void* argsort_keys = nullptr;
};

// Calls sort(keys, values) with the request's raw words: U* keys of its key width and W*
// values of its value width (u32 with a null pointer when sorting keys only), so a backend
// writes one template and gets every width.
template <class Sort>
void with_words(const sort_request& r, Sort&& sort) {
  auto by_value = [&](auto* keys) {
    if (r.value_bytes == 8) sort(keys, static_cast<std::uint64_t*>(r.values));
    else sort(keys, static_cast<std::uint32_t*>(r.values));
  };
  switch (r.key_bytes) {
    case 1: return by_value(static_cast<std::uint8_t*>(r.keys));
    case 2: return by_value(static_cast<std::uint16_t*>(r.keys));
    case 4: return by_value(static_cast<std::uint32_t*>(r.keys));
    default: return by_value(static_cast<std::uint64_t*>(r.keys));
  }
}

}  // namespace parprim::detail
