// gather and scatter (single- and multi-pass) against the sequential oracles, over backend x
// element type x index type x size; out-of-range indices on both backends; bad arguments.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "parprim/gather_scatter.hpp"
#include "reference/gather_scatter_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::edge_sizes;
using testing::fresh_seed;
using testing::random_vector;

class GatherScatter : public ::testing::TestWithParam<backend> {};

// Edge sizes up to 2^20 for every type; the few-million size for 4-byte types only (the CPU
// run stays short).
template <class T>
std::vector<std::int64_t> sizes_for() {
  std::vector<std::int64_t> s;
  for (std::int64_t n : edge_sizes())
    if (n <= (1 << 20) || sizeof(T) == 4) s.push_back(n);
  return s;
}

// PARPRIM_TEST_MAX_N caps the fixed sizes too (sanitizer runs).
std::int64_t capped(std::int64_t n) { return std::min(n, testing::max_test_size()); }

template <class T>
std::vector<T> poisoned(std::int64_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  if (n > 0) std::memset(v.data(), 0xA5, v.size() * sizeof(T));
  return v;
}

// The first n entries of a random permutation of [0, size): distinct indices.
template <class I>
std::vector<I> distinct_indices(std::int64_t n, std::int64_t size, std::uint64_t seed) {
  std::vector<I> p(static_cast<std::size_t>(size));
  std::iota(p.begin(), p.end(), I(0));
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  p.resize(static_cast<std::size_t>(n));
  return p;
}

template <class I>
std::vector<I> random_indices(std::int64_t n, std::int64_t size, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_int_distribution<std::int64_t> d(0, size - 1);
  std::vector<I> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<I>(d(g));
  return v;
}

template <class T>
std::int64_t mismatches(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return -1;
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i) bad += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return bad;
}

template <class T, class I>
void check_gather(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : sizes_for<T>()) {
    // Values of a different length than the indices: gather may repeat and skip elements.
    const std::int64_t m = std::max<std::int64_t>(1, n / 2 + 3);
    auto values = random_vector<T>(m, seed + std::uint64_t(n));
    auto idx = random_indices<I>(n, m, seed * 7 + std::uint64_t(n));
    auto dv = buffer<T>::from_host(ctx, values);
    auto di = buffer<I>::from_host(ctx, idx);
    buffer<T> out(ctx, n);
    out.fill_bytes(0xA5);
    gather<T, I>(ctx, dv, di, out);
    ctx.synchronize();
    EXPECT_EQ(mismatches(out.to_host(), reference::gather(values, idx)), 0)
        << "gather " << type_name<T>() << "/" << type_name<I>() << " n=" << n;
  }
}

template <class T, class I>
void check_scatter(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : sizes_for<T>()) {
    // A permutation (out.size() == n) and a partial one into a larger output.
    for (std::int64_t extra : {std::int64_t(0), n / 3 + 5}) {
      if (extra > 0 && n > (1 << 20)) continue;
      const std::int64_t size = n + extra;
      auto values = random_vector<T>(n, seed + std::uint64_t(n));
      auto idx = distinct_indices<I>(n, size, seed * 13 + std::uint64_t(size));
      auto dv = buffer<T>::from_host(ctx, values);
      auto di = buffer<I>::from_host(ctx, idx);
      auto expect = poisoned<T>(size);
      reference::scatter(values, idx, expect);
      buffer<T> out(ctx, size);
      std::vector<scatter_options> variants = {{scatter_algorithm::single_pass, 0},
                                               {scatter_algorithm::multi_pass, 3}};
      if (n < (1 << 20)) {  // every pass reads the whole input: keep the CPU run short
        variants.push_back({scatter_algorithm::multi_pass, 1});
        variants.push_back({scatter_algorithm::multi_pass, 2});
        variants.push_back({scatter_algorithm::multi_pass, 16});
        variants.push_back({scatter_algorithm::multi_pass, 64});
      }
      for (const scatter_options& o : variants) {
        out.fill_bytes(0xA5);
        scatter<T, I>(ctx, dv, di, out, o);
        ctx.synchronize();
        EXPECT_EQ(mismatches(out.to_host(), expect), 0)
            << "scatter " << type_name<T>() << "/" << type_name<I>() << " n=" << n
            << " out=" << size << " " << to_string(o.algorithm) << " passes=" << o.passes;
      }
    }
  }
}

template <class I>
void check_index_type(const context& ctx, std::uint64_t seed) {
  testing::for_each_type([&](auto t) { check_gather<decltype(t), I>(ctx, seed); });
  testing::for_each_type([&](auto t) { check_scatter<decltype(t), I>(ctx, seed); });
}

TEST_P(GatherScatter, MatchesSequentialOracle32BitIndices) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_index_type<std::int32_t>(ctx, seed);
}

TEST_P(GatherScatter, MatchesSequentialOracle64BitIndices) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_index_type<std::int64_t>(ctx, seed);
}

// Views offset by one element: the vector loads must fall back to element access.
TEST_P(GatherScatter, MisalignedViews) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = capped(100'003);
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  auto values = random_vector<float>(n + 1, seed);
  auto idx = distinct_indices<std::int32_t>(n + 1, n + 1, seed + 1);
  for (auto& i : idx) i = std::min<std::int32_t>(i, std::int32_t(n - 1));
  auto dv = buffer<float>::from_host(ctx, values);
  auto di = buffer<std::int32_t>::from_host(ctx, idx);
  buffer<float> out(ctx, n + 1);
  out.fill_bytes(0);
  span<const float> v1 = dv.view().subspan(1, n);
  span<const std::int32_t> i1 = di.view().subspan(1, n);
  gather<float, std::int32_t>(ctx, v1, i1, out.view().subspan(1, n));
  ctx.synchronize();
  auto got = out.to_host();
  for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i + 1], values[idx[i + 1] + 1]) << i;

  auto perm = distinct_indices<std::int32_t>(n, n, seed + 2);
  auto dp = buffer<std::int32_t>::from_host(ctx, perm);
  for (int passes : {0, 1, 3}) {
    out.fill_bytes(0);
    scatter<float, std::int32_t>(ctx, v1, dp, out.view().subspan(1, n),
                                 {passes ? scatter_algorithm::multi_pass : scatter_algorithm::single_pass, passes});
    ctx.synchronize();
    got = out.to_host();
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[perm[i] + 1], values[i + 1]) << i;
  }
}

// Out-of-range indices: an error naming the first offending position; cpu writes nothing;
// cuda writes the elements with valid indices and raises at synchronize().
template <class I>
void check_out_of_range(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : {std::int64_t(1), std::int64_t(33), std::int64_t(4097), capped(300'001)}) {
    const std::int64_t size = n;
    std::mt19937_64 g(seed + std::uint64_t(n));
    auto idx = distinct_indices<I>(n, size, seed + 3);
    const std::int64_t first = std::int64_t(g() % std::uint64_t(n));
    const std::int64_t second = first + (n - first) / 2;
    const I bad_values[] = {I(-1), I(size), std::numeric_limits<I>::max(), std::numeric_limits<I>::min()};
    for (I bad : bad_values) {
      auto bi = idx;
      bi[static_cast<std::size_t>(first)] = bad;
      if (second != first) bi[static_cast<std::size_t>(second)] = I(-7);
      ASSERT_EQ(reference::first_out_of_range(bi, size), first);
      auto values = random_vector<std::uint32_t>(n, seed);
      auto dv = buffer<std::uint32_t>::from_host(ctx, values);
      auto di = buffer<I>::from_host(ctx, bi);
      buffer<std::uint32_t> out(ctx, size);
      const std::string where = "indices[" + std::to_string(first) + "]";
      auto expect_error = [&](const char* what, auto&& call) {
        out.fill_bytes(0xA5);
        try {
          call();
          ctx.synchronize();
          ADD_FAILURE() << what << ": no error for " << where << " n=" << n;
        } catch (const error& e) {
          EXPECT_EQ(e.code(), errc::out_of_range) << e.what();
          EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
          EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
        }
        auto got = out.to_host();
        if (ctx.kind() == backend::cpu) {
          EXPECT_EQ(mismatches(got, poisoned<std::uint32_t>(size)), 0) << what << ": cpu wrote output";
        } else if (std::string(what) == "gather") {
          for (std::int64_t i = 0; i < n; ++i) {
            bool ok = bi[i] >= 0 && std::int64_t(bi[i]) < size;
            ASSERT_EQ(got[i], ok ? values[static_cast<std::size_t>(bi[i])] : 0u) << "gather i=" << i;
          }
        }
        ctx.synchronize();  // the error was raised once; the context is clean again
      };
      expect_error("gather", [&] { gather<std::uint32_t, I>(ctx, dv, di, out); });
      expect_error("scatter", [&] { scatter<std::uint32_t, I>(ctx, dv, di, out); });
      expect_error("scatter", [&] {
        scatter<std::uint32_t, I>(ctx, dv, di, out, {scatter_algorithm::multi_pass, 4});
      });
    }
  }
}

TEST_P(GatherScatter, OutOfRangeIndicesNameTheFirstPosition) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_out_of_range<std::int32_t>(ctx, seed);
  check_out_of_range<std::int64_t>(ctx, seed);
}

// Every index out of range: an empty output or empty values.
TEST_P(GatherScatter, EmptyTargetRejectsEveryIndex) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  buffer<float> v(ctx, 5), none(ctx, 0), out(ctx, 5);
  auto di = buffer<std::int64_t>::from_host(ctx, std::vector<std::int64_t>{0, 0, 0, 0, 0});
  for (int which = 0; which < 2; ++which) {
    try {
      if (which == 0) gather<float, std::int64_t>(ctx, none, di, out);
      else scatter<float, std::int64_t>(ctx, v, di, none);
      ctx.synchronize();
      ADD_FAILURE() << "no error";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::out_of_range);
      EXPECT_NE(std::string(e.what()).find("indices[0]"), std::string::npos) << e.what();
    }
  }
}

TEST_P(GatherScatter, BadArgumentsAreRejectedBeforeWriting) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto v = buffer<double>::from_host(ctx, std::vector<double>{1, 2, 3, 4});
  auto i4 = buffer<std::int32_t>::from_host(ctx, std::vector<std::int32_t>{3, 2, 1, 0});
  auto i3 = buffer<std::int32_t>::from_host(ctx, std::vector<std::int32_t>{2, 1, 0});
  buffer<double> out4(ctx, 4);
  auto expect_invalid = [&](const char* what, auto&& call) {
    out4.fill_bytes(0xA5);
    try {
      call();
      ADD_FAILURE() << what << ": no error";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << what << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(ctx.name()), std::string::npos) << e.what();
    }
    EXPECT_EQ(mismatches(out4.to_host(), poisoned<double>(4)), 0) << what << " wrote output";
  };
  expect_invalid("gather sizes", [&] { gather<double, std::int32_t>(ctx, v, i3, out4); });
  expect_invalid("scatter sizes", [&] { scatter<double, std::int32_t>(ctx, v, i3, out4); });
  expect_invalid("gather null", [&] {
    gather<double, std::int32_t>(ctx, v, span<const std::int32_t>(nullptr, 4), out4);
  });
  expect_invalid("scatter null values", [&] {
    scatter<double, std::int32_t>(ctx, span<const double>(nullptr, 4), i4, out4);
  });
  expect_invalid("gather out aliases values", [&] {
    gather<double, std::int32_t>(ctx, v, i4, span<double>(v.data(), 4));
  });
  expect_invalid("scatter passes", [&] {
    scatter<double, std::int32_t>(ctx, v, i4, out4, {scatter_algorithm::multi_pass, -1});
  });
  expect_invalid("scatter passes", [&] {
    scatter<double, std::int32_t>(ctx, v, i4, out4, {scatter_algorithm::multi_pass, max_scatter_passes + 1});
  });
  expect_invalid("scatter algorithm", [&] {
    scatter<double, std::int32_t>(ctx, v, i4, out4, {static_cast<scatter_algorithm>(9), 0});
  });
  if (ctx.kind() == backend::cuda) {
    // Host memory handed to a CUDA context.
    std::vector<std::int32_t> host_idx = {0, 1, 2, 3};
    expect_invalid("host indices", [&] {
      gather<double, std::int32_t>(ctx, v, span<const std::int32_t>(host_idx), out4);
    });
  }
}

// The cost model (its first use measures the device: keep it out of sanitizer runs with
// --gtest_filter=-*CostModel*).
TEST_P(GatherScatter, CostModelPlans) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  if (testing::max_test_size() < (std::int64_t(1) << 21))
    GTEST_SKIP() << "PARPRIM_TEST_MAX_N is set: the bandwidth measurement is too slow there";
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = std::int64_t(1) << 26;
  scatter_plan best = plan_scatter(ctx, n, n, 4, 4);
  EXPECT_GE(best.passes, 1);
  EXPECT_LE(best.passes, max_scatter_passes);
  EXPECT_GT(best.seq_gbps, 0);
  EXPECT_GT(best.rand_gbps, 0);
  for (int k = 1; k <= max_scatter_passes; ++k) {
    scatter_plan p = plan_scatter(ctx, n, n, 4, 4, k);
    EXPECT_EQ(p.passes, k);
    EXPECT_GT(p.predicted_ms, 0);
    EXPECT_DOUBLE_EQ(p.slice_bytes, 4.0 * double(n) / k);
    EXPECT_LE(best.predicted_ms, p.predicted_ms) << "k=" << k;
  }
  // A tiny scatter: more passes only add reads.
  EXPECT_EQ(plan_scatter(ctx, 1024, 1024, 8, 8).passes, 1);
  // The model's own k gives the same output as a single pass.
  for (std::int64_t m : {std::int64_t(65537), std::int64_t(1) << 21}) {
    auto values = random_vector<double>(m, std::uint64_t(m));
    auto idx = distinct_indices<std::int64_t>(m, m, std::uint64_t(m) + 1);
    auto dv = buffer<double>::from_host(ctx, values);
    auto di = buffer<std::int64_t>::from_host(ctx, idx);
    auto expect = poisoned<double>(m);
    reference::scatter(values, idx, expect);
    buffer<double> out(ctx, m);
    out.fill_bytes(0xA5);
    scatter<double, std::int64_t>(ctx, dv, di, out, {scatter_algorithm::multi_pass, 0});
    ctx.synchronize();
    EXPECT_EQ(mismatches(out.to_host(), expect), 0) << "model's k, n=" << m;
  }
  EXPECT_THROW(plan_scatter(ctx, n, n, 2, 4), error);
  EXPECT_THROW(plan_scatter(ctx, n, n, 4, 4, -1), error);
  EXPECT_THROW(plan_scatter(ctx, -1, n, 4, 4), error);
}

INSTANTIATE_TEST_SUITE_P(All, GatherScatter, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
