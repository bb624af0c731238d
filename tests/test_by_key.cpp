// reduce_by_key, inclusive/exclusive_scan_by_key, unique, unique_by_key, unique_count and
// run_length_encode against sequential loops (reference/runs_ref.hpp), over backend x key
// type x value type x op x size (tile edges) x average run length, with NaN and signed-zero
// keys, poisoned outputs and bad arguments.
#include <cmath>
#include <cstring>
#include <random>

#include "reference/runs_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;

// Keys in runs of random length (mean about `mean_run`; 0: all keys equal) drawn from a few
// values, so that neighbouring runs sometimes share a key and merge; floats add NaN (never
// equal to itself) and -0.0 (equal to +0.0).
template <class K>
std::vector<K> make_keys(std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<K> k(static_cast<std::size_t>(n));
  std::int64_t i = 0;
  while (i < n) {
    std::int64_t len = mean_run == 0 ? n : 1 + std::int64_t(g() % std::uint64_t(2 * mean_run - 1));
    K key = K(g() % 5);
    if constexpr (std::is_floating_point_v<K>) {
      if (mean_run != 0 && g() % 7 == 0) key = std::numeric_limits<K>::quiet_NaN();
      if (key == K(0) && g() % 2) key = -K(0);
    }
    for (std::int64_t j = i; j < std::min(n, i + len); ++j) k[j] = key;
    i += len;
  }
  return k;
}

// Small integer values: every combining order gives the same result, floats included.
template <class V>
std::vector<V> make_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<V> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = std::is_signed_v<V> ? V(std::int64_t(g() % 17) - 8) : V(g() % 17);
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

std::vector<std::int64_t> sizes(const context& ctx) {
  std::vector<std::int64_t> out;
  // CUDA tiles: 3840 elements (256 threads x 15) for 4-byte keys and values, 2304 (x 9) when
  // either is 8 bytes; 65536 = one CPU block (300'007: several). On CUDA, 600'011 is past the
  // look-back's window of 128 tiles of 3840 (the CPU has no such window: CI time saved).
  for (std::int64_t n : {0, 1, 2, 33, 257, 2303, 2304, 2305, 3839, 3840, 3841, 4609, 7681, 65535,
                         65537, 300'007})
    if (n <= testing::max_test_size()) out.push_back(n);
  if (ctx.kind() == backend::cuda && 600'011 <= testing::max_test_size()) out.push_back(600'011);
  return out;
}

class ByKey : public ::testing::TestWithParam<backend> {};

template <class K, class V>
void check_pair(const context& ctx, std::uint64_t seed) {
  workspace ws(ctx);
  for (std::int64_t n : sizes(ctx)) {
    for (std::int64_t mean_run : {1, 8, 512, 0}) {
      auto keys = make_keys<K>(n, mean_run, seed ^ std::uint64_t(n * 131 + mean_run));
      auto values = make_values<V>(n, seed + std::uint64_t(n));
      std::string where = std::string(type_name<K>()) + "/" + type_name<V>() + " n=" +
                          std::to_string(n) + " run=" + std::to_string(mean_run);
      auto k = buffer<K>::from_host(ctx, keys);
      auto v = buffer<V>::from_host(ctx, values);
      for (op o : {op::plus, op::min, op::max}) {
        auto want = reference::reduce_by_key(keys, values, o);
        buffer<K> ko(ctx, n);
        buffer<V> vo(ctx, n);
        ko.fill_bytes(0xA5);
        std::int64_t runs = reduce_by_key<K, V>(ctx, k, v, ko, vo, o, &ws);
        ASSERT_EQ(runs, std::int64_t(want.keys.size())) << where;
        auto got_k = ko.to_host();
        auto got_v = vo.to_host();
        got_k.resize(runs);
        got_v.resize(runs);
        EXPECT_TRUE(same_bits(got_k, want.keys)) << where << " keys " << to_string(o);
        EXPECT_EQ(got_v, want.values) << where << " values " << to_string(o);

        auto heads = reference::run_heads(keys);
        V init = V(3);
        for (bool inclusive : {true, false}) {
          buffer<V> out(ctx, n);
          out.fill_bytes(0xA5);
          if (inclusive) inclusive_scan_by_key<K, V>(ctx, k, v, out, o);
          else exclusive_scan_by_key<K, V>(ctx, k, v, out, init, o, &ws);
          EXPECT_EQ(out.to_host(), reference::scan_by_heads(heads, values, o, inclusive, init))
              << where << (inclusive ? " inclusive " : " exclusive ") << to_string(o);
        }
      }
      // unique_by_key: the first value of each run.
      buffer<K> ko(ctx, n);
      buffer<V> vo(ctx, n);
      std::int64_t runs = unique_by_key<K, V>(ctx, k, v, ko, vo);
      auto want = reference::reduce_by_key(keys, values, op::plus);
      ASSERT_EQ(runs, std::int64_t(want.keys.size())) << where;
      auto heads = reference::run_heads(keys);
      std::vector<V> firsts;
      for (std::int64_t i = 0; i < n; ++i)
        if (heads[i]) firsts.push_back(values[i]);
      auto got_v = vo.to_host();
      got_v.resize(runs);
      EXPECT_EQ(got_v, firsts) << where << " unique_by_key";
    }
  }
}

template <class K>
void check_unique(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : sizes(ctx)) {
    for (std::int64_t mean_run : {1, 8, 512, 0}) {
      auto keys = make_keys<K>(n, mean_run, seed ^ std::uint64_t(n * 17 + mean_run));
      std::string where = std::string(type_name<K>()) + " n=" + std::to_string(n) + " run=" +
                          std::to_string(mean_run);
      auto want = reference::run_length_encode(keys);
      const std::int64_t runs = std::int64_t(want.keys.size());
      auto k = buffer<K>::from_host(ctx, keys);
      EXPECT_EQ(unique_count<K>(ctx, k), runs) << where;
      buffer<K> u(ctx, n);
      u.fill_bytes(0xA5);
      ASSERT_EQ(unique<K>(ctx, k, u), runs) << where;
      auto got = u.to_host();
      std::vector<K> tail(got.begin() + runs, got.end());
      got.resize(runs);
      EXPECT_TRUE(same_bits(got, want.keys)) << where << " unique";
      std::vector<unsigned char> poison(tail.size() * sizeof(K), 0xA5);
      EXPECT_TRUE(tail.empty() || std::memcmp(tail.data(), poison.data(), poison.size()) == 0)
          << where << " unique wrote past its count";
      buffer<std::int64_t> len(ctx, runs);
      buffer<K> u2(ctx, runs);
      ASSERT_EQ(run_length_encode<K>(ctx, k, u2, len), runs) << where;
      EXPECT_TRUE(same_bits(u2.to_host(), want.keys)) << where << " rle keys";
      EXPECT_EQ(len.to_host(), want.values) << where << " rle lengths";
    }
  }
}

TEST_P(ByKey, EveryKeyTypeMatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_pair<std::int32_t, std::int32_t>(ctx, seed);
  check_pair<std::uint32_t, std::int32_t>(ctx, seed);
  check_pair<std::int64_t, std::int32_t>(ctx, seed);
  check_pair<std::uint64_t, std::int32_t>(ctx, seed);
  check_pair<float, std::int32_t>(ctx, seed);
  check_pair<double, std::int32_t>(ctx, seed);
}

TEST_P(ByKey, EveryValueTypeMatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_pair<float, std::uint32_t>(ctx, seed);
  check_pair<std::int32_t, std::int64_t>(ctx, seed);
  check_pair<std::uint32_t, std::uint64_t>(ctx, seed);
  check_pair<std::uint64_t, float>(ctx, seed);
  check_pair<double, double>(ctx, seed);
}

TEST_P(ByKey, UniqueAndRunLengthEncodeMatchOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_unique<std::int32_t>(ctx, seed);
  check_unique<std::uint32_t>(ctx, seed);
  check_unique<std::int64_t>(ctx, seed);
  check_unique<std::uint64_t>(ctx, seed);
  check_unique<float>(ctx, seed);
  check_unique<double>(ctx, seed);
}

// NaN != NaN: three NaNs in a row are three runs; -0.0 and +0.0 are one run (first bits kept).
TEST_P(ByKey, NanKeysAreRunsOfTheirOwn) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto k = buffer<float>::from_host(ctx, {nan, nan, nan, -0.0f, 0.0f, 1.0f, 1.0f});
  auto v = buffer<std::int32_t>::from_host(ctx, {1, 2, 3, 4, 5, 6, 7});
  buffer<float> ko(ctx, 7);
  buffer<std::int32_t> vo(ctx, 7);
  ASSERT_EQ((reduce_by_key<float, std::int32_t>(ctx, k, v, ko, vo)), 5);
  auto keys = ko.to_host();
  EXPECT_TRUE(std::isnan(keys[0]) && std::isnan(keys[1]) && std::isnan(keys[2]));
  EXPECT_TRUE(keys[3] == 0.0f && std::signbit(keys[3]));
  EXPECT_EQ(keys[4], 1.0f);
  auto got = vo.to_host();
  got.resize(5);
  EXPECT_EQ(got, (std::vector<std::int32_t>{1, 2, 3, 9, 13}));
  EXPECT_EQ(unique_count<float>(ctx, k), 5);
}

// Outputs too small for the runs: an error naming the output and the run count; the output
// then holds the first size() runs (nothing is written past its end).
TEST_P(ByKey, BadArgumentsThrow) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto k = buffer<std::int32_t>::from_host(ctx, {1, 1, 2, 3, 3, 4});
  auto v = buffer<std::int32_t>::from_host(ctx, {1, 2, 3, 4, 5, 6});
  buffer<std::int32_t> small(ctx, 3), vo(ctx, 6);
  small.fill_bytes(0x5A);
  testing::expect_error([&] { reduce_by_key<std::int32_t, std::int32_t>(ctx, k, v, small, vo); },
                        errc::invalid_argument,
                        {"reduce_by_key", ctx.name(), "keys_out.size()=3", "4 runs"});
  EXPECT_EQ(small.to_host(), (std::vector<std::int32_t>{1, 2, 3}));
  EXPECT_EQ(vo.to_host()[2], 4 + 5);
  testing::expect_error([&] { unique<std::int32_t>(ctx, k, small); }, errc::invalid_argument,
                        {"unique", "out.size()=3", "4 runs"});
  EXPECT_EQ(small.to_host(), (std::vector<std::int32_t>{1, 2, 3}));
  buffer<std::int32_t> short_values(ctx, 5);
  testing::expect_error(
      [&] { inclusive_scan_by_key<std::int32_t, std::int32_t>(ctx, k, short_values, vo); },
      errc::invalid_argument, {"inclusive_scan_by_key", "keys.size()=6", "values.size()=5"});
}

INSTANTIATE_TEST_SUITE_P(All, ByKey, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
