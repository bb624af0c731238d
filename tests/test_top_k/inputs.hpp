// Inputs shared by test_top_k.cpp and test_top_k/segmented.cpp: keys with many ties, wide
// values, NaNs and signed zeros; the poison check of outputs that must stay unwritten; a
// seeded context for each test.
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "parprim/buffer.hpp"
#include "support/test_support.hpp"

namespace parprim::top_k_inputs {

template <class T>
std::vector<T> make_keys(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    x = std::is_signed_v<T> ? T(std::int64_t(g() % 2001) - 1000) : T(g() % 2001);
    if (g() % 3 == 0) x = T(g());  // wide values: every digit of the image matters
    if constexpr (std::is_floating_point_v<T>) {
      if (g() % 97 == 0) x = std::numeric_limits<T>::quiet_NaN();
      if (g() % 89 == 0) x = -T(0);
    }
  }
  return v;
}

// The positions 0, 1, ..., n - 1 on the context: the values of the pairs forms, so that each
// chosen value names where its key was.
inline buffer<std::int32_t> input_positions(const context& ctx, std::int64_t n) {
  std::vector<std::int32_t> ids(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) ids[i] = std::int32_t(i);
  return buffer<std::int32_t>::from_host(ctx, ids);
}

// Every byte of b still holds the poison 0x5A: nothing was written to it.
template <class T>
bool untouched(const buffer<T>& b) {
  auto host = b.to_host();
  std::vector<unsigned char> poison(host.size() * sizeof(T), 0x5A);
  return poison.empty() || std::memcmp(host.data(), poison.data(), poison.size()) == 0;
}

// check(ctx, seed) on a fresh context of backend b with a fresh seed, the seed in the trace.
template <class Check>
void with_seeded_context(backend b, Check check) {
  context ctx = testing::make_context(b);
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check(ctx, seed);
}

}  // namespace parprim::top_k_inputs
