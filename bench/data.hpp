// Benchmark inputs: random bits (never zeros, which can run faster than real data and hide
// unwritten outputs), generated in parallel with a counter-based hash so any size is quick.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

namespace parprim::bench {

inline std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Integers: uniformly random bits. Floats: uniform in [0, 1) (random mantissa bits), so sums
// stay finite and every bit pattern is ordinary.
template <class T>
std::vector<T> random_data(std::int64_t n, std::uint64_t seed = 1) {
  std::vector<T> v(static_cast<std::size_t>(n));
  T* p = v.data();
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t r = splitmix64(seed * 0x100000001B3ull + static_cast<std::uint64_t>(i));
    if constexpr (std::is_floating_point_v<T>) {
      p[i] = static_cast<T>(double(r >> 11) * 0x1.0p-53);
    } else {
      T t;
      std::memcpy(&t, &r, sizeof(T));
      p[i] = t;
    }
  }
  return v;
}

}  // namespace parprim::bench
