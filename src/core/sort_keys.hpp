// Sort keys as unsigned bit patterns: what radix sort, split and their oracles agree on.
//
// Every key type is reduced to a 32- or 64-bit unsigned word (its raw bits) plus a key_kind,
// so the kernels exist only for u32 and u64 words; the kind and the order are run-time
// arguments. ordered_bits() maps the raw bits to an unsigned image whose unsigned order is
// the documented key order (parprim/sort.hpp):
//   unsigned  the bits themselves
//   signed    sign bit flipped: INT_MIN -> 0, -1 -> 0x7F..F, 0 -> 0x80..0
//   floating  sign-magnitude flip (negative: all bits inverted; positive: sign bit set), then
//             a rotation down by the number of negative NaN patterns (0x007FFFFF for f32),
//             which carries those NaNs from below -inf to the very top. Result:
//             -inf = 0 < ... < -0.0 < +0.0 < ... < +inf < +NaN... < -NaN...
//   descending: every bit of the image inverted afterwards.
// The map is a bijection, so sorts move raw keys and compute digits on the fly: no pass
// converts keys in memory, and keys come back bit for bit (NaN payloads included).
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::detail {

enum class key_kind : int { unsigned_int = 0, signed_int = 1, floating = 2 };

template <class K>
constexpr key_kind kind_of() {
  if constexpr (std::is_floating_point_v<K>) return key_kind::floating;
  else if constexpr (std::is_signed_v<K>) return key_kind::signed_int;
  else return key_kind::unsigned_int;
}

// The unsigned word with the same size as K.
template <class K>
using key_word_t = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;

template <class U>
PARPRIM_HD U ordered_bits(U raw, key_kind kind, bool descending) {
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  // Negative NaN patterns: exponent all ones, sign set, mantissa non-zero.
  constexpr U negative_nans = sizeof(U) == 4 ? U(0x007FFFFFu) : U(0x000FFFFFFFFFFFFFull);
  U k = raw;
  if (kind == key_kind::signed_int) {
    k = raw ^ sign;
  } else if (kind == key_kind::floating) {
    k = (raw & sign) ? U(~raw) : U(raw | sign);
    k = U(k - negative_nans);
  }
  return descending ? U(~k) : k;
}

// The inverse of ordered_bits: the raw bits whose ordered image is `image`.
template <class U>
PARPRIM_HD U original_bits(U image, key_kind kind, bool descending) {
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  constexpr U negative_nans = sizeof(U) == 4 ? U(0x007FFFFFu) : U(0x000FFFFFFFFFFFFFull);
  U k = descending ? U(~image) : image;
  if (kind == key_kind::signed_int) {
    k = k ^ sign;
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
  return static_cast<std::uint32_t>((k >> shift) & mask);
}

// A sort request with the key type erased (what the front end hands to a backend).
struct sort_request {
  void* keys = nullptr;
  void* values = nullptr;  // null for keys only
  std::int64_t n = 0;
  int key_bytes = 4;       // 4 or 8
  int value_bytes = 0;     // 0, 4 or 8
  key_kind kind = key_kind::unsigned_int;
  bool descending = false;
  int begin_bit = 0;       // resolved range, 0 <= begin_bit < end_bit <= 8 * key_bytes
  int end_bit = 32;
};

}  // namespace parprim::detail
