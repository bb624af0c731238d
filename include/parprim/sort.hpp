// radix_sort and radix_sort_pairs: stable least-significant-digit radix sorts, in place;
// argsort: the stable sorting permutation of keys that stay as they are.
//
// Keys of every sort key type (i8 u8 i16 u16 f16 i32 u32 i64 u64 f32 f64; f16 is an IEEE
// binary16 bit pattern, see below) are sorted by an order-preserving unsigned image of their
// bits, so the result is the ordinary numeric order with these rules for floats:
//   -inf < ... < -0.0 < +0.0 < ... < +inf < NaN   (ascending)
// -0.0 sorts before +0.0, and every NaN sorts after +inf (NaNs with a clear sign bit before
// those with a set one; NaNs keep their exact bits). Descending order is the exact reverse of that
// key order, so NaNs come FIRST in a descending sort. Equal keys keep their input order in
// both directions (stable), and values travel with their keys.
//
// 1- and 2-byte keys take one and two 8-bit digit passes. Another type is a compile-time error
// naming these types; to sort structs by a field, use radix_sort_by_key (sort_by_key.hpp);
// to sort with a comparator, merge_sort (merge_sort.hpp).
//
// Bit range: only bits [begin_bit, end_bit) of that unsigned image take part (end_bit = -1
// means all bits of the key); keys equal on those bits keep their input order. For integers
// the image of an unsigned key is the key itself and a signed key has its sign bit flipped;
// for floats it is the usual sign-magnitude flip followed by a rotation that moves NaNs with
// the sign bit set above +NaN (see src/core/sort_keys.hpp). Descending order inverts every
// bit of the image before the range is taken.
//
// Algorithms:
//   split_1bit  the course's teaching version: one split per bit, exactly as in the slides
//               (e = bit is 0, f = exclusive scan of e, totalFalses = e[n-1] + f[n-1],
//               t[i] = i - f[i] + totalFalses, d[i] = b[i] ? t[i] : f[i], scatter to d).
//   onesweep    production: 8-bit digits. On CUDA, one pass computes every digit histogram,
//               then one kernel per digit ranks each tile, finds its place by decoupled
//               look-back and scatters (Adinets & Merrill's Onesweep); passes whose digit is
//               the same for all keys are skipped; 4096 keys or fewer are sorted by one
//               block in shared memory (one launch, the same digit ranking). On the CPU, a
//               parallel LSD radix sort with per-thread digit histograms. The default.
//
// Temporary memory: one extra copy of the keys (and values), plus small tables; taken from
// `ws` when given (argsort: two copies of the keys and one of the indices). Stream-ordered on
// CUDA (no host synchronization).
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

// An IEEE 754 binary16 (half-precision) number as its 16 raw bits, for sorting half floats
// in the float order above: fill `bits` from a __half (__half_as_ushort), a _Float16 or a
// file, sort, read them back. No arithmetic.
struct f16 {
  std::uint16_t bits;
};

enum class sort_order { ascending, descending };
enum class sort_algorithm { split_1bit, onesweep };

const char* to_string(sort_order o) noexcept;
const char* to_string(sort_algorithm a) noexcept;

template <class K>
inline constexpr bool is_sort_key_v =
    is_arithmetic_type_v<K> || std::is_same_v<K, std::int8_t> || std::is_same_v<K, std::uint8_t> ||
    std::is_same_v<K, std::int16_t> || std::is_same_v<K, std::uint16_t> || std::is_same_v<K, f16>;
template <class V>
inline constexpr bool is_sort_value_v = is_arithmetic_type_v<V>;

namespace detail {
// The precompiled sorts behind the checked entry points below.
template <class K>
void radix_sort_keys(const context& ctx, span<K> keys, sort_order order, int begin_bit,
                     int end_bit, sort_algorithm alg, workspace* ws);
template <class K, class V>
void radix_sort_keys_values(const context& ctx, span<K> keys, span<V> values, sort_order order,
                            int begin_bit, int end_bit, sort_algorithm alg, workspace* ws);
template <class K, class I>
void argsort_keys(const context& ctx, span<const K> keys, span<I> indices, sort_order order,
                  int begin_bit, int end_bit, workspace* ws);
}  // namespace detail

template <class K>
void radix_sort(const context& ctx, span<K> keys, sort_order order = sort_order::ascending,
                int begin_bit = 0, int end_bit = -1,
                sort_algorithm alg = sort_algorithm::onesweep, workspace* ws = nullptr) {
  static_assert(is_sort_key_v<K>,
                "parprim::radix_sort: keys must be i8, u8, i16, u16, f16, i32, u32, i64, u64, f32 "
                "or f64 (std::int8_t ... double, parprim::f16); sort other types with "
                "radix_sort_by_key or merge_sort");
  detail::radix_sort_keys<K>(ctx, keys, order, begin_bit, end_bit, alg, ws);
}

// Values of any precompiled type (i32 u32 i64 u64 f32 f64): values[i] moves with keys[i].
template <class K, class V>
void radix_sort_pairs(const context& ctx, span<K> keys, span<V> values,
                      sort_order order = sort_order::ascending, int begin_bit = 0,
                      int end_bit = -1, sort_algorithm alg = sort_algorithm::onesweep,
                      workspace* ws = nullptr) {
  static_assert(is_sort_key_v<K>,
                "parprim::radix_sort_pairs: keys must be i8, u8, i16, u16, f16, i32, u32, i64, "
                "u64, f32 or f64 (std::int8_t ... double, parprim::f16)");
  static_assert(is_sort_value_v<V>,
                "parprim::radix_sort_pairs: values must be i32, u32, i64, u64, f32 or f64; for "
                "other value types sort an index (u32) and gather");
  detail::radix_sort_keys_values<K, V>(ctx, keys, values, order, begin_bit, end_bit, alg, ws);
}

// The stable sorting permutation: keys[indices[0]], keys[indices[1]], ... is keys in the order
// radix_sort gives them (same order, bit range and direction), equal keys by ascending index.
// keys are not modified. Indices are i32, u32, i64 or u64 and must hold n - 1. The result is
// what radix_sort_pairs of a copy of the keys with the values 0, 1, ..., n - 1 gives, without
// making the values first: on CUDA the first Onesweep pass that runs reads the caller's keys
// and makes each key's index as it loads it (no pass over the indices before the sort, no
// copy of the keys).
template <class K, class I>
void argsort(const context& ctx, span<const K> keys, span<I> indices,
             sort_order order = sort_order::ascending, int begin_bit = 0, int end_bit = -1,
             workspace* ws = nullptr) {
  static_assert(is_sort_key_v<K>,
                "parprim::argsort: keys must be i8, u8, i16, u16, f16, i32, u32, i64, u64, f32 "
                "or f64 (std::int8_t ... double, parprim::f16)");
  static_assert(std::is_same_v<I, std::int32_t> || std::is_same_v<I, std::uint32_t> ||
                    std::is_same_v<I, std::int64_t> || std::is_same_v<I, std::uint64_t>,
                "parprim::argsort: indices must be i32, u32, i64 or u64");
  detail::argsort_keys<K, I>(ctx, keys, indices, order, begin_bit, end_bit, ws);
}

}  // namespace parprim
