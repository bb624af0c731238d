// The stream-ordered forms reduce_by_key_into, unique_into, unique_by_key_into,
// unique_count_into and run_length_encode_into against the sequential loops of
// reference/runs_ref.hpp: the count lands in count[0] on the backend, the first R outputs
// match, nothing past them is written (outputs and count poisoned first); outputs smaller
// than n, a count of size 0 and a count overlapping another argument are refused up front,
// before anything is written.
#include <cmath>
#include <cstring>
#include <limits>

#include "by_key_inputs.hpp"
#include "reference/runs_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using namespace by_key_inputs;
using testing::fresh_seed;
using testing::same_bits;

constexpr unsigned char poison_byte = 0xA5;

// The first `runs` elements of `out` equal `want` (bit for bit: NaN keys) and the rest still
// hold the poison.
template <class T>
void expect_runs(const buffer<T>& out, const std::vector<T>& want, const std::string& where) {
  auto got = out.to_host();
  const std::size_t runs = want.size();
  ASSERT_GE(got.size(), runs) << where;
  std::vector<T> tail(got.begin() + std::ptrdiff_t(runs), got.end());
  got.resize(runs);
  EXPECT_TRUE(same_bits(got, want)) << where;
  std::vector<unsigned char> poison(tail.size() * sizeof(T), poison_byte);
  EXPECT_TRUE(tail.empty() || std::memcmp(tail.data(), poison.data(), poison.size()) == 0)
      << where << ": written past the run count";
}

// count[0] after a poisoned call (count.size() = 2: only the first element is written).
std::int64_t count_of(const buffer<std::int64_t>& count, const std::string& where) {
  const auto c = count.to_host();
  std::int64_t poison;
  std::memset(&poison, poison_byte, sizeof poison);
  EXPECT_EQ(c[1], poison) << where << ": count[1] written";
  return c[0];
}

// The value at each run's first element (what unique_by_key keeps).
template <class K, class V>
std::vector<V> run_firsts(const std::vector<K>& keys, const std::vector<V>& values) {
  const auto heads = reference::run_heads(keys);
  std::vector<V> firsts;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (heads[i]) firsts.push_back(values[i]);
  return firsts;
}

template <class K, class V>
void check_into(const context& ctx, std::uint64_t seed) {
  workspace ws(ctx);
  buffer<std::int64_t> count(ctx, 2);
  for (std::int64_t n : sizes(ctx)) {
    for (std::int64_t mean_run : {1, 8, 512, 0}) {
      const auto keys = make_keys<K>(n, mean_run, seed ^ std::uint64_t(n * 71 + mean_run));
      const auto values = make_values<V>(n, seed + std::uint64_t(n));
      const std::string where = std::string(type_name<K>()) + "/" + type_name<V>() + " n=" +
                                std::to_string(n) + " run=" + std::to_string(mean_run);
      const auto k = buffer<K>::from_host(ctx, keys);
      const auto v = buffer<V>::from_host(ctx, values);
      const auto rle = reference::run_length_encode(keys);
      const std::int64_t runs = std::int64_t(rle.keys.size());
      buffer<K> ko(ctx, n);
      buffer<V> vo(ctx, n);
      buffer<std::int64_t> lengths(ctx, n);
      auto poison = [&] {
        ko.fill_bytes(poison_byte);
        vo.fill_bytes(poison_byte);
        lengths.fill_bytes(poison_byte);
        count.fill_bytes(poison_byte);
      };

      for (op o : {op::plus, op::max}) {
        poison();
        reduce_by_key_into<K, V>(ctx, k, v, ko, vo, count, o, &ws);
        ASSERT_EQ(count_of(count, where), runs) << where << " reduce_by_key_into";
        const auto want = reference::reduce_by_key(keys, values, o);
        expect_runs(ko, want.keys, where + " reduce_by_key_into keys " + to_string(o));
        expect_runs(vo, want.values, where + " reduce_by_key_into values " + to_string(o));
      }

      poison();
      unique_into<K>(ctx, k, ko, count, &ws);
      ASSERT_EQ(count_of(count, where), runs) << where << " unique_into";
      expect_runs(ko, rle.keys, where + " unique_into");

      poison();
      unique_by_key_into<K, V>(ctx, k, v, ko, vo, count);
      ASSERT_EQ(count_of(count, where), runs) << where << " unique_by_key_into";
      expect_runs(ko, rle.keys, where + " unique_by_key_into keys");
      expect_runs(vo, run_firsts(keys, values), where + " unique_by_key_into values");

      poison();
      unique_count_into<K>(ctx, k, count, &ws);
      EXPECT_EQ(count_of(count, where), runs) << where << " unique_count_into";

      poison();
      run_length_encode_into<K>(ctx, k, ko, lengths, count, &ws);
      ASSERT_EQ(count_of(count, where), runs) << where << " run_length_encode_into";
      expect_runs(ko, rle.keys, where + " run_length_encode_into keys");
      expect_runs(lengths, rle.values, where + " run_length_encode_into lengths");
    }
  }
}

class ByKeyInto : public ::testing::TestWithParam<backend> {};

// Float keys bring NaN (a run of its own) and -0.0 == +0.0; 8-byte keys and values take the
// other tile shapes.
TEST_P(ByKeyInto, MatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_into<float, std::int32_t>(ctx, seed);
  check_into<std::int64_t, double>(ctx, seed);
}

// The plain unique and unique_by_key into outputs of exactly the run count (spans over
// poisoned buffers 16 longer), over several CPU blocks and CUDA tiles: the runs match and
// nothing past the span is written.
TEST_P(ByKeyInto, PlainFormsFillOutputsOfExactlyTheRuns) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  using K = std::uint32_t;
  using V = float;
  for (std::int64_t n : sizes(ctx)) {
    for (std::int64_t mean_run : {1, 8, 512, 0}) {
      const auto keys = make_keys<K>(n, mean_run, seed ^ std::uint64_t(n * 37 + mean_run));
      const auto values = make_values<V>(n, seed + std::uint64_t(n));
      const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run);
      const auto k = buffer<K>::from_host(ctx, keys);
      const auto v = buffer<V>::from_host(ctx, values);
      const auto want = reference::run_length_encode(keys);
      const std::int64_t runs = std::int64_t(want.keys.size());
      buffer<K> ko(ctx, runs + 16);
      buffer<V> vo(ctx, runs + 16);
      ko.fill_bytes(poison_byte);
      ASSERT_EQ(unique<K>(ctx, k, span<K>(ko.data(), runs)), runs) << where << " unique";
      expect_runs(ko, want.keys, where + " unique");
      ko.fill_bytes(poison_byte);
      vo.fill_bytes(poison_byte);
      ASSERT_EQ((unique_by_key<K, V>(ctx, k, v, span<K>(ko.data(), runs), span<V>(vo.data(), runs))),
                runs)
          << where << " unique_by_key";
      expect_runs(ko, want.keys, where + " unique_by_key keys");
      expect_runs(vo, run_firsts(keys, values), where + " unique_by_key values");
    }
  }
}

// Three NaNs are three runs; -0.0 and +0.0 one (its first key's bits kept).
TEST_P(ByKeyInto, NanKeysAreRunsOfTheirOwn) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto k = buffer<double>::from_host(ctx, {nan, nan, nan, -0.0, 0.0, 1.0, 1.0});
  buffer<std::int64_t> count(ctx, 1);
  count.fill_bytes(poison_byte);
  unique_count_into<double>(ctx, k, count);
  EXPECT_EQ(count.to_host()[0], 5);
  buffer<double> u(ctx, 7);
  buffer<std::int64_t> lengths(ctx, 7);
  run_length_encode_into<double>(ctx, k, u, lengths, count);
  EXPECT_EQ(count.to_host()[0], 5);
  auto got = lengths.to_host();
  got.resize(5);
  EXPECT_EQ(got, (std::vector<std::int64_t>{1, 1, 1, 2, 2}));
  EXPECT_TRUE(std::signbit(u.to_host()[3]));
}

// Refused up front, naming the function, backend and argument; nothing is written.
TEST_P(ByKeyInto, BadArgumentsThrowBeforeWriting) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto k = buffer<std::uint32_t>::from_host(ctx, {1, 1, 1, 1, 1, 2});  // 2 runs in 6
  auto v = buffer<float>::from_host(ctx, {1, 2, 3, 4, 5, 6});
  buffer<std::uint32_t> ko(ctx, 6), small(ctx, 5);
  buffer<float> vo(ctx, 6);
  buffer<std::int64_t> lengths(ctx, 6), count(ctx, 1);
  for (auto* b : {&ko, &small}) b->fill_bytes(poison_byte);
  lengths.fill_bytes(poison_byte);
  count.fill_bytes(poison_byte);
  const span<std::int64_t> no_count(count.data(), 0);
  using K = std::uint32_t;
  const std::string backend_name = ctx.name();
  testing::expect_error([&] { reduce_by_key_into<K, float>(ctx, k, v, small, vo, count); },
                        errc::invalid_argument,
                        {"reduce_by_key_into", backend_name, "keys_out.size()=5", "n=6"});
  testing::expect_error([&] { reduce_by_key_into<K, float>(ctx, k, v, ko, vo, no_count); },
                        errc::invalid_argument, {"reduce_by_key_into", "count.size()=0"});
  testing::expect_error([&] { unique_into<K>(ctx, k, small, count); }, errc::invalid_argument,
                        {"unique_into", backend_name, "out.size()=5", "n=6"});
  testing::expect_error([&] { unique_by_key_into<K, float>(ctx, k, v, ko, vo, no_count); },
                        errc::invalid_argument, {"unique_by_key_into", "count.size()=0"});
  testing::expect_error([&] { unique_count_into<K>(ctx, k, no_count); }, errc::invalid_argument,
                        {"unique_count_into", backend_name, "count.size()=0"});
  testing::expect_error(
      [&] { run_length_encode_into<K>(ctx, k, ko, span<std::int64_t>(lengths.data(), 5), count); },
      errc::invalid_argument, {"run_length_encode_into", backend_name, "lengths.size()=5", "n=6"});
  testing::expect_error(
      [&] {
        run_length_encode_into<K>(ctx, k, ko, lengths, span<std::int64_t>(lengths.data() + 5, 1));
      },
      errc::invalid_argument, {"run_length_encode_into", "lengths and count overlap"});
  std::int64_t poison;
  std::memset(&poison, poison_byte, sizeof poison);
  EXPECT_EQ(count.to_host()[0], poison) << "count written by a refused call";
  EXPECT_EQ(lengths.to_host()[0], poison) << "lengths written by a refused call";
  std::uint32_t key_poison;
  std::memset(&key_poison, poison_byte, sizeof key_poison);
  EXPECT_EQ(small.to_host()[0], key_poison) << "out written by a refused call";
  EXPECT_EQ(ko.to_host()[0], key_poison) << "keys_out written by a refused call";
}

INSTANTIATE_TEST_SUITE_P(All, ByKeyInto, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
