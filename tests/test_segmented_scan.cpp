// The segmented scans (by offsets and by flags) around the tiles of the by-key scan that runs
// them on CUDA (by_key_inputs::cuda_tile: 128 x 29 elements for 4-byte values, 256 x 9 for
// 8-byte ones; the 2303-2305 and 4609 cases are in test_segmented.cpp): every type and op, inclusive and exclusive with
// init, segments of 1, one segment, empty segments, offsets covering part of the input
// (the rest untouched), flags none / some / all set with any nonzero value, in place, and
// float results reproducible to the bit from call to call; bad offsets refused with nothing
// written. Both backends, against sequential loops (reference/runs_ref.hpp).
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "by_key_inputs.hpp"
#include "reference/runs_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;

template <class V>
std::vector<V> small_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<V> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::is_signed_v<V> ? V(std::int64_t(g() % 17) - 8) : V(g() % 17);
  return v;
}

// One and two tiles of 4-byte values (about), two 8-byte tiles less one.
std::vector<std::int64_t> tile_sizes() {
  using by_key_inputs::cuda_tile;
  std::vector<std::int64_t> out;
  for (std::int64_t n : {cuda_tile<4> - 1, cuda_tile<4>, cuda_tile<4> + 1, 2 * cuda_tile<8> - 1,
                         2 * cuda_tile<4> - 1, 2 * cuda_tile<4> + 1})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

struct layout {
  const char* name;
  std::vector<std::int64_t> offsets;
};

// Segment layouts over n >= 10 elements.
std::vector<layout> layouts(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<layout> out;
  out.push_back({"one", {0, n}});
  layout ones{"ones", {}};
  for (std::int64_t i = 0; i <= n; ++i) ones.offsets.push_back(i);
  out.push_back(ones);
  layout small{"small_with_empty", {0, 0}};
  while (small.offsets.back() < n)
    small.offsets.push_back(std::min(n, small.offsets.back() + std::int64_t(g() % 40)));
  small.offsets.push_back(n);
  out.push_back(small);
  // Part of the input, a segment crossing the tile boundaries, empty segments inside.
  out.push_back({"inner_range", {3, 3, 5, n / 2, n / 2, n - 4}});
  return out;
}

template <class T>
void check_offsets(const context& ctx, std::int64_t n, std::uint64_t seed, workspace& ws) {
  const auto x = small_values<T>(n, seed);
  auto in = buffer<T>::from_host(ctx, x);
  const std::vector<T> poison(static_cast<std::size_t>(n), T(77));
  for (const layout& l : layouts(n, seed)) {
    auto off = buffer<std::int64_t>::from_host(ctx, l.offsets);
    for (op o : {op::plus, op::min, op::max})
      for (bool inclusive : {true, false}) {
        auto out = buffer<T>::from_host(ctx, poison);
        if (inclusive) segmented_inclusive_scan<T>(ctx, in, off, out, o, &ws);
        else segmented_exclusive_scan<T>(ctx, in, off, out, T(5), o);
        EXPECT_EQ(out.to_host(), reference::segmented_scan(x, l.offsets, o, inclusive, T(5), poison))
            << type_name<T>() << " n=" << n << " " << l.name << " " << to_string(o)
            << (inclusive ? " inclusive" : " exclusive");
      }
  }
}

// Flags set with probability 0, 1/8 or 1, any nonzero value; element 0's flag random.
template <class T>
void check_flags(const context& ctx, std::int64_t n, std::uint64_t seed, workspace& ws) {
  const auto x = small_values<T>(n, seed);
  auto in = buffer<T>::from_host(ctx, x);
  std::mt19937_64 g(seed ^ 0xf1a95);
  for (int eighths : {0, 1, 8}) {
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
    std::vector<bool> heads(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      flags[i] = int(g() % 8) < eighths ? std::uint8_t(1 + g() % 255) : 0;
      heads[i] = i == 0 || flags[i] != 0;
    }
    auto f = buffer<std::uint8_t>::from_host(ctx, flags);
    for (op o : {op::plus, op::min, op::max})
      for (bool inclusive : {true, false}) {
        buffer<T> out(ctx, n);
        if (inclusive) segmented_inclusive_scan_by_flags<T>(ctx, in, f, out, o, &ws);
        else segmented_exclusive_scan_by_flags<T>(ctx, in, f, out, T(5), o);
        EXPECT_EQ(out.to_host(), reference::scan_by_heads(heads, x, o, inclusive, T(5)))
            << type_name<T>() << " n=" << n << " flags " << eighths << "/8 " << to_string(o)
            << (inclusive ? " inclusive" : " exclusive");
      }
  }
}

class SegmentedScan : public ::testing::TestWithParam<backend> {};

TEST_P(SegmentedScan, AroundTilesMatchesSequentialOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  workspace ws(ctx);
  testing::for_each_type([&](auto t) {
    using T = decltype(t);
    for (std::int64_t n : tile_sizes()) {
      check_offsets<T>(ctx, n, seed ^ std::uint64_t(n), ws);
      check_flags<T>(ctx, n, seed + std::uint64_t(n), ws);
    }
  });
}

// out aliasing in exactly: by offsets covering part of the input (the rest keeps its
// values) and by flags, inclusive and exclusive.
template <class T>
void check_in_place(const context& ctx, std::int64_t n, std::uint64_t seed) {
  const auto x = small_values<T>(n, seed);
  const std::vector<std::int64_t> offsets{2, 2, 7, n / 3, n - 5};
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
  std::vector<bool> heads(static_cast<std::size_t>(n));
  std::mt19937_64 g(seed);
  for (std::int64_t i = 0; i < n; ++i) {
    flags[i] = g() % 50 == 0 ? 1 : 0;
    heads[i] = i == 0 || flags[i] != 0;
  }
  auto f = buffer<std::uint8_t>::from_host(ctx, flags);
  for (bool inclusive : {true, false}) {
    auto a = buffer<T>::from_host(ctx, x);
    if (inclusive) segmented_inclusive_scan<T>(ctx, a, off, a, op::plus);
    else segmented_exclusive_scan<T>(ctx, a, off, a, T(3), op::max);
    EXPECT_EQ(a.to_host(), reference::segmented_scan(x, offsets, inclusive ? op::plus : op::max,
                                                     inclusive, T(3), x))
        << type_name<T>() << " offsets" << (inclusive ? " inclusive" : " exclusive");
    auto b = buffer<T>::from_host(ctx, x);
    if (inclusive) segmented_inclusive_scan_by_flags<T>(ctx, b, f, b, op::min);
    else segmented_exclusive_scan_by_flags<T>(ctx, b, f, b, T(3), op::plus);
    EXPECT_EQ(b.to_host(), reference::scan_by_heads(heads, x, inclusive ? op::min : op::plus,
                                                    inclusive, T(3)))
        << type_name<T>() << " flags" << (inclusive ? " inclusive" : " exclusive");
  }
}

TEST_P(SegmentedScan, InPlace) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = std::min<std::int64_t>(7681, testing::max_test_size());
  if (n < 10) GTEST_SKIP() << "PARPRIM_TEST_MAX_N";
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto t) { check_in_place<decltype(t)>(ctx, n, seed); });
}

// Float sums of random fractions: two calls give the same bits (the fold order is fixed by
// n and the backend), and each result is within rounding of the sequential sum.
template <class T>
void check_reproducible(const context& ctx, std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<T> d(0, 1);
  std::vector<T> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = d(g);
  const std::vector<std::int64_t> offsets{0, 1, n / 3, n};
  auto in = buffer<T>::from_host(ctx, x);
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  buffer<T> a(ctx, n), b(ctx, n);
  segmented_inclusive_scan<T>(ctx, in, off, a);
  segmented_inclusive_scan<T>(ctx, in, off, b);
  const auto ha = a.to_host(), hb = b.to_host();
  ASSERT_EQ(0, std::memcmp(ha.data(), hb.data(), ha.size() * sizeof(T))) << type_name<T>();
  const auto exact = reference::segmented_scan(x, offsets, op::plus, true, T(0), x);
  for (std::int64_t i = 0; i < n; ++i)
    ASSERT_NEAR(ha[i], exact[i], testing::float_tolerance<T>(n) * n) << type_name<T>() << " i=" << i;
}

TEST_P(SegmentedScan, FloatsReproducible) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = std::min<std::int64_t>(100'003, testing::max_test_size());
  if (n < 3) GTEST_SKIP() << "PARPRIM_TEST_MAX_N";
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_reproducible<float>(ctx, n, seed);
  check_reproducible<double>(ctx, n, seed);
}

// Offsets that decrease, are negative or pass in.size(), or no offsets at all: both scans by
// offsets throw parprim::error naming the function, the backend and the first bad offset, and
// write nothing (out poisoned; in place, in keeps its values).
TEST_P(SegmentedScan, BadOffsetsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::vector<std::int32_t> x(10, 1);
  auto in = buffer<std::int32_t>::from_host(ctx, x);
  buffer<std::int32_t> out(ctx, 10);
  out.fill_bytes(0x5A);
  const std::vector<std::pair<std::vector<std::int64_t>, std::string>> cases{
      {{0, 5, 3, 10}, "offsets[1] or offsets[2] is outside [0, 10]"},  // decreasing
      {{0, 5, 8, 11}, "offsets[3] or offsets[4] is outside [0, 10]"},  // past the end
      {{-1, 5, 8, 10}, "offsets[0] or offsets[1] is outside [0, 10]"},  // negative
      {{2, 4, 3, 3}, "offsets[1] or offsets[2]"},                       // decreasing, inner range
      {{}, "offsets.size()=0"}};
  for (const auto& [offsets, what] : cases) {
    auto off = buffer<std::int64_t>::from_host(ctx, offsets);
    for (bool inclusive : {true, false}) {
      const std::string name = inclusive ? "segmented_inclusive_scan" : "segmented_exclusive_scan";
      for (bool in_place : {false, true}) {
        SCOPED_TRACE(name + (in_place ? " in place " : " ") + what);
        span<std::int32_t> o = in_place ? span<std::int32_t>(in) : span<std::int32_t>(out);
        testing::expect_error(
            [&] {
              if (inclusive) segmented_inclusive_scan<std::int32_t>(ctx, in, off, o);
              else segmented_exclusive_scan<std::int32_t>(ctx, in, off, o, 5, op::max);
            },
            errc::invalid_argument, {"parprim::" + name + " [", ctx.name(), what});
        EXPECT_EQ(out.to_host(), std::vector<std::int32_t>(10, 0x5A5A5A5A));
        EXPECT_EQ(in.to_host(), x);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, SegmentedScan, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
