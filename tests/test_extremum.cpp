// argmin and argmax (and their _into forms) against std::min_element / std::max_element with
// NumPy's NaN rule (the first NaN wins both), on both backends, for the six element types:
// sizes around the CUDA kernel's steps and shares, many ties (a few distinct values), the
// extreme first, last or alone, NaNs at random places and everywhere, -0.0 beside +0.0,
// integer extremes, misaligned input. Bad arguments throw and write nothing.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/tuning/extremum_tuning.hpp"
#include "parprim/extremum.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;

// The sequential oracle: the first NaN if there is one, else the first smallest (largest).
template <class T>
std::int64_t oracle(const std::vector<T>& x, bool largest) {
  if constexpr (std::is_floating_point_v<T>) {
    for (std::size_t i = 0; i < x.size(); ++i)
      if (std::isnan(x[i])) return std::int64_t(i);
  }
  const auto it =
      largest ? std::max_element(x.begin(), x.end()) : std::min_element(x.begin(), x.end());
  return std::int64_t(it - x.begin());
}

enum class values_like { uniform, few_distinct, some_nan, all_nan, signed_zeros };

template <class T>
std::vector<T> make_values(std::int64_t n, values_like like, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const std::uint64_t r = g();
    if (like == values_like::few_distinct)
      x = T(r % 4);
    else if constexpr (std::is_floating_point_v<T>)
      x = T(std::ldexp(double(r >> 11), -52) - 1.0);
    else
      std::memcpy(&x, &r, sizeof x);  // every bit pattern: the type's extremes included
  }
  if constexpr (std::is_floating_point_v<T>) {
    const T nan = std::numeric_limits<T>::quiet_NaN();
    if (like == values_like::some_nan && n > 0)
      for (int k = 0; k < 3; ++k) v[std::size_t(g() % std::uint64_t(n))] = k == 1 ? -nan : nan;
    if (like == values_like::all_nan) std::fill(v.begin(), v.end(), nan);
    if (like == values_like::signed_zeros)
      for (auto& x : v) x = g() % 2 ? T(0.0) : T(-0.0);
  }
  return v;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
void check_both(const context& ctx, const std::vector<T>& x, std::int64_t skip,
                const std::string& where) {
  auto buf = buffer<T>::from_host(ctx, x);
  const span<const T> in(buf.data() + skip, std::int64_t(x.size()) - skip);
  const std::vector<T> seen(x.begin() + skip, x.end());
  for (bool largest : {false, true}) {
    const std::string at = where + (largest ? ", argmax" : ", argmin");
    const std::int64_t want = oracle(seen, largest);
    const extremum<T> m = largest ? argmax<T>(ctx, in) : argmin<T>(ctx, in);
    EXPECT_EQ(m.index, want) << at;
    EXPECT_TRUE(same_bits(m.value, seen[std::size_t(want)])) << at;
    auto value = buffer<T>::from_host(ctx, {T(7)});
    auto index = buffer<std::int64_t>::from_host(ctx, {-5});
    if (largest)
      argmax_into<T>(ctx, in, value.view(), index.view());
    else
      argmin_into<T>(ctx, in, value.view(), index.view());
    EXPECT_EQ(index.to_host()[0], want) << at << " (_into)";
    EXPECT_TRUE(same_bits(value.to_host()[0], seen[std::size_t(want)])) << at << " (_into)";
  }
}

// Sizes around the CUDA kernel's step (256 threads x 4 vectors of 16 bytes), several steps,
// and enough elements for many blocks; capped for sanitizer runs.
template <class T>
std::vector<std::int64_t> extremum_sizes() {
  const std::int64_t step = cuda_tuning::extremum_tuning::threads *
                            cuda_tuning::extremum_tuning::vectors_per_thread *
                            std::int64_t(16 / sizeof(T));
  std::vector<std::int64_t> v = {
      1,   2,        3,    31,       33,           255,
      257, step - 1, step, step + 1, 3 * step + 5, (std::int64_t(1) << 20) + 3};
  v.erase(std::remove_if(v.begin(), v.end(),
                         [](std::int64_t n) { return n > testing::max_test_size(); }),
          v.end());
  return v;
}

class Extremum : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override {
    PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
    seed_ = fresh_seed();
  }
  context ctx() const { return testing::make_context(GetParam()); }
  std::uint64_t seed_ = 0;
};

TEST_P(Extremum, EveryTypeSizeAndTies) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  const context c = ctx();
  testing::for_each_type([&](auto t) {
    using T = decltype(t);
    for (std::int64_t n : extremum_sizes<T>())
      for (values_like like : {values_like::uniform, values_like::few_distinct}) {
        const auto x = make_values<T>(n, like, seed_ ^ std::uint64_t(n * 7 + int(like)));
        check_both(c, x, 0,
                   std::string(type_name<T>()) + ", n=" + std::to_string(n) + ", like " +
                       std::to_string(int(like)));
      }
  });
}

TEST_P(Extremum, NansSignedZerosAndMisalignedInput) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  const context c = ctx();
  auto run = [&](auto t) {
    using T = decltype(t);
    // 2^24 + 5: on CUDA each thread then walks several steps (on a 132-SM H100, 528 blocks
    // of 8 steps of 4096 f32), so the first step holding the best value, or a NaN, must win
    // over later ones.
    for (std::int64_t n :
         {std::int64_t(1), std::int64_t(5000), std::int64_t(70001), (std::int64_t(1) << 24) + 5})
      for (values_like like : {values_like::some_nan, values_like::all_nan,
                               values_like::signed_zeros, values_like::few_distinct})
        for (std::int64_t skip : {0, 1}) {
          if (n > testing::max_test_size() || skip >= n) continue;
          const bool spread_out =
              like == values_like::some_nan || like == values_like::few_distinct;
          if (n > 70001 && !spread_out) continue;  // all one kind: the small sizes say it all
          const auto x = make_values<T>(n, like, seed_ + std::uint64_t(n) + std::uint64_t(like));
          check_both(c, x, skip,
                     std::string(type_name<T>()) + ", n=" + std::to_string(n) + ", like " +
                         std::to_string(int(like)) + ", skip " + std::to_string(skip));
        }
  };
  run(float{});
  run(double{});
  // The extreme first, last, and the type's limits among random values; misaligned integers.
  for (std::int64_t n : {std::int64_t(4097), std::int64_t(70001)}) {
    if (n > testing::max_test_size()) continue;
    auto x = make_values<std::int32_t>(n, values_like::uniform, seed_ + 3);
    x.front() = std::numeric_limits<std::int32_t>::min();
    x.back() = std::numeric_limits<std::int32_t>::max();
    check_both(c, x, 0, "i32 extremes at the ends");
    check_both(c, x, 1, "i32 extremes at the ends, skip 1");
    auto y = make_values<std::uint64_t>(n, values_like::few_distinct, seed_ + 4);
    y.back() = 9;
    check_both(c, y, 1, "u64 largest last, skip 1");
  }
}

INSTANTIATE_TEST_SUITE_P(All, Extremum, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(ExtremumErrors, BadArgumentsThrowAndWriteNothing) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    auto in = buffer<float>::from_host(ctx, {3.0f, 1.0f, 2.0f});
    auto value = buffer<float>::from_host(ctx, {-1.0f, -1.0f});
    auto index = buffer<std::int64_t>::from_host(ctx, {-1, -1});
    const span<const float> x(in.data(), 3);
    const std::vector<std::string> name = {"[" + ctx.name() + "]"};
    auto expect = [&](auto&& call, const std::vector<std::string>& fragments) {
      testing::expect_error(call, errc::invalid_argument, fragments);
      EXPECT_EQ(value.to_host(), std::vector<float>(2, -1.0f));
      EXPECT_EQ(index.to_host(), std::vector<std::int64_t>(2, -1));
    };
    expect([&] { argmin<float>(ctx, x.subspan(0, 0)); }, {"argmin", "in is empty"});
    expect([&] { argmax<float>(ctx, span<const float>(nullptr, 3)); },
           {"argmax", "in.data() is null"});
    expect([&] { argmax_into<float>(ctx, x, value.view(), index.view().subspan(0, 1)); },
           {"argmax_into", "value.size()=2 but must be 1"});
    expect([&] { argmin_into<float>(ctx, x, value.view().subspan(0, 1), index.view()); },
           {"argmin_into", "index.size()=2 but must be 1"});
    expect(
        [&] {
          argmin_into<float>(ctx, x, span<float>(in.data() + 1, 1), index.view().subspan(0, 1));
        },
        {"argmin_into", "overlap"});
  }
}

}  // namespace
}  // namespace parprim
