// Inputs of the by-key, unique and run-length tests (test_by_key.cpp and its parts in
// tests/test_by_key/): keys in runs of a chosen mean length, small values, and the sizes and
// mean run lengths around every tile edge of both backends.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "parprim/cuda/tuning/by_key_tuning.hpp"
#include "parprim/parprim.hpp"
#include "support/test_support.hpp"

namespace parprim::by_key_inputs {

// Elements per tile of the CUDA by-key kernels, by the larger of the key and value sizes: the
// scans' (and the default) and the reductions'.
template <int Bytes, bool Reduction = false>
constexpr std::int64_t cuda_tile =
    std::int64_t(cuda_tuning::by_key_tuning<Bytes, Reduction>::threads) *
    cuda_tuning::by_key_tuning<Bytes, Reduction>::items;

// The same elements twice on the device: at the start of a buffer (aligned) and one element
// into another (misaligned).
template <class T>
struct twin {
  buffer<T> aligned, shifted;
  twin(const context& ctx, const std::vector<T>& host)
      : aligned(buffer<T>::from_host(ctx, host)), shifted(ctx, std::int64_t(host.size()) + 1) {
    ctx.copy_from_host(shifted.data() + 1, host.data(), host.size() * sizeof(T));
  }
  span<const T> at(bool off) const {
    return span<const T>(off ? shifted.data() + 1 : aligned.data(), aligned.size());
  }
};

// The mean_run of keys whose neighbours never compare equal: every run has length 1.
inline constexpr std::int64_t distinct_neighbours = -1;

// Keys in runs of random length (mean about `mean_run`; 0: all keys equal) drawn from a few
// values, so that neighbouring runs sometimes share a key and merge; floats add NaN (never
// equal to itself) and -0.0 (equal to +0.0). distinct_neighbours: key i = i % 3 (floats: some
// NaN, some 0 as -0.0), so no two neighbours are equal but equal keys recur two apart.
template <class K>
inline std::vector<K> make_keys(std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<K> k(static_cast<std::size_t>(n));
  if (mean_run == distinct_neighbours) {
    for (std::int64_t i = 0; i < n; ++i) {
      k[i] = K(i % 3);
      if constexpr (std::is_floating_point_v<K>) {
        if (g() % 7 == 0) k[i] = std::numeric_limits<K>::quiet_NaN();
        else if (k[i] == K(0) && g() % 2) k[i] = -K(0);
      }
    }
    return k;
  }
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
  // Around one and two CUDA tiles of 4-byte keys and values (cuda_tile<4>) and of 8-byte ones
  // (cuda_tile<8>; the reductions' cuda_tile<8, true>); unique's: 8192 4-byte keys, 4096
  // 8-byte ones; 65536 = one CPU block
  // (300'007: several). On CUDA, 600'011 is past the look-back's window of 128 tiles of
  // cuda_tile<4> (and unique's of 64 tiles of 8192; the CPU has no such window: CI time saved).
  constexpr std::int64_t t4 = cuda_tile<4>, t8 = cuda_tile<8>, r8 = cuda_tile<8, true>;
  static_assert(128 * t4 < 600'011, "600'011 is past the look-back window");
  for (std::int64_t n : std::initializer_list<std::int64_t>{
           0, 1, 2, 33, 257, r8 - 1, r8, r8 + 1, t8 - 1, t8, t8 + 1, t4 - 1, t4, t4 + 1, 4095, 4096,
           4097, 2 * r8 + 1, 2 * t8 + 1, 2 * t4 + 1, 8191, 8192, 8193, 65535, 65537, 300'007})
    if (n <= testing::max_test_size()) out.push_back(n);
  if (ctx.kind() == backend::cuda && 600'011 <= testing::max_test_size()) out.push_back(600'011);
  return out;
}

// Mean run lengths: neighbours all distinct (every run exactly 1), runs of 1 whose equal
// neighbours merge, short, long, one run of everything; on CUDA also runs of about 2-4 tiles
// (cuda_tile<4> or cuda_tile<8> elements), whose carries chain through tiles without a head.
inline std::vector<std::int64_t> mean_runs(const context& ctx) {
  std::vector<std::int64_t> out{distinct_neighbours, 1, 8, 512, 0};
  if (ctx.kind() == backend::cuda) out.push_back(9000);
  return out;
}

}  // namespace parprim::by_key_inputs
