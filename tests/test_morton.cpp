// morton_encode on both backends against the bit-by-bit oracle: sizes around the tiles, both
// code widths, float and double, points outside the box, degenerate boxes, and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "parprim/buffer.hpp"
#include "parprim/morton.hpp"
#include "reference/morton_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::expect_error;

class Morton : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override { PARPRIM_SKIP_IF_NO_BACKEND(GetParam()); }
};

template <class T, class C>
std::vector<C> encode(const context& ctx, const std::vector<T>& x, const std::vector<T>& y, const std::vector<T>& z,
                      const morton_box<T>& box) {
  auto bx = buffer<T>::from_host(ctx, x), by = buffer<T>::from_host(ctx, y), bz = buffer<T>::from_host(ctx, z);
  buffer<C> codes(ctx, static_cast<std::int64_t>(x.size()));
  codes.fill_bytes(0xAB);
  morton_encode<T, C>(ctx, bx, by, bz, box, codes);
  ctx.synchronize();
  return codes.to_host();
}

template <class T, class C>
void check_against_oracle(const context& ctx, std::int64_t n, std::uint64_t seed) {
  constexpr int bits = morton_bits_per_axis<C>();
  // Points in [-1, 1)^3, y stretched, in a box a little inside (so some fall outside).
  auto x = testing::random_vector<T>(n, seed), y = testing::random_vector<T>(n, seed + 1),
       z = testing::random_vector<T>(n, seed + 2);
  for (auto& v : y) v *= T(3);
  morton_box<T> box;
  box.lo[0] = T(-0.9), box.hi[0] = T(0.95), box.lo[1] = T(-2), box.hi[1] = T(2.5), box.lo[2] = T(-1), box.hi[2] = T(1);
  const auto codes = encode<T, C>(ctx, x, y, z, box);
  ASSERT_EQ(codes.size(), x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::uint64_t want = reference::morton_interleave_ref(
        reference::morton_cell_ref(x[i], box.lo[0], box.hi[0], bits), reference::morton_cell_ref(y[i], box.lo[1], box.hi[1], bits),
        reference::morton_cell_ref(z[i], box.lo[2], box.hi[2], bits), bits);
    ASSERT_EQ(codes[i], C(want)) << "point " << i << " (" << x[i] << ", " << y[i] << ", " << z[i] << ")";
  }
}

TEST_P(Morton, MatchesTheOracle) {
  const context ctx = testing::make_context(GetParam());
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::int64_t n : testing::edge_sizes()) {
    if (n > (1 << 20)) continue;
    SCOPED_TRACE("n=" + std::to_string(n));
    check_against_oracle<float, std::uint32_t>(ctx, n, seed + n);
    check_against_oracle<float, std::uint64_t>(ctx, n, seed + n);
    check_against_oracle<double, std::uint32_t>(ctx, n, seed + n);
    check_against_oracle<double, std::uint64_t>(ctx, n, seed + n);
  }
}

TEST_P(Morton, CornersBitsAndDegenerateBoxes) {
  const context ctx = testing::make_context(GetParam());
  morton_box<double> unit;  // [0, 1]^3
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  // Lower corner, upper corner, outside on both sides, infinities and NaN, one x cell.
  const std::vector<double> x = {0, 1, -5, 7, -inf, inf, nan, 1.0 / 1024 + 1e-9};
  const std::vector<double> y = {0, 1, 0.5, 0.5, 0, 0, 0, 0};
  const std::vector<double> z = {0, 1, 0, 0, 0, 0, 0, 0};
  const auto c32 = encode<double, std::uint32_t>(ctx, x, y, z, unit);
  EXPECT_EQ(c32[0], 0u);
  EXPECT_EQ(c32[1], (1u << 30) - 1);                 // every bit set
  EXPECT_EQ(c32[2], 1u << 28);                       // x cell 0, y cell 512: y's top bit
  EXPECT_EQ(c32[3], (1u << 28) | 0x24924924u);       // x cell 1023: every x bit
  EXPECT_EQ(c32[4], 0u);
  EXPECT_EQ(c32[5], 0x24924924u);
  EXPECT_EQ(c32[6], 0u);
  EXPECT_EQ(c32[7], 4u);                             // x cell 1: bit 2
  const auto c64 = encode<double, std::uint64_t>(ctx, x, y, z, unit);
  EXPECT_EQ(c64[1], (std::uint64_t(1) << 63) - 1);
  // A flat box (zero extent on z) and a single point: every code from cell 0 on that axis.
  morton_box<float> flat;
  flat.lo[2] = flat.hi[2] = 3.0f;
  const auto f = encode<float, std::uint64_t>(ctx, {0.5f}, {0.5f}, {3.0f}, flat);
  EXPECT_EQ(f[0] & 0x1249249249249249ull, 0u);
  EXPECT_NE(f[0], 0u);
  // cube(): equal edges, the largest extent, containing the original box.
  const float lo[3] = {0, -1, 2}, hi[3] = {1, 3, 2.5f};
  const auto cube = morton_box<float>::cube(lo, hi);
  for (int a = 0; a < 3; ++a) {
    EXPECT_EQ(cube.lo[a], lo[a]);
    EXPECT_FLOAT_EQ(cube.hi[a] - cube.lo[a], 4.0f);
    EXPECT_GE(cube.hi[a], hi[a]);
  }
  // A box spanning most of double's range still quantizes (no overflow to inf or NaN).
  morton_box<double> huge;
  for (int a = 0; a < 3; ++a) huge.lo[a] = -1e308, huge.hi[a] = 1e308;
  const auto h = encode<double, std::uint32_t>(ctx, {-1e308, 0.0, 1e308}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, huge);
  // y = z = 0 is the middle cell (512: the top bit); x = 1e308 - (-1e308) overflows to inf
  // and lands on the last cell.
  EXPECT_EQ(h[0], 3u << 27);
  EXPECT_EQ(h[1], 7u << 27);
  EXPECT_EQ(h[2], 0x24924924u | (3u << 27));
}

TEST_P(Morton, BadInputNamesTheArgument) {
  const context ctx = testing::make_context(GetParam());
  const std::string name = "[" + ctx.name() + "]";
  buffer<float> x(ctx, 10), y(ctx, 10), z(ctx, 9);
  buffer<std::uint32_t> codes(ctx, 10);
  morton_box<float> box;
  expect_error([&] { morton_encode<float, std::uint32_t>(ctx, x, y, z, box, codes); }, errc::invalid_argument,
               {"parprim::morton_encode", name, "z.size()=9"});
  buffer<float> z10(ctx, 10);
  box.lo[1] = 2;
  expect_error([&] { morton_encode<float, std::uint32_t>(ctx, x, y, z10, box, codes); }, errc::invalid_argument,
               {"y axis", "lo=2", "above hi=1"});
  box.lo[1] = 0;
  box.hi[0] = std::numeric_limits<float>::infinity();
  expect_error([&] { morton_encode<float, std::uint32_t>(ctx, x, y, z10, box, codes); }, errc::invalid_argument,
               {"x axis", "finite"});
  box.hi[0] = 1;
  // Codes written over the coordinates.
  buffer<float> both(ctx, 20);
  expect_error(
      [&] {
        morton_encode<float, std::uint32_t>(ctx, span<const float>(both.data(), 10), y, z10, box,
                                            span<std::uint32_t>(reinterpret_cast<std::uint32_t*>(both.data()) + 5, 10));
      },
      errc::invalid_argument, {"x and codes overlap"});
  // Host memory on a CUDA context.
  if (ctx.kind() == backend::cuda) {
    std::vector<float> host(10);
    expect_error([&] { morton_encode<float, std::uint32_t>(ctx, span<const float>(host.data(), 10), y, z10, box, codes); },
                 errc::invalid_argument, {"x points to memory"});
  }
  // Empty input is fine.
  morton_encode<float, std::uint32_t>(ctx, span<const float>(), span<const float>(), span<const float>(), box,
                                      span<std::uint32_t>());
}

INSTANTIATE_TEST_SUITE_P(Backends, Morton, ::testing::ValuesIn(testing::all_backends()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
