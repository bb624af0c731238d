// Inputs of the by-key, unique and run-length tests (test_by_key.cpp and its parts in
// tests/test_by_key/): keys in runs of a chosen mean length, small values, and the sizes and
// mean run lengths around every tile edge of both backends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "parprim/parprim.hpp"
#include "support/test_support.hpp"

namespace parprim::by_key_inputs {

// Keys in runs of random length (mean about `mean_run`; 0: all keys equal) drawn from a few
// values, so that neighbouring runs sometimes share a key and merge; floats add NaN (never
// equal to itself) and -0.0 (equal to +0.0).
template <class K>
inline std::vector<K> make_keys(std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<K> k(static_cast<std::size_t>(n));
  std::int64_t i = 0;
  while (i < n) {
    std::int64_t len = mean_run == 0 ? n : 1 + std::int64_t(g() % std::uint64_t(2 * mean_run - 1));
    K key = K(g() % 5);
    if constexpr (std::is_floating_point_v<K>) {
      if (mean_run != 0 && g() % 7 == 0) key = std::numeric_limits<K>::quiet_NaN();
      if (key == K(0) && g() % 2) key = -K(0);
    }
    for (std::int64_t j = i; j < std::min(n, i + len); ++j) k[j] = key;
    i += len;
  }
  return k;
}

// Small integer values: every combining order gives the same result, floats included.
template <class V>
inline std::vector<V> make_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<V> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::is_signed_v<V> ? V(std::int64_t(g() % 17) - 8) : V(g() % 17);
  return v;
}

inline std::vector<std::int64_t> sizes(const context& ctx) {
  std::vector<std::int64_t> out;
  // CUDA tiles: 3840 elements (256 threads x 15) for 4-byte keys and values, 2304 (x 9) when
  // either is 8 bytes; unique's: 8192 4-byte keys, 4096 8-byte ones; 65536 = one CPU block
  // (300'007: several). On CUDA, 600'011 is past the look-back's window of 128 tiles of 3840
  // (and unique's of 64 tiles of 8192; the CPU has no such window: CI time saved).
  for (std::int64_t n : {0, 1, 2, 33, 257, 2303, 2304, 2305, 3839, 3840, 3841, 4095, 4096, 4097,
                         4609, 7681, 8191, 8192, 8193, 65535, 65537, 300'007})
    if (n <= testing::max_test_size()) out.push_back(n);
  if (ctx.kind() == backend::cuda && 600'011 <= testing::max_test_size()) out.push_back(600'011);
  return out;
}

// Mean run lengths: all runs of 1, short, long, one run of everything; on CUDA also runs of
// 2-3 tiles (3840 or 2304 elements), whose carries chain through tiles without a head.
inline std::vector<std::int64_t> mean_runs(const context& ctx) {
  std::vector<std::int64_t> out{1, 8, 512, 0};
  if (ctx.kind() == backend::cuda) out.push_back(9000);
  return out;
}

}  // namespace parprim::by_key_inputs
