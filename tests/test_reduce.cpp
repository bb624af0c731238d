// reduce and reduce_into against the sequential oracle, over backend x algorithm x op x type
// x size (every tile edge), on fresh random inputs each run.
#include <cstring>
#include <tuple>

#include "reference/reduce_scan_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::edge_sizes;
using testing::fresh_seed;
using testing::random_vector;

using param = std::tuple<backend, reduce_algorithm, op>;

class Reduce : public ::testing::TestWithParam<param> {};

// Floats: |result - oracle| <= tol(n) * sum|x|. Integers and min/max: exact.
template <class T>
void expect_close(T got, reference::acc_t<T> want, const std::vector<T>& x, op o,
                  const std::string& where) {
  if constexpr (std::is_floating_point_v<T>) {
    if (o != op::plus) {
      EXPECT_EQ(got, static_cast<T>(want)) << where;
      return;
    }
    double abs_sum = 0;
    for (T v : x) abs_sum += std::abs(double(v));
    double tol = testing::float_tolerance<T>(std::int64_t(x.size())) * abs_sum + 1e-30;
    EXPECT_NEAR(double(got), double(want), tol) << where;
  } else {
    EXPECT_EQ(got, want) << where;
  }
}

template <class T>
void check_type(const context& ctx, reduce_algorithm alg, op o, std::uint64_t seed) {
  workspace ws(ctx);
  for (std::int64_t n : edge_sizes()) {
    std::string where = std::string(type_name<T>()) + " n=" + std::to_string(n);
    auto x = random_vector<T>(n, seed + std::uint64_t(n));
    auto in = buffer<T>::from_host(ctx, x);
    auto want = reference::reduce(x.data(), n, o);

    // Host-returning path, allocating temporaries from the context.
    T got = reduce<T>(ctx, in, o, alg);
    expect_close(got, want, x, o, where + " reduce");

    // Device-resident path with a reused workspace; poison the output first.
    buffer<T> out(ctx, 1);
    out.fill_bytes(0xA5);
    reduce_into<T>(ctx, in, out, o, alg, &ws);
    T again = out.to_host()[0];
    expect_close(again, want, x, o, where + " reduce_into");
    // Bitwise reproducible: the same input gives the same bits on every call.
    EXPECT_EQ(0, std::memcmp(&got, &again, sizeof(T))) << where << " not reproducible";
  }
}

TEST_P(Reduce, MatchesSequentialOracle) {
  auto [b, alg, o] = GetParam();
  PARPRIM_SKIP_IF_NO_BACKEND(b);
  context ctx = testing::make_context(b);
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  // Structured bindings cannot be captured before C++20 (clang rejects it): copy them in.
  testing::for_each_type([&, alg = alg, o = o](auto t) { check_type<decltype(t)>(ctx, alg, o, seed); });
}

INSTANTIATE_TEST_SUITE_P(
    All, Reduce,
    ::testing::Combine(::testing::Values(backend::cpu, backend::cuda),
                       ::testing::Values(reduce_algorithm::interleaved, reduce_algorithm::contiguous,
                                         reduce_algorithm::production),
                       ::testing::Values(op::plus, op::min, op::max)),
    [](const auto& info) {
      return std::string(to_string(std::get<0>(info.param))) + "_" +
             to_string(std::get<1>(info.param)) + "_" + to_string(std::get<2>(info.param));
    });

// Identity on empty input, for every op.
TEST(ReduceEdges, EmptyGivesIdentity) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    span<const float> empty;
    EXPECT_EQ(reduce<float>(ctx, empty, op::plus), 0.0f);
    EXPECT_EQ(reduce<float>(ctx, empty, op::min), std::numeric_limits<float>::infinity());
    EXPECT_EQ(reduce<float>(ctx, empty, op::max), -std::numeric_limits<float>::infinity());
    EXPECT_EQ(reduce<std::int32_t>(ctx, span<const std::int32_t>(), op::min),
              std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(reduce<std::uint64_t>(ctx, span<const std::uint64_t>(), op::max), 0u);
  }
}

// The CPU result does not depend on the number of threads (fixed combining order).
TEST(ReduceEdges, CpuSameBitsOnAnyThreadCount) {
  auto x = random_vector<float>(5'000'011, fresh_seed());
  float one = reduce<float>(context::cpu(1), span<const float>(x));
  float many = reduce<float>(context::cpu(7), span<const float>(x));
  EXPECT_EQ(0, std::memcmp(&one, &many, sizeof(float)));
}

}  // namespace
}  // namespace parprim
