// transform (unary and binary) against the sequential oracle, over backend x op x type x size.
#include "reference/transform_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::edge_sizes;
using testing::fresh_seed;
using testing::random_vector;

class Transform : public ::testing::TestWithParam<backend> {};

template <class T>
void check_type(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : edge_sizes()) {
    auto a = random_vector<T>(n, seed + std::uint64_t(n));
    auto b = random_vector<T>(n, seed * 31 + std::uint64_t(n));
    auto da = buffer<T>::from_host(ctx, a);
    auto db = buffer<T>::from_host(ctx, b);
    buffer<T> out(ctx, n);
    for (unary_op f : {unary_op::identity, unary_op::negate, unary_op::abs, unary_op::square}) {
      out.fill_bytes(0xA5);
      transform<T>(ctx, da, out, f);
      auto got = out.to_host();
      std::int64_t bad = 0;
      for (std::int64_t i = 0; i < n; ++i) bad += got[i] != reference::apply(f, a[i]);
      EXPECT_EQ(bad, 0) << type_name<T>() << " " << to_string(f) << " n=" << n;
    }
    for (binary_op f : {binary_op::plus, binary_op::minus, binary_op::multiply, binary_op::min,
                        binary_op::max}) {
      out.fill_bytes(0xA5);
      transform<T>(ctx, da, db, out, f);
      auto got = out.to_host();
      std::int64_t bad = 0;
      for (std::int64_t i = 0; i < n; ++i) bad += got[i] != reference::apply(f, a[i], b[i]);
      EXPECT_EQ(bad, 0) << type_name<T>() << " " << to_string(f) << " n=" << n;
    }
    // In place: out aliases the input exactly.
    transform<T>(ctx, da, da, unary_op::negate);
    auto got = da.to_host();
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < n; ++i) bad += got[i] != reference::apply(unary_op::negate, a[i]);
    EXPECT_EQ(bad, 0) << type_name<T>() << " in place n=" << n;
  }
}

TEST_P(Transform, MatchesSequentialOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto t) { check_type<decltype(t)>(ctx, seed); });
}

// Misaligned views (offset by one element) exercise the vector-load prologue and tails.
TEST_P(Transform, MisalignedViews) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = 100'003;
  auto a = random_vector<float>(n + 1, fresh_seed());
  auto da = buffer<float>::from_host(ctx, a);
  buffer<float> out(ctx, n + 1);
  out.fill_bytes(0);
  transform<float>(ctx, da.view().subspan(1, n), out.view().subspan(1, n), unary_op::square);
  auto got = out.to_host();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i + 1], a[i + 1] * a[i + 1]) << i;
  EXPECT_EQ(got[0], 0.0f);
}

INSTANTIATE_TEST_SUITE_P(All, Transform, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
