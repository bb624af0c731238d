// segmented_reduce and the segmented scans (by offsets and by flags) against sequential loops
// (reference/runs_ref.hpp), over backend x type x op x segment shape: all empty, one segment,
// segments of 1, small random ones with empty ones between, a skewed mix (one segment holding
// half the data), long segments mixed with short and empty ones (CUDA's chunked reduce),
// offsets not starting at 0 or not reaching the end; segments around the thresholds of
// CUDA's warp-per-segment and block-per-segment reduces; inputs off a 16-byte boundary; float
// reproducibility; bad offsets; the kernel CUDA queues behind the offsets check on a guess.
#include <initializer_list>
#include <random>
#include <vector>

#include "reference/runs_ref.hpp"
#include "segmented_medium_cases.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;
using namespace segmented_medium_cases;

template <class V>
std::vector<V> make_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<V> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::is_signed_v<V> ? V(std::int64_t(g() % 17) - 8) : V(g() % 17);
  return v;
}

struct shape {
  const char* name;
  std::vector<std::int64_t> offsets;
};

// Segments averaging over 1024 elements (CUDA's chunked reduce takes them): short ones, empty
// ones, medium ones and ones crossing several 8192-element chunks, mixed.
std::vector<std::int64_t> long_mixed_offsets(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed ^ 0x5eed);
  std::vector<std::int64_t> o{0};
  while (o.back() < n) {
    const std::uint64_t kind = g() % 10;
    const std::int64_t len = kind < 3 ? std::int64_t(g() % 33)
                             : kind < 6 ? 33 + std::int64_t(g() % 3000)
                                        : 3000 + std::int64_t(g() % 20000);
    o.push_back(std::min(n, o.back() + len));
  }
  return o;
}

// Segment layouts over n elements.
std::vector<shape> shapes(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<shape> out;
  out.push_back({"one", {0, n}});
  out.push_back({"all_empty", {0, 0, 0, 0}});
  out.push_back({"none", {0}});
  shape ones{"ones", {}};
  for (std::int64_t i = 0; i <= n; ++i) ones.offsets.push_back(i);
  out.push_back(ones);
  shape small{"small_with_empty", {0}};
  while (small.offsets.back() < n) small.offsets.push_back(std::min(n, small.offsets.back() + std::int64_t(g() % 33)));
  small.offsets.push_back(n);  // an empty segment at the end
  out.push_back(small);
  shape skewed{"skewed", {0, n / 2}};
  while (skewed.offsets.back() < n) skewed.offsets.push_back(std::min(n, skewed.offsets.back() + 1 + std::int64_t(g() % 64)));
  out.push_back(skewed);
  if (n >= 10) out.push_back({"inner_range", {3, 3, 5, n - 4, n - 4}});
  out.push_back({"long_mixed", long_mixed_offsets(n, seed)});
  return out;
}

std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {0, 1, 2, 33, 2303, 2304, 2305, 4609, 8193, 16384, 65537, 200'003})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

class Segmented : public ::testing::TestWithParam<backend> {};

template <class T>
void check_medium(const context& ctx, std::uint64_t seed) {
  workspace ws(ctx);
  for (const medium_shape& sh : medium_shapes(seed)) {
    ASSERT_EQ(int(rule_path(sh.offsets)), int(sh.path)) << sh.name;
    const std::int64_t n = sh.offsets.back() + 5;
    if (n > testing::max_test_size()) continue;
    const auto x = make_values<T>(n, seed ^ std::uint64_t(n));
    auto in = buffer<T>::from_host(ctx, x);
    auto off = buffer<std::int64_t>::from_host(ctx, sh.offsets);
    buffer<T> red(ctx, std::int64_t(sh.offsets.size()) - 1);
    for (op o : {op::plus, op::min, op::max}) {
      red.fill_bytes(0xA5);
      segmented_reduce<T>(ctx, in, off, red, T(5), o, &ws);
      EXPECT_EQ(red.to_host(), reference::segmented_reduce(x, sh.offsets, T(5), o))
          << type_name<T>() << " " << sh.name << " " << to_string(o);
    }
  }
}

TEST_P(Segmented, MediumSegmentsAroundThresholds) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto t) { check_medium<decltype(t)>(ctx, seed); });
}

// The u32 sums (init 7) of x by each offsets list, against the oracle.
void expect_sums_like_oracle(const context& ctx, const std::vector<std::uint32_t>& x,
                             std::initializer_list<std::vector<std::int64_t>> offset_lists) {
  auto in = buffer<std::uint32_t>::from_host(ctx, x);
  for (const auto& offsets : offset_lists) {
    auto off = buffer<std::int64_t>::from_host(ctx, offsets);
    buffer<std::uint32_t> red(ctx, std::int64_t(offsets.size()) - 1);
    segmented_reduce<std::uint32_t>(ctx, in, off, red, 7u);
    EXPECT_EQ(red.to_host(), reference::segmented_reduce(x, offsets, 7u, op::plus))
        << offsets.size() - 1 << " segments, longest "
        << offsets.back() - offsets[offsets.size() - 2];
  }
}

// The longest segment at and just over max_length (u32, plus: 2^24 elements).
TEST_P(Segmented, LongestSegmentAtMaxLength) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t len = blocks_rule::max_length, count = blocks_rule::min_work_per_longest;
  if ((count + 1) * len + 1 > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N";
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  auto at = uniform_offsets(count, len, 0);
  auto over = uniform_offsets(count + 1, len, 0);
  over.back() += 1;  // the last one holds max_length + 1
  ASSERT_EQ(rule_path(at), reduce_path::blocks);
  ASSERT_NE(rule_path(over), reduce_path::blocks);
  expect_sums_like_oracle(ctx, make_values<std::uint32_t>(over.back(), seed), {at, over});
}

// The warp rule's longest segment, max_length, among segments of 512 (u32, plus: 2^23
// elements), and one element over it: one block per segment then.
TEST_P(Segmented, LongestSegmentAtWarpMaxLength) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t len = warps_rule::max_length, n = len * warps_rule::min_work_per_longest;
  if (n + 1 > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N";
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  auto at = uniform_offsets((n - len) / 512, 512, 0);
  at.push_back(at.back() + len);
  auto over = at;
  over.back() += 1;
  ASSERT_EQ(at.back(), n);
  ASSERT_EQ(rule_path(at), reduce_path::warps);
  ASSERT_EQ(rule_path(over), reduce_path::blocks);
  expect_sums_like_oracle(ctx, make_values<std::uint32_t>(n + 1, seed), {at, over});
}

template <class T>
void check_type(const context& ctx, std::uint64_t seed) {
  workspace ws(ctx);
  for (std::int64_t n : sizes()) {
    auto x = make_values<T>(n, seed ^ std::uint64_t(n));
    auto in = buffer<T>::from_host(ctx, x);
    for (const shape& sh : shapes(n, seed + std::uint64_t(n))) {
      auto off = buffer<std::int64_t>::from_host(ctx, sh.offsets);
      const std::int64_t segments = std::int64_t(sh.offsets.size()) - 1;
      std::string where = std::string(type_name<T>()) + " n=" + std::to_string(n) + " " + sh.name;
      const T init = T(5);
      for (op o : {op::plus, op::min, op::max}) {
        buffer<T> red(ctx, segments);
        red.fill_bytes(0xA5);
        segmented_reduce<T>(ctx, in, off, red, init, o, &ws);
        EXPECT_EQ(red.to_host(), reference::segmented_reduce(x, sh.offsets, init, o))
            << where << " reduce " << to_string(o);
        for (bool inclusive : {true, false}) {
          std::vector<T> poison(static_cast<std::size_t>(n), T(77));
          auto out = buffer<T>::from_host(ctx, poison);
          if (inclusive) segmented_inclusive_scan<T>(ctx, in, off, out, o);
          else segmented_exclusive_scan<T>(ctx, in, off, out, init, o, &ws);
          EXPECT_EQ(out.to_host(), reference::segmented_scan(x, sh.offsets, o, inclusive, init, poison))
              << where << (inclusive ? " inclusive " : " exclusive ") << to_string(o);
        }
      }
    }
    // By flags: random heads.
    std::mt19937_64 g(seed ^ 0x9e3779b9);
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
    std::vector<bool> heads(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      flags[i] = g() % 10 == 0 ? std::uint8_t(1 + g() % 200) : 0;
      heads[i] = i == 0 || flags[i] != 0;
    }
    auto f = buffer<std::uint8_t>::from_host(ctx, flags);
    for (bool inclusive : {true, false}) {
      buffer<T> out(ctx, n);
      if (inclusive) segmented_inclusive_scan_by_flags<T>(ctx, in, f, out, op::plus);
      else segmented_exclusive_scan_by_flags<T>(ctx, in, f, out, T(2), op::max);
      EXPECT_EQ(out.to_host(), reference::scan_by_heads(heads, x, inclusive ? op::plus : op::max,
                                                        inclusive, T(2)))
          << type_name<T>() << " n=" << n << " flags";
    }
  }
}

// One test per element width (testing::for_each_4_byte_type says why).
TEST_P(Segmented, MatchesSequentialOracle4ByteTypes) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_4_byte_type([&](auto t) { check_type<decltype(t)>(ctx, seed); });
}

TEST_P(Segmented, MatchesSequentialOracle8ByteTypes) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_8_byte_type([&](auto t) { check_type<decltype(t)>(ctx, seed); });
}

// Float sums in a fixed order: two calls give the same bits, and each sum is close to the
// exact one (the order is not the sequential one, so only close).
TEST_P(Segmented, FloatReduceIsReproducible) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = std::min<std::int64_t>(200'003, testing::max_test_size());
  std::mt19937_64 g(seed);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = float(std::int64_t(g() % 2'000'001) - 1'000'000) * 1e-6f;
  auto in = buffer<float>::from_host(ctx, x);
  // Long mixed (chunked on CUDA), one segment, medium ones (one block per segment on CUDA
  // where n allows it, else the runs engine) and segments of 100 (one warp per segment on
  // CUDA where n allows it).
  const std::int64_t medium = std::max<std::int64_t>(1, n / 700);
  std::vector<std::int64_t> medium_offsets{0}, warp_offsets{0};
  while (medium_offsets.back() < n) medium_offsets.push_back(std::min(n, medium_offsets.back() + medium));
  while (warp_offsets.back() < n) warp_offsets.push_back(std::min(n, warp_offsets.back() + 100));
  for (const auto& offsets : {long_mixed_offsets(n, seed), std::vector<std::int64_t>{0, n},
                              medium_offsets, warp_offsets}) {
    auto off = buffer<std::int64_t>::from_host(ctx, offsets);
    const std::int64_t segments = std::int64_t(offsets.size()) - 1;
    buffer<float> a(ctx, segments), b(ctx, segments);
    segmented_reduce<float>(ctx, in, off, a, 0.5f);
    segmented_reduce<float>(ctx, in, off, b, 0.5f);
    const auto ha = a.to_host(), hb = b.to_host();
    ASSERT_TRUE(testing::same_bits(ha, hb));
    for (std::int64_t s = 0; s < segments; ++s) {
      double exact = 0.5;
      for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) exact += x[i];
      EXPECT_NEAR(ha[s], exact, 1e-5 * double(offsets[s + 1] - offsets[s]) + 1e-6) << "segment " << s;
    }
  }
}

// Inputs that start off a 16-byte boundary (a view one element into a buffer): CUDA's chunked
// reduce folds the elements before the first boundary one by one and the rest as vectors.
template <class T>
void check_misaligned(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = std::min<std::int64_t>(100'003, testing::max_test_size());
  if (n < 2) return;
  const auto x = make_values<T>(n, seed);
  auto whole = buffer<T>::from_host(ctx, x);
  for (std::int64_t skip : {1, 2, 3}) {
    const std::int64_t m = n - skip;
    span<const T> in(whole.data() + skip, m);
    const std::vector<T> view(x.begin() + skip, x.end());
    for (const auto& offsets : {long_mixed_offsets(m, seed + std::uint64_t(skip)),
                                std::vector<std::int64_t>{0, m}, std::vector<std::int64_t>{1, m - 1}}) {
      auto off = buffer<std::int64_t>::from_host(ctx, offsets);
      buffer<T> out(ctx, std::int64_t(offsets.size()) - 1);
      for (op o : {op::plus, op::max}) {
        segmented_reduce<T>(ctx, in, off, out, T(3), o);
        EXPECT_EQ(out.to_host(), reference::segmented_reduce(view, offsets, T(3), o))
            << type_name<T>() << " skip=" << skip << " segments=" << offsets.size() - 1 << " "
            << to_string(o);
      }
    }
  }
}

TEST_P(Segmented, MisalignedInput) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_misaligned<std::uint32_t>(ctx, seed);
  check_misaligned<float>(ctx, seed);
  check_misaligned<double>(ctx, seed);
  check_misaligned<std::int64_t>(ctx, seed);
}

TEST_P(Segmented, InPlaceScanMatchesOutOfPlace) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = std::min<std::int64_t>(100'003, testing::max_test_size());
  auto x = make_values<float>(n, fresh_seed());
  std::vector<std::int64_t> offsets{0, std::min<std::int64_t>(10, n), std::min<std::int64_t>(10, n),
                                    std::min<std::int64_t>(5000, n), n};
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  auto a = buffer<float>::from_host(ctx, x);
  buffer<float> b(ctx, n);
  segmented_inclusive_scan<float>(ctx, a, off, b);
  segmented_inclusive_scan<float>(ctx, a, off, a);
  EXPECT_EQ(a.to_host(), b.to_host());
}

TEST_P(Segmented, BadOffsetsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto in = buffer<std::int32_t>::from_host(ctx, std::vector<std::int32_t>(10, 1));
  buffer<std::int32_t> out(ctx, 3);
  out.fill_bytes(0x5A);
  for (std::vector<std::int64_t> bad : {std::vector<std::int64_t>{0, 5, 3, 10},
                                        std::vector<std::int64_t>{0, 5, 8, 11},
                                        std::vector<std::int64_t>{-1, 5, 8, 10}}) {
    auto off = buffer<std::int64_t>::from_host(ctx, bad);
    testing::expect_error([&] { segmented_reduce<std::int32_t>(ctx, in, off, out); },
                          errc::invalid_argument, {"segmented_reduce", ctx.name(), "offsets["});
    EXPECT_EQ(out.to_host(), std::vector<std::int32_t>(3, 0x5A5A5A5A));
  }
  auto off = buffer<std::int64_t>::from_host(ctx, {0, 5, 10});
  testing::expect_error([&] { segmented_reduce<std::int32_t>(ctx, in, off, out); },
                        errc::invalid_argument, {"segmented_reduce", "out.size()=3"});
}

// CUDA queues the warp or block kernel the host guesses behind the offsets check, before its
// verdict (segmented_medium_cases.hpp): bad offsets on shapes guessed right, shapes guessed
// wrong, calls in a row on two contexts. The CPU runs the same cases.
template <class T>
auto reduce_call(op o) {
  return [o](const context& c, span<const T> in, span<const std::int64_t> off, span<T> out) {
    segmented_reduce<T>(c, in, off, out, T(3), o);
  };
}

template <class T>
auto reduce_oracle_of(const std::vector<T>& x, op o) {
  return [&x, o](const std::vector<std::int64_t>& off) {
    return reference::segmented_reduce(x, off, T(3), o);
  };
}

template <class T>
void check_guessed(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = std::min<std::int64_t>(std::int64_t(1) << 20, testing::max_test_size());
  const auto x = make_values<T>(n, seed);
  for (op o : {op::plus, op::max}) {
    SCOPED_TRACE(std::string(type_name<T>()) + " " + to_string(o));
    check_bad_guessed<T>(ctx, x, reduce_call<T>(o), reduce_oracle_of(x, o));
    check_misguessed<T>(ctx, x, reduce_call<T>(o), reduce_oracle_of(x, o));
  }
}

TEST_P(Segmented, GuessedKernelBehindTheCheck) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_guessed<std::uint32_t>(ctx, seed);
  check_guessed<float>(ctx, seed);
  check_guessed<double>(ctx, seed);
}

TEST_P(Segmented, CallsInARowReadTheirOwnVerdict) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  if (65536 > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N";
  context a = testing::make_context(GetParam()), b = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const auto x = make_values<std::uint32_t>(65536, seed);
  check_calls_in_a_row<std::uint32_t>(a, b, x, reduce_call<std::uint32_t>(op::plus),
                                      reduce_oracle_of(x, op::plus));
}

INSTANTIATE_TEST_SUITE_P(All, Segmented, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
