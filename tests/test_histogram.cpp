// histogram (even bins) against the sequential oracle, over backend x sample type x bin count
// x range x size; skewed and all-equal samples; NaN and out-of-range samples; bad arguments.
#include <cmath>
#include <limits>
#include <random>

#include "parprim/histogram.hpp"
#include "reference/histogram_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;

class Histogram : public ::testing::TestWithParam<backend> {};

// Sizes around the kernels' tiles (512 threads x 16-byte vectors) plus a few million.
// PARPRIM_TEST_MAX_N caps every size (sanitizer runs).
std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {0, 1, 3, 4, 5, 31, 33, 2047, 2048, 2049, 4097, 16383, 16385, 65537, 1'000'003})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

std::int64_t capped(std::int64_t n) { return std::min(n, testing::max_test_size()); }

const std::int64_t bin_counts[] = {1, 2, 7, 255, 256, 1000, 4096, 4097, 20000};

// Samples uniform in [lo, hi] (integers) or [lo, hi) (floats).
template <class T>
std::vector<T> uniform(std::int64_t n, T lo, T hi, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> d(lo, hi);
    for (auto& x : v) x = d(g);
  } else {
    std::uniform_int_distribution<T> d(lo, hi);
    for (auto& x : v) x = d(g);
  }
  return v;
}

template <class T>
void run_case(const context& ctx, const std::vector<T>& samples, std::int64_t bins, T lower,
              T upper, const std::string& what) {
  auto ds = buffer<T>::from_host(ctx, samples);
  buffer<std::uint64_t> out(ctx, bins);
  out.fill_bytes(0xA5);
  histogram<T>(ctx, ds, out, bins, lower, upper);
  ctx.synchronize();
  auto got = out.to_host();
  auto expect = reference::histogram_even(samples, bins, lower, upper);
  std::int64_t bad = 0, first = -1;
  for (std::int64_t b = 0; b < bins; ++b)
    if (got[b] != expect[b]) {
      if (first < 0) first = b;
      ++bad;
    }
  EXPECT_EQ(bad, 0) << what << " " << type_name<T>() << " n=" << samples.size() << " bins=" << bins
                    << " lower=" << +lower << " upper=" << +upper << " first bad bin " << first
                    << (first >= 0 ? " got " + std::to_string(got[first]) + " want " + std::to_string(expect[first]) : "");
}

template <class T>
void check_type(const context& ctx, std::uint64_t seed) {
  using L = std::numeric_limits<T>;
  for (std::int64_t n : sizes()) {
    for (std::int64_t bins : bin_counts) {
      const std::uint64_t s = seed + std::uint64_t(n) * 131 + std::uint64_t(bins);
      if constexpr (std::is_floating_point_v<T>) {
        auto x = uniform<T>(n, T(-1), T(1), s);
        if (n > 10) {  // values no bin takes
          x[1] = std::numeric_limits<T>::quiet_NaN();
          x[2] = std::numeric_limits<T>::infinity();
          x[3] = -std::numeric_limits<T>::infinity();
          x[4] = T(0.5);  // exactly `upper` below: excluded
          x[5] = T(-0.75);  // exactly `lower`: bin 0
        }
        run_case<T>(ctx, x, bins, T(-0.75), T(0.5), "float part");
        run_case<T>(ctx, x, bins, T(-1), T(1), "float whole");
      } else {
        // Whole range of the type: the widest differences, every sample counted but the max.
        run_case<T>(ctx, uniform<T>(n, L::lowest(), L::max(), s), bins, L::lowest(), L::max(), "full range");
        // A narrow range inside wider samples (many samples ignored); for large bin counts
        // more bins than values (the 32-bit division path).
        const T lo = std::is_signed_v<T> ? T(-1000) : T(1000);
        run_case<T>(ctx, uniform<T>(n, T(lo - 300), T(lo + 2300), s + 1), bins, lo, T(lo + 2000), "narrow");
        // Random bounds.
        std::mt19937_64 g(s + 2);
        T a = static_cast<T>(g()), b = static_cast<T>(g());
        if (a == b) b = T(a + 1);
        if (b < a) std::swap(a, b);
        run_case<T>(ctx, uniform<T>(n, L::lowest(), L::max(), s + 3), bins, a, b, "random bounds");
      }
    }
  }
}

TEST_P(Histogram, MatchesSequentialOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto t) { check_type<decltype(t)>(ctx, seed); });
}

// All samples in one bin (every lane on one counter), and heavily skewed samples.
TEST_P(Histogram, SkewedAndAllEqual) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = capped(2'000'001);
  for (std::int64_t bins : {std::int64_t(1), std::int64_t(256), std::int64_t(4096), std::int64_t(70000)}) {
    std::vector<std::uint32_t> same(static_cast<std::size_t>(n), 77777u);
    run_case<std::uint32_t>(ctx, same, bins, 0u, 100000u, "all equal");
    auto skew = uniform<std::uint32_t>(n, 0, 99999, seed);
    for (std::size_t i = 0; i < skew.size(); i += 1 + i % 3) skew[i] = 12345u;
    run_case<std::uint32_t>(ctx, skew, bins, 0u, 100000u, "skewed");
  }
}

// Views offset by 1..3 elements: the vector body starts after a scalar head.
TEST_P(Histogram, MisalignedViews) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = capped(300'007);
  auto x = uniform<std::int32_t>(n + 3, -5000, 5000, seed);
  auto dx = buffer<std::int32_t>::from_host(ctx, x);
  buffer<std::uint64_t> out(ctx, 100);
  for (std::int64_t off = 0; off < 3; ++off) {
    out.fill_bytes(0xA5);
    histogram<std::int32_t>(ctx, dx.view().subspan(off, n), out, 100, -4000, 4000);
    std::vector<std::int32_t> part(x.begin() + off, x.begin() + off + n);
    EXPECT_EQ(out.to_host(), reference::histogram_even(part, 100, -4000, 4000)) << "offset " << off;
  }
}

TEST_P(Histogram, BadArgumentsAreRejectedBeforeWriting) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto s = buffer<float>::from_host(ctx, std::vector<float>{0.1f, 0.2f, 0.3f});
  buffer<std::uint64_t> out(ctx, 4);
  auto expect_invalid = [&](const char* what, auto&& call) {
    out.fill_bytes(0xA5);
    try {
      call();
      ADD_FAILURE() << what << ": no error";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find("parprim::histogram [" + ctx.name() + "]"), std::string::npos)
          << e.what();
    }
    for (std::uint64_t v : out.to_host()) EXPECT_EQ(v, 0xA5A5A5A5A5A5A5A5ull) << what << " wrote output";
  };
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  expect_invalid("zero bins", [&] { histogram<float>(ctx, s, span<std::uint64_t>(out.data(), 0), 0, 0.f, 1.f); });
  expect_invalid("negative bins", [&] { histogram<float>(ctx, s, out, -4, 0.f, 1.f); });
  expect_invalid("size mismatch", [&] { histogram<float>(ctx, s, out, 3, 0.f, 1.f); });
  expect_invalid("lower == upper", [&] { histogram<float>(ctx, s, out, 4, 1.f, 1.f); });
  expect_invalid("lower > upper", [&] { histogram<float>(ctx, s, out, 4, 2.f, 1.f); });
  expect_invalid("NaN bound", [&] { histogram<float>(ctx, s, out, 4, nan, 1.f); });
  expect_invalid("infinite bound", [&] { histogram<float>(ctx, s, out, 4, 0.f, inf); });
  expect_invalid("overflowing width", [&] {
    histogram<float>(ctx, s, out, 4, -std::numeric_limits<float>::max(), std::numeric_limits<float>::max());
  });
  expect_invalid("null samples", [&] { histogram<float>(ctx, span<const float>(nullptr, 3), out, 4, 0.f, 1.f); });
  expect_invalid("null bins", [&] { histogram<float>(ctx, s, span<std::uint64_t>(nullptr, 4), 4, 0.f, 1.f); });
  auto si = buffer<std::int64_t>::from_host(ctx, std::vector<std::int64_t>{1, 2});
  expect_invalid("integer lower >= upper", [&] { histogram<std::int64_t>(ctx, si, out, 4, 5, -5); });
  if (ctx.kind() == backend::cuda) {
    std::vector<float> host = {0.5f};
    expect_invalid("host samples", [&] { histogram<float>(ctx, span<const float>(host), out, 4, 0.f, 1.f); });
  }
}

// Empty input still overwrites the bins with zeros.
TEST_P(Histogram, EmptyInputZeroesBins) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  buffer<double> none(ctx, 0);
  buffer<std::uint64_t> out(ctx, 9);
  out.fill_bytes(0xA5);
  histogram<double>(ctx, none, out, 9, 0.0, 1.0);
  EXPECT_EQ(out.to_host(), std::vector<std::uint64_t>(9, 0));
}

// More than 2^31 samples (CUDA only: 8 GiB of samples): 64-bit offsets and per-block
// counter limits. Samples cycle through 0..999, so every bin count is known exactly.
TEST(HistogramLarge, MoreThan2To31Samples) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::int64_t n = (std::int64_t(1) << 31) + 4099;
  auto devs = cuda_devices();
  if (devs.empty() || devs[0].global_memory_bytes < 3 * n * 4) GTEST_SKIP() << "device too small";
  std::vector<std::uint32_t> x(static_cast<std::size_t>(n));
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<std::uint32_t>(i % 1000);
  auto dx = buffer<std::uint32_t>::from_host(ctx, x);
  x.clear();
  x.shrink_to_fit();
  buffer<std::uint64_t> out(ctx, 10);
  histogram<std::uint32_t>(ctx, dx, out, 10, 0u, 1000u);
  auto got = out.to_host();
  std::vector<std::uint64_t> expect(10, 0);
  for (std::int64_t r = 0; r < 1000; ++r) {
    const std::uint64_t times = std::uint64_t(n / 1000 + (r < n % 1000 ? 1 : 0));
    expect[static_cast<std::size_t>(r / 100)] += times;
  }
  EXPECT_EQ(got, expect);
}

INSTANTIATE_TEST_SUITE_P(All, Histogram, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
