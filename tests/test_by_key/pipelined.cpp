// The CUDA scans and reductions by key past the pipelined kernel's threshold
// (parprim/cuda/by_key_pipelined.cuh),
// with over a thousand tiles, so that every persistent block cycles its stages several times:
// keys and values on a 16-byte boundary take the pipelined kernel, the same keys and values one
// element off it the one-block-per-tile kernel, and the two give the same bits (floats too:
// the same tile shape folds in the same order); integer results also equal the sequential
// loop. By keys, and by head flags (the segmented scans).
#include <algorithm>
#include <random>

#include "by_key_inputs.hpp"
#include "reference/runs_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using namespace by_key_inputs;
using testing::fresh_seed;
using testing::same_bits;

template <class V>
std::vector<V> random_floats(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<V> dist(-1, 1);
  std::vector<V> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = dist(g);
  return v;
}

// Elements for about 1100 tiles of the shape of K and V.
template <class K, class V>
std::int64_t pipelined_size() {
  constexpr int bytes = sizeof(K) > sizeof(V) ? int(sizeof(K)) : int(sizeof(V));
  return std::min<std::int64_t>(1100 * cuda_tile<bytes> + 17, testing::max_test_size());
}

// reduce_by_key both ways: the same run count, keys and folds (bits), and for integer values the
// sequential loop's.
template <class K, class V>
void check_reduction(const context& ctx, const twin<K>& k, const twin<V>& v,
                     const std::vector<K>& keys, const std::vector<V>& values, op o) {
  const std::int64_t n = std::int64_t(keys.size());
  std::vector<K> got_keys[2];
  std::vector<V> got_values[2];
  for (bool off : {false, true}) {
    buffer<K> ko(ctx, n);
    buffer<V> vo(ctx, n);
    ko.fill_bytes(0xA5);
    vo.fill_bytes(0xA5);
    const std::int64_t runs = reduce_by_key<K, V>(ctx, k.at(off), v.at(off), ko, vo, o);
    got_keys[off] = ko.to_host();
    got_values[off] = vo.to_host();
    got_keys[off].resize(std::size_t(runs));
    got_values[off].resize(std::size_t(runs));
  }
  const std::string where = std::string("reduce_by_key ") + type_name<K>() + "/" + type_name<V>() +
                            " " + to_string(o);
  EXPECT_TRUE(same_bits(got_keys[0], got_keys[1])) << where << ": keys differ";
  EXPECT_TRUE(same_bits(got_values[0], got_values[1])) << where << ": folds differ";
  const auto want = reference::reduce_by_key(keys, values, o);
  EXPECT_TRUE(same_bits(got_keys[0], want.keys)) << where;
  if constexpr (!std::is_floating_point_v<V>) EXPECT_EQ(got_values[0], want.values) << where;
}

template <class K, class V>
void check_by_key(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = pipelined_size<K, V>();
  for (std::int64_t mean_run : {distinct_neighbours, std::int64_t(8), std::int64_t(9000),
                                std::int64_t(0)}) {
    const auto keys = make_keys<K>(n, mean_run, seed + std::uint64_t(mean_run));
    std::vector<V> values;
    if constexpr (std::is_floating_point_v<V>) values = random_floats<V>(n, seed + 1);
    else values = make_values<V>(n, seed + 1);
    const twin<K> k(ctx, keys);
    const twin<V> v(ctx, values);
    const auto heads = reference::run_heads(keys);
    for (op o : {op::plus, op::max}) {
      for (bool inclusive : {true, false}) {
        const std::string where = std::string(type_name<K>()) + "/" + type_name<V>() + " n=" +
                                  std::to_string(n) + " run=" + std::to_string(mean_run) + " " +
                                  to_string(o) + (inclusive ? " inclusive" : " exclusive");
        std::vector<V> got[2];
        for (bool off : {false, true}) {
          buffer<V> out(ctx, n);
          out.fill_bytes(0xA5);
          if (inclusive) inclusive_scan_by_key<K, V>(ctx, k.at(off), v.at(off), out, o);
          else exclusive_scan_by_key<K, V>(ctx, k.at(off), v.at(off), out, V(3), o);
          got[off] = out.to_host();
        }
        EXPECT_TRUE(same_bits(got[0], got[1])) << where << ": aligned and misaligned differ";
        if constexpr (!std::is_floating_point_v<V>)
          EXPECT_EQ(got[0], reference::scan_by_heads(heads, values, o, inclusive, V(3))) << where;
      }
      check_reduction(ctx, k, v, keys, values, o);
    }
  }
}

TEST(ByKeyPipelined, AlignedAndMisalignedGiveTheSameBits) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const context ctx = context::cuda(0);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_by_key<std::uint32_t, float>(ctx, seed);
  check_by_key<std::uint32_t, std::int32_t>(ctx, seed);
  check_by_key<std::uint64_t, double>(ctx, seed);
  check_by_key<std::int32_t, std::int64_t>(ctx, seed);
}

// The segmented scans by head flags run the scan by key with u8 keys.
TEST(ByKeyPipelined, SegmentedScansByFlagsGiveTheSameBits) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const context ctx = context::cuda(0);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = pipelined_size<std::uint8_t, float>();
  std::mt19937_64 g(seed);
  for (unsigned one_in : {1u, 32u, 100000u}) {  // a head per element, per 32, per 100000
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(n));
    for (auto& f : flags) f = g() % one_in == 0 ? 1 : 0;
    const twin<std::uint8_t> f(ctx, flags);
    const twin<float> v(ctx, random_floats<float>(n, seed + one_in));
    for (bool inclusive : {true, false}) {
      std::vector<float> got[2];
      for (bool off : {false, true}) {
        buffer<float> out(ctx, n);
        out.fill_bytes(0xA5);
        if (inclusive) segmented_inclusive_scan_by_flags<float>(ctx, v.at(off), f.at(off), out);
        else segmented_exclusive_scan_by_flags<float>(ctx, v.at(off), f.at(off), out, 0.5f);
        got[off] = out.to_host();
      }
      EXPECT_TRUE(same_bits(got[0], got[1]))
          << "one head in " << one_in << (inclusive ? " inclusive" : " exclusive")
          << ": aligned and misaligned differ";
    }
  }
}

}  // namespace
}  // namespace parprim
