// The Morton encoding of one point, shared by both backends (host and device callable), and
// the backends' entry points for morton_encode.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD
#include "parprim/context.hpp"
#include "parprim/morton.hpp"
#include "parprim/span.hpp"

namespace parprim::detail {

// What a kernel needs to quantize: the lower corner and cells per unit length on each axis,
// computed once on the host in double precision (so an extent that overflows T, or is zero,
// still gives a finite scale).
template <class T>
struct morton_scale {
  T lo[3];
  T per_unit[3];  // 2^b / (hi - lo); 0 for an axis of zero extent
};

// Spreads the low 10 or 21 bits of v so that bit k lands on bit 3k (the classic
// shift-and-mask sequence: each step moves half of the remaining groups apart).
PARPRIM_HD std::uint32_t morton_spread(std::uint32_t v) {
  v &= 0x3FFu;
  v = (v | (v << 16)) & 0x030000FFu;
  v = (v | (v << 8)) & 0x0300F00Fu;
  v = (v | (v << 4)) & 0x030C30C3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}
PARPRIM_HD std::uint64_t morton_spread(std::uint64_t v) {
  v &= 0x1FFFFFull;
  v = (v | (v << 32)) & 0x001F00000000FFFFull;
  v = (v | (v << 16)) & 0x001F0000FF0000FFull;
  v = (v | (v << 8)) & 0x100F00F00F00F00Full;
  v = (v | (v << 4)) & 0x10C30C30C30C30C3ull;
  v = (v | (v << 2)) & 0x1249249249249249ull;
  return v;
}

// The cell of coordinate v: floor((v - lo) * per_unit) clamped to [0, 2^bits - 1]. The
// comparisons are written so that NaN and +-inf land on a valid cell.
template <class C, class T>
PARPRIM_HD C morton_cell(T v, T lo, T per_unit) {
  constexpr C top = (C(1) << morton_bits_per_axis<C>()) - 1;
  const T q = (v - lo) * per_unit;
  if (!(q > T(0))) return 0;
  if (!(q < T(top))) return top;
  return static_cast<C>(q);
}

template <class C, class T>
PARPRIM_HD C morton_code(T x, T y, T z, const morton_scale<T>& s) {
  return (morton_spread(morton_cell<C>(x, s.lo[0], s.per_unit[0])) << 2) |
         (morton_spread(morton_cell<C>(y, s.lo[1], s.per_unit[1])) << 1) |
         morton_spread(morton_cell<C>(z, s.lo[2], s.per_unit[2]));
}

}  // namespace parprim::detail

namespace parprim::cpu_backend {
template <class T, class C>
void morton_encode(const context& ctx, span<const T> x, span<const T> y, span<const T> z,
                   const detail::morton_scale<T>& s, span<C> codes);
}  // namespace parprim::cpu_backend

namespace parprim::cuda_backend {
template <class T, class C>
void morton_encode(const context& ctx, span<const T> x, span<const T> y, span<const T> z,
                   const detail::morton_scale<T>& s, span<C> codes);
}  // namespace parprim::cuda_backend
