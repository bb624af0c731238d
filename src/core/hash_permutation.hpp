// A pseudo-random permutation of [0, n) for any n, computable per element (no table): the
// calibration of the multi-pass scatter writes a region in random order with it.
//
// mix() is a bijection of [0, 2^bits): multiplying by an odd constant, adding a constant and
// xor-ing with a right shift are each invertible modulo 2^bits. Cycle walking (apply mix
// until the result is below n) turns it into a bijection of [0, n); with 2^bits < 2n it
// takes fewer than two steps on average.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::detail {

struct hash_permutation {
  std::uint64_t n = 1;
  std::uint64_t mask = 0;  // 2^bits - 1 with 2^bits >= n
  int shift = 1;

  static hash_permutation of(std::uint64_t n) {
    hash_permutation p;
    p.n = n;
    int bits = 1;
    while ((std::uint64_t(1) << bits) < n) ++bits;
    p.mask = (std::uint64_t(1) << bits) - 1;
    p.shift = bits / 2 + 1;
    return p;
  }

  PARPRIM_HD std::uint64_t mix(std::uint64_t x) const {
    x = (x * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) & mask;
    x ^= x >> shift;
    x = (x * 0xBF58476D1CE4E5B9ull) & mask;
    x ^= x >> shift;
    x = (x * 0x94D049BB133111EBull) & mask;
    return x;
  }

  PARPRIM_HD std::uint64_t operator()(std::uint64_t i) const {
    std::uint64_t x = mix(i);
    while (x >= n) x = mix(x);
    return x;
  }
};

}  // namespace parprim::detail
