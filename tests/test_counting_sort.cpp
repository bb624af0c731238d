// counting_sort and counting_sort_pairs against a stable sequential oracle, over backend x key
// type x value type x key range x size; out-of-range keys; bad arguments.
//
// Values carry each element's input position, so any reordering of equal keys (instability)
// shows as a mismatch.
#include <cstring>
#include <limits>
#include <random>

#include "parprim/counting_sort.hpp"
#include "reference/histogram_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::edge_sizes;
using testing::fresh_seed;

class CountingSort : public ::testing::TestWithParam<backend> {};

// PARPRIM_TEST_MAX_N caps the fixed sizes too (sanitizer runs).
std::int64_t capped(std::int64_t n) { return std::min(n, testing::max_test_size()); }

template <class K>
std::vector<K> keys_in_range(std::int64_t n, K min_key, std::int64_t range, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<K> k(static_cast<std::size_t>(n));
  for (auto& x : k) x = static_cast<K>(std::int64_t(min_key) + std::int64_t(g() % std::uint64_t(range)));
  return k;
}

template <class K, class V>
void check_pairs(const context& ctx, std::int64_t n, std::int64_t range, K min_key, std::uint64_t seed) {
  auto keys = keys_in_range<K>(n, min_key, range, seed);
  std::vector<V> values(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) values[static_cast<std::size_t>(i)] = static_cast<V>(i);
  std::vector<K> ek;
  std::vector<V> ev;
  reference::counting_sort_pairs(keys, values, range, min_key, ek, ev);
  auto dk = buffer<K>::from_host(ctx, keys);
  auto dv = buffer<V>::from_host(ctx, values);
  buffer<K> ok(ctx, n);
  buffer<V> ov(ctx, n);
  ok.fill_bytes(0xA5);
  ov.fill_bytes(0xA5);
  counting_sort_pairs<K, V>(ctx, dk, dv, ok, ov, range, min_key);
  ctx.synchronize();
  EXPECT_EQ(ok.to_host(), ek) << "keys " << type_name<K>() << "/" << type_name<V>() << " n=" << n
                              << " range=" << range << " min=" << +min_key;
  EXPECT_EQ(ov.to_host(), ev) << "values (stability) " << type_name<K>() << "/" << type_name<V>()
                              << " n=" << n << " range=" << range << " min=" << +min_key;
}

template <class K>
void check_keys(const context& ctx, std::int64_t n, std::int64_t range, K min_key, std::uint64_t seed) {
  auto keys = keys_in_range<K>(n, min_key, range, seed);
  std::vector<K> ek;
  std::vector<K> unused;
  reference::counting_sort_pairs(keys, std::vector<K>(), range, min_key, ek, unused);
  auto dk = buffer<K>::from_host(ctx, keys);
  buffer<K> ok(ctx, n);
  ok.fill_bytes(0xA5);
  counting_sort<K>(ctx, dk, ok, range, min_key);
  ctx.synchronize();
  EXPECT_EQ(ok.to_host(), ek) << "keys only " << type_name<K>() << " n=" << n << " range=" << range;
}

template <class K>
std::vector<K> min_keys() {
  if constexpr (std::is_signed_v<K>) return {K(0), K(-5), std::numeric_limits<K>::lowest()};
  else return {K(0), K(1000)};
}

template <class K>
void check_key_type(const context& ctx, std::uint64_t seed) {
  for (std::int64_t range : {std::int64_t(1), std::int64_t(2), std::int64_t(17), std::int64_t(256),
                             std::int64_t(1000), max_counting_sort_range}) {
    for (K min_key : min_keys<K>()) {
      for (std::int64_t n : edge_sizes()) {
        if (n > (1 << 20) && min_key != min_keys<K>().front()) continue;  // keep the CPU run short
        const std::uint64_t s = seed + std::uint64_t(n) * 7 + std::uint64_t(range);
        check_pairs<K, std::uint32_t>(ctx, n, range, min_key, s);
        check_keys<K>(ctx, n, range, min_key, s);
      }
    }
    // Keys at the very top of the key type.
    const K top = static_cast<K>(std::int64_t(std::numeric_limits<K>::max()) - range + 1);
    check_pairs<K, std::uint64_t>(ctx, capped(70'001), range, top, seed + 5);
  }
  // Every value type, a few sizes.
  for (std::int64_t n : {std::int64_t(1), std::int64_t(1025), capped(300'007)}) {
    check_pairs<K, std::int32_t>(ctx, n, 300, K(3), seed + 1);
    check_pairs<K, std::int64_t>(ctx, n, 300, K(3), seed + 2);
    check_pairs<K, std::uint64_t>(ctx, n, 300, K(3), seed + 3);
    check_pairs<K, float>(ctx, n, 300, K(3), seed + 4);
    check_pairs<K, double>(ctx, n, 300, K(3), seed + 5);
  }
}

TEST_P(CountingSort, MatchesStableOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_key_type<std::int32_t>(ctx, seed);
  check_key_type<std::uint32_t>(ctx, seed);
}

// All keys equal: one key holds every element, in input order.
TEST_P(CountingSort, AllEqualKeysKeepTheirOrder) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::int64_t n = capped(1'000'003);
  auto dk = buffer<std::uint32_t>::from_host(ctx, std::vector<std::uint32_t>(static_cast<std::size_t>(n), 9u));
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) idx[static_cast<std::size_t>(i)] = i;
  auto dv = buffer<std::int64_t>::from_host(ctx, idx);
  buffer<std::uint32_t> ok(ctx, n);
  buffer<std::int64_t> ov(ctx, n);
  counting_sort_pairs<std::uint32_t, std::int64_t>(ctx, dk, dv, ok, ov, 16, 0u);
  EXPECT_EQ(ov.to_host(), idx);
  EXPECT_EQ(ok.to_host(), std::vector<std::uint32_t>(static_cast<std::size_t>(n), 9u));
}

TEST_P(CountingSort, OutOfRangeKeysNameTheFirstPosition) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : {std::int64_t(1), std::int64_t(40), capped(100'000)}) {
    auto keys = keys_in_range<std::int32_t>(n, -10, 50, seed);
    const std::int64_t first = std::int64_t(seed % std::uint64_t(n));
    keys[static_cast<std::size_t>(first)] = 40;  // min_key + range: just outside
    if (first + 1 < n) keys[static_cast<std::size_t>(n - 1)] = -11;
    auto dk = buffer<std::int32_t>::from_host(ctx, keys);
    buffer<std::int32_t> ok(ctx, n);
    ok.fill_bytes(0xA5);
    try {
      counting_sort<std::int32_t>(ctx, dk, ok, 50, -10);
      ctx.synchronize();
      ADD_FAILURE() << "no error";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::out_of_range);
      EXPECT_NE(std::string(e.what()).find("keys_in[" + std::to_string(first) + "]"), std::string::npos)
          << e.what();
    }
    if (ctx.kind() == backend::cpu)
      for (std::int32_t k : ok.to_host()) ASSERT_EQ(static_cast<std::uint32_t>(k), 0xA5A5A5A5u);
  }
}

TEST_P(CountingSort, BadArgumentsAreRejectedBeforeWriting) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto k = buffer<std::uint32_t>::from_host(ctx, std::vector<std::uint32_t>{1, 0, 1});
  auto v = buffer<float>::from_host(ctx, std::vector<float>{1, 2, 3});
  buffer<std::uint32_t> ok(ctx, 3), ok2(ctx, 2);
  buffer<float> ov(ctx, 3);
  auto expect_invalid = [&](const char* what, auto&& call) {
    ok.fill_bytes(0xA5);
    try {
      call();
      ADD_FAILURE() << what << ": no error";
    } catch (const error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find(ctx.name()), std::string::npos) << e.what();
    }
    for (std::uint32_t x : ok.to_host()) EXPECT_EQ(x, 0xA5A5A5A5u) << what << " wrote output";
  };
  expect_invalid("range 0", [&] { counting_sort<std::uint32_t>(ctx, k, ok, 0); });
  expect_invalid("range too wide", [&] { counting_sort<std::uint32_t>(ctx, k, ok, max_counting_sort_range + 1); });
  expect_invalid("range past the key type", [&] {
    counting_sort<std::uint32_t>(ctx, k, ok, 4, std::numeric_limits<std::uint32_t>::max() - 2);
  });
  expect_invalid("size mismatch", [&] { counting_sort<std::uint32_t>(ctx, k, ok2, 4); });
  expect_invalid("values size", [&] {
    counting_sort_pairs<std::uint32_t, float>(ctx, k, v.view().subspan(0, 2), ok, ov, 4);
  });
  expect_invalid("in place", [&] {
    counting_sort<std::uint32_t>(ctx, k, span<std::uint32_t>(k.data(), 3), 4);
  });
  expect_invalid("null keys", [&] {
    counting_sort<std::uint32_t>(ctx, span<const std::uint32_t>(nullptr, 3), ok, 4);
  });
}

INSTANTIATE_TEST_SUITE_P(All, CountingSort, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
