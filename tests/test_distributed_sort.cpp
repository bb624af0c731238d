// Distributed radix sort and gather/scatter against sequential oracles and the single-context
// sort, on CPU groups of 1-4 in-process ranks and NCCL groups of 2-4 GPUs.
#include <chrono>

#include "reference/gather_scatter_ref.hpp"
#include "reference/sort_ref.hpp"
#include "support/distributed_cases.hpp"

namespace parprim::testing {
namespace {

class DistributedSort : public ::testing::TestWithParam<group_case> {
 protected:
  void SetUp() override {
    std::string why;
    if (!group_available(GetParam(), why)) GTEST_SKIP() << why;
  }
};

enum class key_mix { random, all_equal, few_distinct };

template <class K>
std::vector<K> make_keys(std::int64_t n, key_mix mix, std::uint64_t seed) {
  auto keys = random_vector<K>(n, seed);
  if (mix == key_mix::all_equal) std::fill(keys.begin(), keys.end(), keys.empty() ? K{} : keys[0]);
  if (mix == key_mix::few_distinct)
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = keys[i % 3];
  if constexpr (std::is_floating_point_v<K>) {
    // The special values of the documented order.
    const K specials[] = {K(-0.0), K(0.0), std::numeric_limits<K>::infinity(),
                          -std::numeric_limits<K>::infinity(), std::numeric_limits<K>::quiet_NaN(),
                          -std::numeric_limits<K>::quiet_NaN()};
    if (mix == key_mix::random)
      for (std::size_t i = 0; i < keys.size() && i < 6 * 97; i += 97) keys[i] = specials[i / 97];
  }
  return keys;
}

// Sorts keys (and their original global positions as values) and compares with the oracle's
// stable permutation; slice sizes must be unchanged.
template <class K>
void check_sort(const group_case& gc, key_mix mix, sort_order order, int begin_bit, int end_bit) {
  auto g = make_group(gc);
  for (auto s : all_slicings())
    for (auto n : distributed_sizes()) {
      const auto seed = fresh_seed();
      SCOPED_TRACE(std::string(type_name<K>()) + " " + to_string(s) + " n=" + std::to_string(n) +
                   " mix=" + std::to_string(static_cast<int>(mix)) + " " + parprim::to_string(order) +
                   " bits [" + std::to_string(begin_bit) + "," + std::to_string(end_bit) +
                   ") seed=" + std::to_string(seed));
      const auto keys = make_keys<K>(n, mix, seed);
      const auto counts = slice_counts(n, gc.ranks, s, seed);
      const int end = end_bit < 0 ? int(sizeof(K) * 8) : end_bit;
      const auto perm = reference::stable_sort_permutation(keys, order == sort_order::descending,
                                                           begin_bit, end);
      std::vector<K> want(keys.size());
      std::vector<std::int64_t> positions(keys.size());
      for (std::size_t j = 0; j < perm.size(); ++j) want[j] = keys[static_cast<std::size_t>(perm[j])];
      for (std::size_t j = 0; j < positions.size(); ++j) positions[j] = static_cast<std::int64_t>(j);

      auto dk = dist_buffer<K>::from_host(g, keys, counts);
      dist::radix_sort<K>(g, dk, order, begin_bit, end_bit);
      EXPECT_EQ(dk.counts(), counts) << "slice sizes must not change";
      expect_bits_equal(dk.to_host(), want, "keys");

      auto pk = dist_buffer<K>::from_host(g, keys, counts);
      auto pv = dist_buffer<std::int64_t>::from_host(g, positions, counts);
      dist::radix_sort_pairs<K, std::int64_t>(g, pk, pv, order, begin_bit, end_bit);
      expect_bits_equal(pk.to_host(), want, "pair keys");
      expect_bits_equal(pv.to_host(), perm, "pair values (stability)");
    }
}

TEST_P(DistributedSort, U32) { check_sort<std::uint32_t>(GetParam(), key_mix::random, sort_order::ascending, 0, -1); }
TEST_P(DistributedSort, I32Descending) { check_sort<std::int32_t>(GetParam(), key_mix::random, sort_order::descending, 0, -1); }
TEST_P(DistributedSort, U64) { check_sort<std::uint64_t>(GetParam(), key_mix::random, sort_order::ascending, 0, -1); }
TEST_P(DistributedSort, I64BitRange) { check_sort<std::int64_t>(GetParam(), key_mix::random, sort_order::ascending, 20, 44); }
TEST_P(DistributedSort, F32) { check_sort<float>(GetParam(), key_mix::random, sort_order::ascending, 0, -1); }
TEST_P(DistributedSort, F64Descending) { check_sort<double>(GetParam(), key_mix::random, sort_order::descending, 0, -1); }
TEST_P(DistributedSort, AllEqualKeys) { check_sort<std::uint32_t>(GetParam(), key_mix::all_equal, sort_order::ascending, 0, -1); }
TEST_P(DistributedSort, FewDistinctF32) { check_sort<float>(GetParam(), key_mix::few_distinct, sort_order::ascending, 0, -1); }

TEST_P(DistributedSort, PairsOfOtherValueTypes) {
  auto g = make_group(GetParam());
  const std::int64_t n = 50'001;
  const auto seed = fresh_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed));
  const auto keys = make_keys<float>(n, key_mix::random, seed);
  const auto values = random_vector<double>(n, seed + 1);
  const auto counts = slice_counts(n, GetParam().ranks, slicing::uneven, seed);
  const auto perm = reference::stable_sort_permutation(keys, false, 0, 32);
  std::vector<double> want(values.size());
  for (std::size_t j = 0; j < perm.size(); ++j) want[j] = values[static_cast<std::size_t>(perm[j])];
  auto dk = dist_buffer<float>::from_host(g, keys, counts);
  auto dv = dist_buffer<double>::from_host(g, values, counts);
  dist::radix_sort_pairs<float, double>(g, dk, dv);
  expect_bits_equal(dv.to_host(), want, "values");
}

// 4-byte values under 8-byte keys with many ties: the merges move values as 4-byte words and
// must keep equal keys in global input order.
TEST_P(DistributedSort, PairsOfFourByteValues) {
  auto g = make_group(GetParam());
  for (auto s : all_slicings()) {
    const std::int64_t n = std::min<std::int64_t>(30'001, max_test_size());
    const auto seed = fresh_seed();
    SCOPED_TRACE(std::string(to_string(s)) + " seed=" + std::to_string(seed));
    const auto keys = make_keys<std::uint64_t>(n, key_mix::few_distinct, seed);
    std::vector<std::uint32_t> positions(keys.size());
    std::iota(positions.begin(), positions.end(), 0u);
    const auto counts = slice_counts(n, GetParam().ranks, s, seed);
    const auto perm = reference::stable_sort_permutation(keys, false, 0, 64);
    std::vector<std::uint32_t> want(perm.size());
    for (std::size_t j = 0; j < perm.size(); ++j) want[j] = static_cast<std::uint32_t>(perm[j]);
    auto dk = dist_buffer<std::uint64_t>::from_host(g, keys, counts);
    auto dv = dist_buffer<std::uint32_t>::from_host(g, positions, counts);
    dist::radix_sort_pairs<std::uint64_t, std::uint32_t>(g, dk, dv);
    expect_bits_equal(dv.to_host(), want, "values (stability)");
  }
}

template <class T, class I>
void check_gather_scatter(const group_case& gc) {
  auto g = make_group(gc);
  for (auto s : all_slicings())
    for (auto n : distributed_sizes()) {
      const auto seed = fresh_seed();
      SCOPED_TRACE(std::string(type_name<T>()) + "/" + type_name<I>() + " " + to_string(s) +
                   " n=" + std::to_string(n) + " seed=" + std::to_string(seed));
      const auto values = random_vector<T>(n, seed);
      const auto counts = slice_counts(n, gc.ranks, s, seed);
      // Gather: m random indices (with repeats), sliced differently from the values.
      const std::int64_t m = n + n / 3;
      std::vector<I> idx(static_cast<std::size_t>(n > 0 ? m : 0));
      std::mt19937_64 rng(seed);
      for (auto& i : idx) i = static_cast<I>(rng() % static_cast<std::uint64_t>(n));
      const auto idx_counts = slice_counts(static_cast<std::int64_t>(idx.size()), gc.ranks,
                                           slicing::uneven, seed + 1);
      auto dv = dist_buffer<T>::from_host(g, values, counts);
      auto di = dist_buffer<I>::from_host(g, idx, idx_counts);
      dist_buffer<T> out(g, idx_counts);
      dist::gather<T, I>(g, dv, di, out);
      expect_bits_equal(out.to_host(), reference::gather(values, idx), "gather");
      // Scatter: a permutation, so the result is defined.
      std::vector<I> perm(static_cast<std::size_t>(n));
      std::iota(perm.begin(), perm.end(), I(0));
      std::shuffle(perm.begin(), perm.end(), rng);
      std::vector<T> want(static_cast<std::size_t>(n));
      reference::scatter(values, perm, want);
      const auto perm_counts = slice_counts(n, gc.ranks, slicing::uneven, seed + 2);
      auto dp = dist_buffer<I>::from_host(g, perm, perm_counts);
      auto sv = dist_buffer<T>::from_host(g, values, perm_counts);
      dist_buffer<T> sout(g, counts);
      dist::scatter<T, I>(g, sv, dp, sout);
      expect_bits_equal(sout.to_host(), want, "scatter");
    }
}

TEST_P(DistributedSort, GatherScatterF32I32) { check_gather_scatter<float, std::int32_t>(GetParam()); }
TEST_P(DistributedSort, GatherScatterU64I64) { check_gather_scatter<std::uint64_t, std::int64_t>(GetParam()); }

// The step times a sort reports: one entry per rank, none negative, the four steps within the
// call's own wall time, only the local sort on a single rank; the result still right.
TEST_P(DistributedSort, StepTimes) {
  auto g = make_group(GetParam());
  const int P = GetParam().ranks;
  const std::int64_t n = std::min<std::int64_t>(40'003, max_test_size());
  const auto seed = fresh_seed();
  SCOPED_TRACE("seed=" + std::to_string(seed));
  const auto keys = make_keys<std::uint32_t>(n, key_mix::random, seed);
  const auto values = random_vector<std::uint32_t>(n, seed + 1);
  const auto counts = slice_counts(n, P, slicing::uneven, seed);
  const auto perm = reference::stable_sort_permutation(keys, false, 0, 32);
  std::vector<std::uint32_t> want(perm.size());
  for (std::size_t j = 0; j < perm.size(); ++j) want[j] = values[static_cast<std::size_t>(perm[j])];
  auto dk = dist_buffer<std::uint32_t>::from_host(g, keys, counts);
  auto dv = dist_buffer<std::uint32_t>::from_host(g, values, counts);
  std::vector<dist::sort_phase_ms> phases(1);  // resized by the call
  const auto t0 = std::chrono::steady_clock::now();
  dist::radix_sort_pairs<std::uint32_t, std::uint32_t>(g, dk, dv, sort_order::ascending, 0, -1,
                                                       &phases);
  const double call_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  expect_bits_equal(dv.to_host(), want, "values");
  ASSERT_EQ(phases.size(), static_cast<std::size_t>(P));
  for (int r = 0; r < P; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    const auto& p = phases[static_cast<std::size_t>(r)];
    EXPECT_GT(p.local_sort, 0.0);
    EXPECT_GE(p.splitters, 0.0);
    EXPECT_GE(p.exchange, 0.0);
    EXPECT_GE(p.merge, 0.0);
    EXPECT_LE(p.local_sort + p.splitters + p.exchange + p.merge, call_ms);
    if (P == 1) EXPECT_EQ(p.splitters + p.exchange + p.merge, 0.0);
    else EXPECT_GT(p.splitters + p.exchange + p.merge, 0.0);
  }
}

TEST_P(DistributedSort, BadInput) {
  auto g = make_group(GetParam());
  const int P = GetParam().ranks;
  auto counts = even_counts(100, P);
  auto keys = dist_buffer<std::uint32_t>::from_host(g, std::vector<std::uint32_t>(100, 1), counts);
  auto shifted = counts;
  shifted[0] += 1;
  shifted[static_cast<std::size_t>(P - 1)] -= 1;
  if (P > 1) {
    dist_buffer<std::uint32_t> values(g, shifted);
    expect_error([&] { dist::radix_sort_pairs<std::uint32_t, std::uint32_t>(g, keys, values); },
                 errc::invalid_argument, {"parprim::dist::radix_sort_pairs", "values.count(0)"});
  }
  auto other = device_group::cpu(P);
  expect_error([&] { dist::radix_sort<std::uint32_t>(other, keys); }, errc::invalid_argument,
               {"radix_sort", "belongs to the group"});
  expect_error([&] { dist::radix_sort<std::uint32_t>(g, keys, sort_order::ascending, 8, 4); },
               errc::invalid_argument, {"bit range"});
  // An index outside the distributed array: errc::out_of_range, nothing exchanged.
  auto values = dist_buffer<float>::from_host(g, std::vector<float>(100, 1.0f), counts);
  std::vector<std::int32_t> idx(100, 5);
  idx[77] = 100;
  auto di = dist_buffer<std::int32_t>::from_host(g, idx, counts);
  dist_buffer<float> out(g, counts);
  expect_error([&] { dist::gather<float, std::int32_t>(g, values, di, out); }, errc::out_of_range,
               {"parprim::dist::gather", "index 100", "outside [0, 100)"});
  idx[77] = -4;
  di = dist_buffer<std::int32_t>::from_host(g, idx, counts);
  expect_error([&] { dist::scatter<float, std::int32_t>(g, values, di, out); }, errc::out_of_range,
               {"parprim::dist::scatter", "index -4"});
}

INSTANTIATE_TEST_SUITE_P(Groups, DistributedSort, ::testing::ValuesIn(all_group_cases()),
                         group_case_name);

}  // namespace
}  // namespace parprim::testing
