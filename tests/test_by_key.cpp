// reduce_by_key, inclusive/exclusive_scan_by_key, unique, unique_by_key, unique_count and
// run_length_encode against sequential loops (reference/runs_ref.hpp), over backend x key
// type x value type x op x size (tile edges) x average run length (runs of exactly 1 among
// them), with NaN and signed-zero keys, poisoned outputs and bad arguments.
#include <cmath>
#include <cstring>
#include <random>

#include "by_key_inputs.hpp"
#include "reference/runs_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using namespace by_key_inputs;
using testing::fresh_seed;
using testing::same_bits;

class ByKey : public ::testing::TestWithParam<backend> {};

template <class K, class V>
void check_pair(const context& ctx, std::uint64_t seed) {
  workspace ws(ctx);
  for (std::int64_t n : sizes(ctx)) {
    for (std::int64_t mean_run : mean_runs(ctx)) {
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
    for (std::int64_t mean_run : mean_runs(ctx)) {
      auto keys = make_keys<K>(n, mean_run, seed ^ std::uint64_t(n * 17 + mean_run));
      std::string where = std::string(type_name<K>()) + " n=" + std::to_string(n) + " run=" +
                          std::to_string(mean_run);
      auto want = reference::run_length_encode(keys);
      const std::int64_t runs = std::int64_t(want.keys.size());
      if (mean_run == distinct_neighbours) {
        ASSERT_EQ(runs, n) << where << ": equal neighbours";
      }
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

// One test per key width, and the value types in two halves (testing::for_each_4_byte_type
// says why).
TEST_P(ByKey, Every4ByteKeyTypeMatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_4_byte_type([&](auto k) { check_pair<decltype(k), std::int32_t>(ctx, seed); });
}

TEST_P(ByKey, Every8ByteKeyTypeMatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_8_byte_type([&](auto k) { check_pair<decltype(k), std::int32_t>(ctx, seed); });
}

TEST_P(ByKey, ValueTypesWiderThanKeysMatchOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_pair<std::int32_t, std::int64_t>(ctx, seed);
  check_pair<std::uint32_t, std::uint64_t>(ctx, seed);
  check_pair<double, double>(ctx, seed);
}

TEST_P(ByKey, ValueTypesOtherThanKeysMatchOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_pair<float, std::uint32_t>(ctx, seed);
  check_pair<std::uint64_t, float>(ctx, seed);
}

TEST_P(ByKey, UniqueAndRunLengthEncodeMatchOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto k) { check_unique<decltype(k)>(ctx, seed); });
}

// Keys whose runs have the given lengths (neighbouring runs differ).
template <class K>
std::vector<K> keys_of_runs(const std::vector<std::int64_t>& lengths) {
  std::vector<K> k;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    k.insert(k.end(), std::size_t(lengths[r]), K(r % 3));
  return k;
}

// run_length_encode where runs meet tile edges. On CUDA a tile of unique's compaction holds
// 32 KiB of keys (t = 8192 4-byte or 4096 8-byte keys); a run that leaves its tile gets its
// length from a second kernel, keyed by the next tile that holds a head (or by n).
template <class K>
void check_run_lengths_across_tiles(const context& ctx, std::uint64_t seed) {
  const std::int64_t t = 32768 / std::int64_t(sizeof(K));
  std::mt19937_64 g(seed);
  std::vector<std::vector<std::int64_t>> cases{
      {3 * t + 5},                         // one run covering everything
      {5, 3 * t + 45},                     // the last tiles hold no head at all
      {t, t, t},                           // every run is one whole tile
      {2 * t, 7},                          // the last tile's one head is its first element
      {1, t - 1, 1, 2 * t, t + 1, 3},      // runs spanning 1, 2 and 3 tiles
      {t - 1, 2, 5 * t + 7, 1, 1, t - 3},  // a run over many tiles between short ones
      {t + 1, t - 2, 1, 2 * t + 1, 9}};
  std::vector<std::int64_t> singles(std::size_t(2 * t + 3), 1);  // every element its own run
  cases.push_back(singles);
  // Random lengths of up to 3 tiles; on CUDA over 300 tiles, more than the look-back's
  // window of 64, so that tiles may find their prefix more than one round back.
  std::vector<std::int64_t> mixed;
  const std::int64_t mixed_tiles = ctx.kind() == backend::cuda ? 300 : 12;
  for (std::int64_t total = 0; total < mixed_tiles * t;) {
    mixed.push_back(1 + std::int64_t(g() % std::uint64_t(g() % 2 ? 3 * t : 64)));
    total += mixed.back();
  }
  cases.push_back(mixed);
  for (const auto& lengths : cases) {
    const auto keys = keys_of_runs<K>(lengths);
    const std::int64_t n = std::int64_t(keys.size());
    if (n > testing::max_test_size()) continue;
    const std::string where = std::string(type_name<K>()) + " n=" + std::to_string(n) +
                              " runs=" + std::to_string(lengths.size());
    const auto want = reference::run_length_encode(keys);
    ASSERT_EQ(want.values, lengths) << where;
    const std::int64_t runs = std::int64_t(lengths.size());
    auto k = buffer<K>::from_host(ctx, keys);
    buffer<K> u(ctx, runs);
    buffer<std::int64_t> len(ctx, runs);
    ASSERT_EQ(run_length_encode<K>(ctx, k, u, len), runs) << where;
    EXPECT_TRUE(same_bits(u.to_host(), want.keys)) << where << " keys";
    EXPECT_EQ(len.to_host(), lengths) << where << " lengths";
    if (runs < 2) continue;
    // Room for fewer runs: the first ones are written and nothing past them.
    const std::int64_t room = runs / 2;
    buffer<K> u_small(ctx, runs);
    buffer<std::int64_t> len_small(ctx, runs);
    len_small.fill_bytes(0xA5);
    testing::expect_error(
        [&] {
          run_length_encode<K>(ctx, k, u_small, span<std::int64_t>(len_small.data(), room));
        },
        errc::invalid_argument, {"run_length_encode", "lengths.size()", " runs"});
    auto got = len_small.to_host();
    std::vector<std::int64_t> poison(std::size_t(runs - room));
    std::memset(poison.data(), 0xA5, poison.size() * sizeof(std::int64_t));
    EXPECT_EQ(std::vector<std::int64_t>(got.begin() + room, got.end()), poison)
        << where << " wrote past";
    got.resize(std::size_t(room));
    EXPECT_EQ(got, std::vector<std::int64_t>(lengths.begin(), lengths.begin() + room)) << where;
  }
}

TEST_P(ByKey, RunLengthsAcrossTileEdges) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_run_lengths_across_tiles<std::uint32_t>(ctx, seed);
  check_run_lengths_across_tiles<float>(ctx, seed);
  check_run_lengths_across_tiles<std::int64_t>(ctx, seed);
}

// Float values that do round: the results must not depend on timing (the look-back folds
// tile carries in a fixed order), so repeated calls give the same bits, and they stay within
// rounding of a double-precision fold.
TEST_P(ByKey, FloatFoldsAreReproducible) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  // On CUDA 2'000'003 spans 539 tiles of 4-byte elements: most of them run more than a
  // look-back window (128 tiles) ahead of the published prefixes.
  std::vector<std::int64_t> ns{by_key_inputs::cuda_tile<4> + 1, 600'011};
  if (ctx.kind() == backend::cuda) ns.push_back(2'000'003);
  for (std::int64_t n : ns) {
    if (n > testing::max_test_size()) continue;
    std::vector<float> values(static_cast<std::size_t>(n));
    for (auto& x : values) x = dist(g);
    auto v = buffer<float>::from_host(ctx, values);
    for (std::int64_t mean_run : {std::int64_t(1), std::int64_t(9000), std::int64_t(0)}) {
      const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run);
      auto keys = make_keys<std::uint32_t>(n, mean_run, seed + std::uint64_t(mean_run));
      auto k = buffer<std::uint32_t>::from_host(ctx, keys);
      const auto heads = reference::run_heads(keys);
      std::vector<double> run_sums, run_abs, prefix(values.size());
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (heads[i]) {
          run_sums.push_back(0);
          run_abs.push_back(0);
        }
        run_sums.back() += values[i];
        run_abs.back() += std::fabs(values[i]);
        prefix[i] = run_sums.back();
      }
      const std::int64_t runs = std::int64_t(run_sums.size());
      std::vector<float> first_sums, first_scan;
      for (int repeat = 0; repeat < 3; ++repeat) {
        buffer<std::uint32_t> ko(ctx, n);
        buffer<float> vo(ctx, n), scanned(ctx, n);
        ASSERT_EQ((reduce_by_key<std::uint32_t, float>(ctx, k, v, ko, vo)), runs) << where;
        inclusive_scan_by_key<std::uint32_t, float>(ctx, k, v, scanned);
        auto sums = vo.to_host();
        sums.resize(runs);
        auto scan = scanned.to_host();
        if (repeat == 0) {
          for (std::int64_t r = 0; r < runs; ++r)
            ASSERT_NEAR(sums[r], run_sums[r], 1e-5 * (run_abs[r] + 1)) << where << " run " << r;
          std::int64_t run = -1;
          for (std::int64_t i = 0; i < n; ++i) {
            if (heads[i]) ++run;
            ASSERT_NEAR(scan[i], prefix[i], 1e-5 * (run_abs[run] + 1)) << where << " element " << i;
          }
          first_sums = sums;
          first_scan = scan;
        } else {
          EXPECT_TRUE(same_bits(sums, first_sums)) << where << " reduce_by_key repeat " << repeat;
          EXPECT_TRUE(same_bits(scan, first_scan)) << where << " inclusive_scan_by_key repeat " << repeat;
        }
      }
    }
  }
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

// exclusive_scan_by_key refuses keys, values and out of different sizes (each pair), an unknown
// op, and out overlapping keys or partly overlapping values (values itself is allowed: in
// place), before writing anything.
TEST_P(ByKey, ExclusiveScanBadArgumentsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::vector<std::int32_t> key_list{1, 1, 2, 3, 3, 4}, value_list{1, 2, 3, 4, 5, 6};
  auto k = buffer<std::int32_t>::from_host(ctx, key_list);
  auto v = buffer<std::int32_t>::from_host(ctx, value_list);
  buffer<std::int32_t> out(ctx, 6);
  out.fill_bytes(0x5A);
  auto scan = [&](std::int64_t nk, std::int64_t nv, span<std::int32_t> o) {
    return [&, nk, nv, o] {
      exclusive_scan_by_key<std::int32_t, std::int32_t>(ctx, span<const std::int32_t>(k.data(), nk),
                                                        span<const std::int32_t>(v.data(), nv), o, 7);
    };
  };
  const std::string name = "exclusive_scan_by_key";
  testing::expect_error(scan(6, 5, span<std::int32_t>(out.data(), 5)), errc::invalid_argument,
                        {name, ctx.name(), "keys.size()=6 but values.size()=5"});
  testing::expect_error(scan(5, 6, out), errc::invalid_argument,
                        {name, ctx.name(), "keys.size()=5 but values.size()=6"});
  testing::expect_error(scan(6, 6, span<std::int32_t>(out.data(), 5)), errc::invalid_argument,
                        {name, ctx.name(), "values.size()=6 but out.size()=5"});
  testing::expect_error(scan(5, 5, out), errc::invalid_argument,
                        {name, ctx.name(), "values.size()=5 but out.size()=6"});
  testing::expect_error(
      [&] { exclusive_scan_by_key<std::int32_t, std::int32_t>(ctx, k, v, out, 7, static_cast<op>(9)); },
      errc::invalid_argument, {name, ctx.name(), "op=9 is not a known option"});
  EXPECT_EQ(out.to_host(), std::vector<std::int32_t>(6, 0x5A5A5A5A));
  testing::expect_error(scan(6, 6, k), errc::invalid_argument, {name, ctx.name(), "keys and out overlap"});
  testing::expect_error(scan(5, 5, span<std::int32_t>(v.data() + 1, 5)), errc::invalid_argument,
                        {name, ctx.name(), "values and out overlap"});
  EXPECT_EQ(k.to_host(), key_list);
  EXPECT_EQ(v.to_host(), value_list);
}

INSTANTIATE_TEST_SUITE_P(All, ByKey, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
