// radix_sort and radix_sort_pairs: stable least-significant-digit radix sorts, in place.
//
// Keys of every precompiled type (i32 u32 i64 u64 f32 f64) are sorted by an order-preserving
// unsigned image of their bits, so the result is the ordinary numeric order with these rules
// for floats:
//   -inf < ... < -0.0 < +0.0 < ... < +inf < NaN   (ascending)
// -0.0 sorts before +0.0, and every NaN sorts after +inf (NaNs with a clear sign bit before
// those with a set one; NaNs keep their exact bits). Descending order is the exact reverse of that
// key order, so NaNs come FIRST in a descending sort. Equal keys keep their input order in
// both directions (stable), and values travel with their keys.
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
//               the same for all keys are skipped. On the CPU, a parallel LSD radix sort with
//               per-thread digit histograms. The default.
//
// Temporary memory: one extra copy of the keys (and values), plus small tables; taken from
// `ws` when given. Stream-ordered on CUDA (no host synchronization).
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

enum class sort_order { ascending, descending };
enum class sort_algorithm { split_1bit, onesweep };

const char* to_string(sort_order o) noexcept;
const char* to_string(sort_algorithm a) noexcept;

template <class K>
void radix_sort(const context& ctx, span<K> keys, sort_order order = sort_order::ascending,
                int begin_bit = 0, int end_bit = -1,
                sort_algorithm alg = sort_algorithm::onesweep, workspace* ws = nullptr);

// Values of any precompiled type (4- or 8-byte): values[i] moves with keys[i].
template <class K, class V>
void radix_sort_pairs(const context& ctx, span<K> keys, span<V> values,
                      sort_order order = sort_order::ascending, int begin_bit = 0,
                      int end_bit = -1, sort_algorithm alg = sort_algorithm::onesweep,
                      workspace* ws = nullptr);

}  // namespace parprim
