// morton_encode: Morton (Z-order) codes of 3-D points, the key that puts points close in
// space close in a sorted array (the first step of linear BVH and octree builds).
//
//   parprim::morton_box<float> box = parprim::morton_box<float>::cube(lo, hi);
//   parprim::morton_encode<float, std::uint64_t>(ctx, x, y, z, box, codes);
//
// Each coordinate is quantized onto 2^b cells of the box along its axis (b = 10 bits per
// axis for 32-bit codes, 21 for 64-bit codes): q = floor((x - lo) * 2^b / (hi - lo)), clamped
// to [0, 2^b - 1], so a point outside the box gets the code of the nearest cell on the box's
// surface (never an overflow) and an axis of zero extent quantizes to cell 0. The bits of the
// three cells are interleaved x, y, z from the most significant end: bit 3k+2 of the code is
// bit k of qx, 3k+1 of qy, 3k of qz. Both backends compute the quantization with the same
// floating-point operations, so their codes are identical.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim {

// An axis-aligned box: lo[a] <= hi[a] on each axis a (x = 0, y = 1, z = 2), all finite.
template <class T>
struct morton_box {
  T lo[3] = {0, 0, 0};
  T hi[3] = {1, 1, 1};

  // The cube with the same lower corner whose edge is the box's largest extent: Morton cells
  // are then cubes, the cells of an octree.
  static morton_box cube(const T (&lo)[3], const T (&hi)[3]);
};

// Bits per axis of a code type: 10 for std::uint32_t, 21 for std::uint64_t.
template <class C>
constexpr int morton_bits_per_axis() {
  static_assert(sizeof(C) == 4 || sizeof(C) == 8, "Morton codes are std::uint32_t or std::uint64_t");
  return sizeof(C) == 4 ? 10 : 21;
}

// codes[i] = the Morton code of (x[i], y[i], z[i]) in `box`. T: float or double; C:
// std::uint32_t or std::uint64_t. x, y, z and codes have the same size; codes may not overlap
// the coordinates. Stream-ordered on CUDA. Coordinates that are NaN quantize to cell 0.
template <class T, class C>
void morton_encode(const context& ctx, span<const T> x, span<const T> y, span<const T> z,
                   const morton_box<T>& box, span<C> codes);

}  // namespace parprim
