// The bin of a histogram sample: one definition for the CPU backend and the CUDA kernels.
//
// Integers: floor((s - lower) * bins / (upper - lower)), exactly. The difference s - lower is
// taken in the unsigned type, so `d < range` is the whole range test for signed and unsigned
// samples alike. Dividing per sample would cost tens of instructions on a GPU, so:
//   - 32-bit samples with bins < range multiply by a 32.32 fixed-point reciprocal
//     (scale32 = floor(bins * 2^32 / range)); that quotient is at most one too small, and one
//     64-bit product comparison corrects it;
//   - 64-bit samples estimate the quotient in double precision and correct it with exact
//     128-bit products (the estimate is off by at most one either way);
//   - 32-bit samples with bins >= range (tiny ranges) divide in 64 bits.
// Floats: min(bins - 1, floor((s - lower) * scale)) with scale = T(bins) / (upper - lower),
// computed in T; NaN fails the range test and is not counted.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::detail {

inline constexpr std::uint32_t no_bin = 0xFFFFFFFFu;

PARPRIM_HD std::uint32_t mulhi32(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

// a * b as a 128-bit (hi, lo) pair.
PARPRIM_HD void mul128(std::uint64_t a, std::uint64_t b, std::uint64_t& hi, std::uint64_t& lo) {
#if defined(__CUDA_ARCH__)
  lo = a * b;
  hi = __umul64hi(a, b);
#else
  unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  lo = static_cast<std::uint64_t>(p);
  hi = static_cast<std::uint64_t>(p >> 64);
#endif
}

PARPRIM_HD bool less_equal128(std::uint64_t ah, std::uint64_t al, std::uint64_t bh, std::uint64_t bl) {
  return ah < bh || (ah == bh && al <= bl);
}

template <class T>
struct even_bins {
  T lower{};
  T upper{};
  std::uint32_t bins = 1;
  // Integers.
  std::uint64_t range = 1;     // upper - lower in the unsigned type
  std::uint32_t scale32 = 0;   // floor(bins * 2^32 / range) when fast32
  bool fast32 = false;
  double scale_d = 0;          // bins / range, the 64-bit estimate
  // Floats.
  T scale{};

  // The bin of s, or no_bin when s is outside [lower, upper).
  PARPRIM_HD std::uint32_t operator()(T s) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (!(s >= lower && s < upper)) return no_bin;
      T x = (s - lower) * scale;
      std::uint32_t q = static_cast<std::uint32_t>(x);
      return q < bins ? q : bins - 1;
    } else if constexpr (sizeof(T) == 4) {
      std::uint32_t d = static_cast<std::uint32_t>(s) - static_cast<std::uint32_t>(lower);
      if (d >= range) return no_bin;
      if (fast32) {
        std::uint32_t q = mulhi32(d, scale32);
        if (static_cast<std::uint64_t>(q + 1) * range <= static_cast<std::uint64_t>(d) * bins) ++q;
        return q;
      }
      return static_cast<std::uint32_t>(static_cast<std::uint64_t>(d) * bins / range);
    } else {
      std::uint64_t d = static_cast<std::uint64_t>(s) - static_cast<std::uint64_t>(lower);
      if (d >= range) return no_bin;
      std::uint64_t q = static_cast<std::uint64_t>(static_cast<double>(d) * scale_d);
      if (q >= bins) q = bins - 1;
      std::uint64_t xh, xl, h, l;
      mul128(d, bins, xh, xl);  // the exact numerator
      while (q > 0) {           // too large: q * range > d * bins
        mul128(q, range, h, l);
        if (less_equal128(h, l, xh, xl)) break;
        --q;
      }
      for (;;) {  // too small: (q + 1) * range <= d * bins
        mul128(q + 1, range, h, l);
        if (!less_equal128(h, l, xh, xl)) break;
        ++q;
      }
      return static_cast<std::uint32_t>(q);
    }
  }
};

// Requires lower < upper and 1 <= bins < 2^31 (checked by the front end).
template <class T>
even_bins<T> make_even_bins(T lower, T upper, std::int64_t bins) {
  even_bins<T> e;
  e.lower = lower;
  e.upper = upper;
  e.bins = static_cast<std::uint32_t>(bins);
  if constexpr (std::is_floating_point_v<T>) {
    e.scale = static_cast<T>(bins) / (upper - lower);
  } else {
    using U = std::make_unsigned_t<T>;
    e.range = static_cast<U>(static_cast<U>(upper) - static_cast<U>(lower));
    e.scale_d = static_cast<double>(bins) / static_cast<double>(e.range);
    if constexpr (sizeof(T) == 4) {
      e.fast32 = static_cast<std::uint64_t>(bins) < e.range;
      if (e.fast32) e.scale32 = static_cast<std::uint32_t>((static_cast<std::uint64_t>(bins) << 32) / e.range);
    }
  }
  return e;
}

}  // namespace parprim::detail
