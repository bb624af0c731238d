// Shared helpers for the tests: backends to run on, fresh random inputs, size lists around
// tile boundaries, and float comparison against double-precision oracles.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <limits>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "parprim/parprim.hpp"
#include "reference/same_bits.hpp"

namespace parprim::testing {

// A fresh seed for every run (so inputs differ from run to run); printed by SCOPED_TRACE in
// each test so a failure can be replayed with PARPRIM_TEST_SEED=<seed>.
inline std::uint64_t fresh_seed() {
  if (const char* s = std::getenv("PARPRIM_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  static std::random_device rd;
  return (std::uint64_t(rd()) << 32) ^ rd();
}

// Random values with a range chosen so sums are interesting but floats stay well scaled:
// integers over their whole range (wrapping sums are part of the contract), floats in [-1, 1).
template <class T>
std::vector<T> random_vector(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(T(-1), T(1));
    for (auto& x : v) x = d(g);
  } else {
    std::uniform_int_distribution<T> d(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
    for (auto& x : v) x = d(g);
  }
  return v;
}

// Sizes around every tile boundary the kernels use (32-lane warps, 1024-thread blocks,
// 2^k tiles) plus a few million.
// PARPRIM_TEST_MAX_N caps the list (compute-sanitizer runs are 10-100x slower).
inline std::int64_t max_test_size() {
  const char* s = std::getenv("PARPRIM_TEST_MAX_N");
  return s ? std::strtoll(s, nullptr, 10) : std::numeric_limits<std::int64_t>::max();
}

inline std::vector<std::int64_t> edge_sizes() {
  std::vector<std::int64_t> all{0,    1,    2,    31,   32,  33,  255,   256,   257,    1023,    1024,
                                1025, 2047, 2048, 2049, 4095,  4097,  65535, 65536,  65537,   131071,
                                1 << 20, 3'000'017};
  std::vector<std::int64_t> out;
  for (auto n : all)
    if (n <= max_test_size()) out.push_back(n);
  return out;
}

inline bool cuda_usable() { return context::cuda_device_count() > 0; }

// The backends a test runs on; CUDA only where it is usable (others are skipped).
inline std::vector<backend> all_backends() { return {backend::cpu, backend::cuda}; }

// The backends a loop inside one test runs on: cpu, and cuda where a device answers.
inline std::vector<backend> usable_backends() {
  std::vector<backend> out{backend::cpu};
  if (cuda_usable()) out.push_back(backend::cuda);
  return out;
}

inline context make_context(backend b) {
  return b == backend::cuda ? context::cuda(0) : context::cpu();
}

#define PARPRIM_SKIP_IF_NO_BACKEND(b)                                    \
  do {                                                                   \
    if ((b) == ::parprim::backend::cuda && !::parprim::testing::cuda_usable()) \
      GTEST_SKIP() << "no CUDA device";                                  \
  } while (0)

// Relative tolerance for float results against a double oracle: the error of a sum of n
// terms grows at worst like n*eps, and for the tree- and block-ordered sums used here like
// log2(n)*eps times the magnitude; we allow eps * (8 + 2*log2(n)) relative to the sum of
// absolute values, which bounds every combining order the backends use.
template <class T>
double float_tolerance(std::int64_t n) {
  double eps = std::numeric_limits<T>::epsilon();
  return eps * (8.0 + 2.0 * std::log2(double(std::max<std::int64_t>(n, 2))));
}

// Host copy of a span on a context's backend.
template <class T>
std::vector<T> to_host(const context& ctx, span<const T> s) {
  std::vector<T> v(static_cast<std::size_t>(s.size()));
  if (s.size() > 0) ctx.copy_to_host(v.data(), s.data(), static_cast<std::size_t>(s.size_bytes()));
  return v;
}

// Runs fn and expects a parprim::error with `code` whose message holds every fragment.
template <class F>
void expect_error(F&& fn, errc code, const std::vector<std::string>& fragments) {
  try {
    fn();
    ADD_FAILURE() << "no parprim::error thrown";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), code) << e.what();
    for (auto& f : fragments) EXPECT_THAT(e.what(), ::testing::HasSubstr(f));
  }
}

// Calls f(T{}) once for every precompiled element type (i32, u32, i64, u64, f32, f64), so
// that a test runs its typed check over all of them:
//   for_each_type([&](auto t) { check_type<decltype(t)>(ctx, seed); });
template <class F>
void for_each_type(F&& f) {
  f(std::int32_t{});
  f(std::uint32_t{});
  f(std::int64_t{});
  f(std::uint64_t{});
  f(float{});
  f(double{});
}

// The same types split by width, for suites that are one test per width so that
// compute-sanitizer runs the halves side by side: test_by_key and test_segmented each had one
// all-types test that took 320-470 s under racecheck on the H100 (test_top_k went further, to
// one test per type).
template <class F>
void for_each_4_byte_type(F&& f) {
  f(std::int32_t{});
  f(std::uint32_t{});
  f(float{});
}
template <class F>
void for_each_8_byte_type(F&& f) {
  f(std::int64_t{});
  f(std::uint64_t{});
  f(double{});
}

// Bitwise equality: NaNs and signed zeros must match too.
using reference::same_bits;

}  // namespace parprim::testing
