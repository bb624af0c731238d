// top_k and top_k_pairs against a stable sort of positions (reference/top_k_ref.hpp), over
// backend x type x n (tile edges) x k (1, small, n/2, n) x largest/smallest x sorted/unsorted,
// with many ties (ties must go to the earliest positions), NaNs and signed zeros; bad k, n = 0
// (no valid k) and bad sizes of the pairs form, outputs poisoned to show nothing is written.
// segmented_top_k: test_top_k/segmented.cpp.
#include <algorithm>
#include <cstring>
#include <random>

#include "reference/top_k_ref.hpp"
#include "support/test_support.hpp"
#include "test_top_k/inputs.hpp"

namespace parprim {
namespace {

using namespace top_k_inputs;
using testing::fresh_seed;
using testing::same_bits;

class TopK : public ::testing::TestWithParam<backend> {};

// top_k and top_k_pairs (the values are the input positions) against the keys at the
// oracle's positions `pos`, in its order.
template <class K>
void expect_top_k(const context& ctx, const std::vector<K>& x, const buffer<K>& in,
                  const buffer<std::int32_t>& positions, const std::vector<std::int64_t>& pos,
                  sort_order order, bool sorted, const std::string& where) {
  const std::int64_t k = std::int64_t(pos.size());
  std::vector<K> want;
  std::vector<std::int32_t> want_ids;
  for (auto p : pos) {
    want.push_back(x[p]);
    want_ids.push_back(std::int32_t(p));
  }
  buffer<K> out(ctx, k);
  top_k<K>(ctx, in, k, out, order, sorted);
  EXPECT_TRUE(same_bits(out.to_host(), want)) << where;
  buffer<K> kout(ctx, k);
  buffer<std::int32_t> vout(ctx, k);
  top_k_pairs<K, std::int32_t>(ctx, in, positions, k, kout, vout, order, sorted);
  EXPECT_TRUE(same_bits(kout.to_host(), want)) << where << " pairs keys";
  EXPECT_EQ(vout.to_host(), want_ids) << where << " pairs values";
}

// On CUDA, k <= 32 up to 2^18 elements takes the chunked select, beyond it the radix select.
template <class K>
void check_type(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : {1, 2, 33, 4095, 4096, 4097, 70'001, 262'144, 262'145}) {
    if (n > testing::max_test_size()) continue;
    auto x = make_keys<K>(n, seed ^ std::uint64_t(n));
    auto in = buffer<K>::from_host(ctx, x);
    auto vin = input_positions(ctx, n);
    const auto ranked_largest = reference::ranked_positions(x, true);
    const auto ranked_smallest = reference::ranked_positions(x, false);
    for (std::int64_t k : {std::int64_t(1), std::min<std::int64_t>(n, 32), (n + 1) / 2, n}) {
      for (bool largest : {true, false}) {
        const auto& ranked = largest ? ranked_largest : ranked_smallest;
        for (bool sorted : {true, false}) {
          const sort_order order = largest ? sort_order::descending : sort_order::ascending;
          const std::string where = std::string(type_name<K>()) + " n=" + std::to_string(n) + " k=" +
                                    std::to_string(k) + (largest ? " largest" : " smallest") +
                                    (sorted ? " sorted" : " unsorted");
          expect_top_k(ctx, x, in, vin, reference::top_k_positions(ranked, k, sorted), order, sorted, where);
        }
      }
    }
  }
}

// Uniform floats in [0, 1) with repeats: for the k largest the chosen first digit holds a
// small fraction of n, so CUDA copies the candidates out (in input order, over several copy
// tiles) and finishes on them; for the k smallest the bottom octaves are thin too. Ties at
// the k-th key must still go to the earliest positions. 2^22 + 5 keys: past the 16 MiB up to
// which CUDA reads the input in every pass instead of waiting for the candidate count.
TEST_P(TopK, FewCandidatesKeepInputOrderAndTies) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 g(seed);
  const std::int64_t n = std::min<std::int64_t>((std::int64_t(1) << 22) + 5, testing::max_test_size());
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = float(g() % 50'000) / 50'000.0f;  // about 2 copies of each value
  auto in = buffer<float>::from_host(ctx, x);
  auto vin = input_positions(ctx, n);
  for (bool largest : {true, false}) {
    const auto ranked = reference::ranked_positions(x, largest);
    const sort_order order = largest ? sort_order::descending : sort_order::ascending;
    for (std::int64_t k : {std::int64_t(1), std::int64_t(33), std::int64_t(4099)}) {
      for (bool sorted : {true, false}) {
        const std::string where = "k=" + std::to_string(k) + (largest ? " largest" : " smallest") +
                                  (sorted ? " sorted" : " unsorted");
        expect_top_k(ctx, x, in, vin, reference::top_k_positions(ranked, k, sorted), order, sorted, where);
      }
    }
  }
}

// Inputs that mislead a threshold taken from a sample of the keys (the CPU's first way,
// src/cpu/top_k.cpp): the largest keys exactly where a strided sample looks, so fewer than k
// reach its threshold; every key equal, so all n do; and sorted runs both ways. Each must
// still match the oracle (on the CPU through the radix-select fallback).
TEST_P(TopK, InputsThatMisleadASample) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 g(seed);
  const std::int64_t n = std::min<std::int64_t>(70'001, testing::max_test_size());
  std::vector<std::pair<std::string, std::vector<std::uint32_t>>> inputs;
  for (std::int64_t stride : {1, 2, 8, 64}) {  // large keys on every stride-th position
    std::vector<std::uint32_t> x(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) x[i] = std::uint32_t(i % stride == 0 ? 1'000'000 + g() % 1000 : g() % 1000);
    inputs.push_back({"large every " + std::to_string(stride), x});
  }
  inputs.push_back({"all equal", std::vector<std::uint32_t>(static_cast<std::size_t>(n), 7u)});
  std::vector<std::uint32_t> ascending(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) ascending[i] = std::uint32_t(i / 3);  // ties in runs of 3
  inputs.push_back({"ascending", ascending});
  inputs.push_back({"descending", std::vector<std::uint32_t>(ascending.rbegin(), ascending.rend())});
  auto vin = input_positions(ctx, n);
  for (const auto& [name, x] : inputs) {
    auto in = buffer<std::uint32_t>::from_host(ctx, x);
    for (bool largest : {true, false}) {
      const auto ranked = reference::ranked_positions(x, largest);
      const sort_order order = largest ? sort_order::descending : sort_order::ascending;
      for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(1000), n / 20}) {
        const std::string where = name + " k=" + std::to_string(k) + (largest ? " largest" : " smallest");
        expect_top_k(ctx, x, in, vin, reference::top_k_positions(ranked, k, false), order, false, where);
      }
    }
  }
}

TEST_P(TopK, BadKThrowsAndWritesNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto in = buffer<float>::from_host(ctx, {3.0f, 1.0f, 2.0f});
  buffer<float> out(ctx, 4);
  out.fill_bytes(0x5A);
  testing::expect_error([&] { top_k<float>(ctx, in, 4, out); }, errc::invalid_argument,
                        {"top_k", ctx.name(), "k=4 is outside [1, in.size()=3]"});
  testing::expect_error([&] { top_k<float>(ctx, in, 0, span<float>(out.data(), 0)); }, errc::invalid_argument,
                        {"top_k", "k=0"});
  testing::expect_error([&] { top_k<float>(ctx, in, 2, out); }, errc::invalid_argument,
                        {"top_k", "out.size()=4 but k=2"});
  auto host = out.to_host();
  std::vector<unsigned char> poison(host.size() * sizeof(float), 0x5A);
  EXPECT_EQ(0, std::memcmp(host.data(), poison.data(), poison.size()));
}

// n = 0: no k lies in [1, in.size()] (top_k.hpp), so top_k and top_k_pairs refuse every k,
// k = 0 with empty outputs included, and write nothing.
TEST_P(TopK, EmptyInputThrowsForEveryK) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  buffer<float> in(ctx, 0);
  buffer<std::int32_t> vin(ctx, 0);
  buffer<float> out(ctx, 1);
  buffer<std::int32_t> vout(ctx, 1);
  out.fill_bytes(0x5A);
  vout.fill_bytes(0x5A);
  for (std::int64_t k : {0, 1}) {
    const std::string bad_k = "k=" + std::to_string(k) + " is outside [1, ";
    for (bool sorted : {true, false}) {
      testing::expect_error(
          [&] { top_k<float>(ctx, in, k, span<float>(out.data(), k), sort_order::descending, sorted); },
          errc::invalid_argument, {"top_k", ctx.name(), bad_k, "size()=0]"});
      testing::expect_error(
          [&] {
            top_k_pairs<float, std::int32_t>(ctx, in, vin, k, span<float>(out.data(), k),
                                             span<std::int32_t>(vout.data(), k), sort_order::ascending, sorted);
          },
          errc::invalid_argument, {"top_k_pairs", ctx.name(), bad_k, "size()=0]"});
    }
  }
  EXPECT_TRUE(untouched(out));
  EXPECT_TRUE(untouched(vout));
}

// top_k_pairs refuses k outside [1, n], keys_out.size() != k, keys_out and values_out of
// different sizes, and keys and values of different sizes, with both outputs left as they were.
TEST_P(TopK, PairsBadArgumentsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto keys = buffer<float>::from_host(ctx, {3.0f, 1.0f, 2.0f});
  auto values = buffer<std::int32_t>::from_host(ctx, {10, 11, 12});
  buffer<float> kout(ctx, 4);
  buffer<std::int32_t> vout(ctx, 4);
  kout.fill_bytes(0x5A);
  vout.fill_bytes(0x5A);
  auto call = [&](span<const std::int32_t> v, std::int64_t k, std::int64_t nk, std::int64_t nv) {
    return [&ctx, &keys, &kout, &vout, v, k, nk, nv] {
      top_k_pairs<float, std::int32_t>(ctx, keys, v, k, span<float>(kout.data(), nk),
                                       span<std::int32_t>(vout.data(), nv));
    };
  };
  const std::string name = "top_k_pairs";
  testing::expect_error(call(values, 4, 4, 4), errc::invalid_argument,
                        {name, ctx.name(), "k=4 is outside [1, keys.size()=3]"});
  testing::expect_error(call(values, 0, 0, 0), errc::invalid_argument, {name, ctx.name(), "k=0 is outside"});
  testing::expect_error(call(values, -1, 0, 0), errc::invalid_argument, {name, "k=-1 is outside"});
  testing::expect_error(call(values, 2, 4, 4), errc::invalid_argument, {name, "keys_out.size()=4 but k=2"});
  testing::expect_error(call(values, 2, 2, 3), errc::invalid_argument,
                        {name, ctx.name(), "keys_out.size()=2 but values_out.size()=3"});
  testing::expect_error(call(span<const std::int32_t>(values.data(), 2), 2, 2, 2), errc::invalid_argument,
                        {name, ctx.name(), "keys.size()=3 but values.size()=2"});
  EXPECT_TRUE(untouched(kout));
  EXPECT_TRUE(untouched(vout));
}

// One test per key type: compute-sanitizer then runs them side by side. Under racecheck on
// the H100, one test per key width (three types each) ran past 420 s for the 8-byte keys.
#define PARPRIM_TOP_K_TYPE_TESTS(K, name)                           \
  TEST_P(TopK, MatchesStableSortOracle_##name) {                    \
    PARPRIM_SKIP_IF_NO_BACKEND(GetParam());                         \
    with_seeded_context(GetParam(), check_type<K>);                 \
  }
PARPRIM_TOP_K_TYPE_TESTS(std::int32_t, i32)
PARPRIM_TOP_K_TYPE_TESTS(std::uint32_t, u32)
PARPRIM_TOP_K_TYPE_TESTS(float, f32)
PARPRIM_TOP_K_TYPE_TESTS(std::int64_t, i64)
PARPRIM_TOP_K_TYPE_TESTS(std::uint64_t, u64)
PARPRIM_TOP_K_TYPE_TESTS(double, f64)
#undef PARPRIM_TOP_K_TYPE_TESTS

INSTANTIATE_TEST_SUITE_P(All, TopK, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
