// dot and dot_into on both backends, f32 and f64, every algorithm, sizes around every tile
// boundary, against a long double oracle.
//
// Tolerance: every summing order used here adds each product along a chain of at most
// 530 + n/2048 + 2*log2(n) roundings (CPU: 512-long lanes, 8 lanes, n/4096 block sums;
// CUDA: per-thread chains of n/2^18 vectors, then shuffle and block trees), so
//   |dot - exact| <= eps * (530 + n/2048 + 2*log2(n)) * sum |x[i] * y[i]|.
// That bound is loose for f32 at large n, so a second test uses small integers, whose sums
// are exact in any order: there a single dropped or repeated element is an exact mismatch.
#include <cmath>
#include <cstring>
#include <vector>

#include "parprim/dot.hpp"
#include "reference/dot.hpp"
#include "support/test_support.hpp"

namespace {

using namespace parprim;
using namespace parprim::testing;

const dot_algorithm all_algorithms[] = {dot_algorithm::shared_memory, dot_algorithm::production};

template <class T>
double dot_tolerance(std::int64_t n) {
  const double eps = std::numeric_limits<T>::epsilon();
  return eps * (530.0 + double(n) / 2048.0 + 2.0 * std::log2(double(std::max<std::int64_t>(n, 2))));
}

// Integers in [-4, 4]: every partial sum of up to 2^20 products is exact in f32.
template <class T>
std::vector<T> small_integers(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<int> d(-4, 4);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = T(d(g));
  return v;
}

template <class T>
class DotTest : public ::testing::Test {};
using DotTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DotTest, DotTypes);

TYPED_TEST(DotTest, MatchesOracleAtEdgeSizes) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    for (std::int64_t n : edge_sizes()) {
      auto x = random_vector<T>(n, seed + std::uint64_t(n));
      auto y = random_vector<T>(n, seed ^ 0x9e3779b97f4a7c15ull ^ std::uint64_t(n));
      const auto ref = reference::dot(x, y);
      auto dx = buffer<T>::from_host(ctx, x);
      auto dy = buffer<T>::from_host(ctx, y);
      for (dot_algorithm alg : all_algorithms) {
        SCOPED_TRACE(std::string(to_string(b)) + " " + to_string(alg) + " n=" + std::to_string(n));
        const T got = dot<T>(ctx, dx, dy, alg);
        EXPECT_NEAR(double(got), ref.value, dot_tolerance<T>(n) * ref.abs_sum);
        if (n == 0) EXPECT_EQ(got, T(0));
      }
    }
  }
}

TYPED_TEST(DotTest, ExactOnSmallIntegers) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    for (std::int64_t n : {1, 3, 255, 256, 257, 4095, 4097, 65537, 262143, 1 << 20}) {
      auto x = small_integers<T>(n, seed + std::uint64_t(n));
      auto y = small_integers<T>(n, seed * 3 + std::uint64_t(n));
      const auto ref = reference::dot(x, y);
      auto dx = buffer<T>::from_host(ctx, x);
      auto dy = buffer<T>::from_host(ctx, y);
      for (dot_algorithm alg : all_algorithms) {
        SCOPED_TRACE(std::string(to_string(b)) + " " + to_string(alg) + " n=" + std::to_string(n));
        EXPECT_EQ(double(dot<T>(ctx, dx, dy, alg)), ref.value);
      }
    }
  }
}

// Views that start one element into their buffers are not 16-byte aligned: the production
// kernel must fall back to element loads and still see every element.
TYPED_TEST(DotTest, UnalignedViews) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    const std::int64_t n = 100003;
    auto x = small_integers<T>(n + 1, seed);
    auto y = small_integers<T>(n + 2, seed + 1);
    auto dx = buffer<T>::from_host(ctx, x);
    auto dy = buffer<T>::from_host(ctx, y);
    std::vector<T> xs(x.begin() + 1, x.end()), ys(y.begin() + 2, y.end());
    const auto ref = reference::dot(xs, ys);
    for (dot_algorithm alg : all_algorithms) {
      SCOPED_TRACE(std::string(to_string(b)) + " " + to_string(alg));
      span<const T> vx = dx.view().subspan(1, n), vy = dy.view().subspan(2, n);
      EXPECT_EQ(double(dot<T>(ctx, vx, vy, alg)), ref.value);
    }
  }
}

TYPED_TEST(DotTest, DotIntoLeavesResultOnBackendAndIsReproducible) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    const std::int64_t n = 3'000'017;
    auto dx = buffer<T>::from_host(ctx, random_vector<T>(n, seed));
    auto dy = buffer<T>::from_host(ctx, random_vector<T>(n, seed + 1));
    for (dot_algorithm alg : all_algorithms) {
      SCOPED_TRACE(std::string(to_string(b)) + " " + to_string(alg));
      buffer<T> out(ctx, 1);
      out.fill_bytes(0xFF);  // NaN until written
      dot_into<T>(ctx, dx, dy, out, alg);
      ctx.synchronize();
      const T first = out.to_host()[0];
      EXPECT_FALSE(std::isnan(first));
      const T again = dot<T>(ctx, dx, dy, alg);
      EXPECT_EQ(std::memcmp(&first, &again, sizeof(T)), 0) << first << " vs " << again;
    }
  }
}

TEST(DotErrors, BadArgumentsAreRejected) {
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    buffer<float> x(ctx, 10), y(ctx, 9), out(ctx, 1), out2(ctx, 2);
    auto expect_error = [&](auto&& call, const char* what) {
      try {
        call();
        ADD_FAILURE() << "no error for " << what << " on " << to_string(b);
      } catch (const error& e) {
        EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
        EXPECT_NE(std::string(e.what()).find("parprim::dot"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(ctx.name()), std::string::npos) << e.what();
      }
    };
    span<const float> vx = x, vy = y;
    expect_error([&] { dot<float>(ctx, vx, vy); }, "size mismatch");
    expect_error([&] { dot<float>(ctx, span<const float>(nullptr, 10), vx); }, "null pointer");
    expect_error([&] { dot<float>(ctx, span<const float>(x.data(), -1), span<const float>(x.data(), -1)); },
                 "negative size");
    expect_error([&] { dot<float>(ctx, vx, vx, static_cast<dot_algorithm>(7)); }, "bad algorithm");
    expect_error([&] { dot_into<float>(ctx, vx, vx, out2); }, "out of size 2");
    expect_error([&] { dot_into<float>(ctx, vx, vx, x.view().subspan(3, 1)); }, "out inside x");
    if (b == backend::cuda) {
      std::vector<float> host(10, 1.0f);
      expect_error([&] { dot<float>(ctx, span<const float>(host), vx); }, "host memory on cuda");
    }
  }
}

}  // namespace
