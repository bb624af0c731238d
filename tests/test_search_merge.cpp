// lower_bound / upper_bound and merge / merge_by_key against std::lower_bound, std::upper_bound
// and std::merge with the documented key order (reference::key_less, the radix_sort order:
// -0.0 before +0.0, NaNs after +inf), over backend x type x size (tile edges) x order, with
// ties across the two ranges (stability), NaNs, and unsorted inputs (merge and merge_by_key);
// searches with no queries or an empty range, and outputs of the wrong size.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "cuda/tuning/merge_tuning.hpp"
#include "reference/sort_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;
using testing::same_bits;

// Values from a small set (many ties) plus NaN and signed zeros for floats.
template <class T>
std::vector<T> make_keys(std::int64_t n, std::uint64_t seed, std::uint64_t distinct) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    x = T(std::int64_t(g() % distinct) - std::int64_t(distinct / 2));
    if constexpr (std::is_unsigned_v<T>) x = T(g() % distinct);
    if constexpr (std::is_floating_point_v<T>) {
      if (g() % 50 == 0) x = std::numeric_limits<T>::quiet_NaN();
      if (x == T(0) && g() % 2) x = -T(0);
    }
  }
  return v;
}

template <class T>
void sort_keys(std::vector<T>& v, bool descending) {
  std::stable_sort(v.begin(), v.end(), [&](T a, T b) {
    return descending ? reference::key_less(b, a) : reference::key_less(a, b);
  });
}

// Around the GPU merge tiles (3840 outputs for 8-byte keys, 7680 for 4-byte ones) and the
// 2048-query search tile, small and large.
std::vector<std::int64_t> sizes() {
  constexpr std::int64_t t = cuda_tuning::merge_tuning::tile;
  constexpr std::int64_t t4 = cuda_tuning::merge_tuning::tile_4_byte_keys;
  std::vector<std::int64_t> out;
  for (std::int64_t n : {std::int64_t(0), std::int64_t(1), std::int64_t(2), std::int64_t(33),
                         std::int64_t(2049), t - 1, t, t + 1, t4 - 1, t4, t4 + 1, std::int64_t(65537),
                         std::int64_t(300'007)})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

class SearchMerge : public ::testing::TestWithParam<backend> {};

// Query sets: unsorted (GPU tiles fall back to a full search per query), and sorted at three
// densities (one query per 3 keys and per 40 keys, and 2049 queries: one search tile and one
// more), so that GPU tiles take both the path that streams the key range through shared
// memory and the one that binary-searches it; keys with many ties and nearly unique keys.
template <class T>
void check_search(const context& ctx, std::uint64_t seed) {
  constexpr std::int64_t query_tile = cuda_tuning::search_tuning::tile;
  for (std::int64_t n : sizes()) {
    for (std::uint64_t distinct : {std::uint64_t(1000), std::uint64_t(1) << 40}) {
      auto sorted = make_keys<T>(n, seed ^ std::uint64_t(n) ^ distinct, distinct);
      sort_keys(sorted, false);
      auto s = buffer<T>::from_host(ctx, sorted);
      for (int mode = 0; mode < 4; ++mode) {
        const std::int64_t m = mode == 3 ? query_tile + 1 : mode == 2 ? n / 40 + 3 : n / 3 + 5;
        auto queries = make_keys<T>(m, seed + std::uint64_t(n + mode), distinct + distinct / 10);
        if (mode > 0) sort_keys(queries, false);
        auto q = buffer<T>::from_host(ctx, queries);
        buffer<std::int64_t> lo(ctx, q.size()), hi(ctx, q.size());
        lower_bound<T>(ctx, s, q, lo);
        upper_bound<T>(ctx, s, q, hi);
        std::vector<std::int64_t> want_lo, want_hi;
        for (T x : queries) {
          want_lo.push_back(std::lower_bound(sorted.begin(), sorted.end(), x, reference::key_less<T>) - sorted.begin());
          want_hi.push_back(std::upper_bound(sorted.begin(), sorted.end(), x, reference::key_less<T>) - sorted.begin());
        }
        const std::string where = std::string(type_name<T>()) + " n=" + std::to_string(n) +
                                  " m=" + std::to_string(m) + " distinct=" + std::to_string(distinct) +
                                  (mode > 0 ? " sorted queries" : " unsorted queries");
        EXPECT_EQ(lo.to_host(), want_lo) << where << " lower_bound";
        EXPECT_EQ(hi.to_host(), want_hi) << where << " upper_bound";
      }
    }
  }
}

template <class K, class V>
void check_merge(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : sizes()) {
    for (std::int64_t na : {std::int64_t(0), n / 2, n / 7, n}) {
      for (bool descending : {false, true}) {
        auto a = make_keys<K>(na, seed ^ std::uint64_t(n + na), 300);
        auto b = make_keys<K>(n - na, seed + std::uint64_t(n * 3 + na), 300);
        sort_keys(a, descending);
        sort_keys(b, descending);
        // Values record the origin: a's i -> i, b's j -> 1'000'000 + j.
        std::vector<std::pair<K, V>> pa, pb, want;
        for (std::int64_t i = 0; i < na; ++i) pa.push_back({a[i], V(i)});
        for (std::int64_t j = 0; j < n - na; ++j) pb.push_back({b[j], V(1'000'000 + j)});
        auto less = [&](const std::pair<K, V>& x, const std::pair<K, V>& y) {
          return descending ? reference::key_less(y.first, x.first) : reference::key_less(x.first, y.first);
        };
        std::merge(pa.begin(), pa.end(), pb.begin(), pb.end(), std::back_inserter(want), less);
        std::vector<K> want_k;
        std::vector<V> want_v;
        for (auto& p : want) {
          want_k.push_back(p.first);
          want_v.push_back(p.second);
        }
        std::vector<V> av, bv;
        for (auto& p : pa) av.push_back(p.second);
        for (auto& p : pb) bv.push_back(p.second);
        const sort_order order = descending ? sort_order::descending : sort_order::ascending;
        std::string where = std::string(type_name<K>()) + "/" + type_name<V>() + " n=" +
                            std::to_string(n) + " na=" + std::to_string(na) + " " + to_string(order);
        auto ba = buffer<K>::from_host(ctx, a);
        auto bb = buffer<K>::from_host(ctx, b);
        buffer<K> out(ctx, n);
        merge<K>(ctx, ba, bb, out, order);
        EXPECT_TRUE(same_bits(out.to_host(), want_k)) << where << " merge";
        auto bav = buffer<V>::from_host(ctx, av);
        auto bbv = buffer<V>::from_host(ctx, bv);
        buffer<V> out_v(ctx, n);
        merge_by_key<K, V>(ctx, ba, bav, bb, bbv, out, out_v, order);
        ctx.synchronize();
        EXPECT_TRUE(same_bits(out.to_host(), want_k)) << where << " merge_by_key keys";
        EXPECT_EQ(out_v.to_host(), want_v) << where << " merge_by_key values";
      }
    }
  }
}

TEST_P(SearchMerge, SearchMatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto t) { check_search<decltype(t)>(ctx, seed); });
}

TEST_P(SearchMerge, MergeMatchesOracle) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_merge<std::int32_t, std::uint32_t>(ctx, seed);
  check_merge<std::uint32_t, std::int64_t>(ctx, seed);
  check_merge<std::int64_t, float>(ctx, seed);
  check_merge<std::uint64_t, double>(ctx, seed);
  check_merge<float, std::int32_t>(ctx, seed);
  check_merge<double, std::uint64_t>(ctx, seed);
}

TEST_P(SearchMerge, UnsortedMergeInputIsAnError) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::vector<std::int32_t> a(5000), b(3000);
  for (int i = 0; i < 5000; ++i) a[i] = i;
  for (int i = 0; i < 3000; ++i) b[i] = 2 * i;
  b[1234] = -7;  // b[1233] > b[1234]
  auto ba = buffer<std::int32_t>::from_host(ctx, a);
  auto bb = buffer<std::int32_t>::from_host(ctx, b);
  buffer<std::int32_t> out(ctx, 8000);
  out.fill_bytes(0x5A);
  testing::expect_error(
      [&] {
        merge<std::int32_t>(ctx, ba, bb, out);
        ctx.synchronize();
      },
      errc::invalid_argument, {"merge", ctx.name(), "b is not sorted", "element 1234 comes before element 1233"});
  if (GetParam() == backend::cpu) EXPECT_EQ(out.to_host(), std::vector<std::int32_t>(8000, 0x5A5A5A5A));
  buffer<std::int32_t> small(ctx, 7999);
  testing::expect_error([&] { merge<std::int32_t>(ctx, ba, bb, small); }, errc::invalid_argument,
                        {"merge", "out.size()=7999"});
}

// One unsorted pair anywhere in a or b, made either by a key one below its predecessor or by a
// key far above its successor (which bends the merge path of the tile holding it): the error
// names that pair, wherever it lies against threads, warps and tiles of the GPU merge.
TEST_P(SearchMerge, UnsortedPairFoundAtAnyPosition) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  constexpr std::int64_t t = cuda_tuning::merge_tuning::tile;
  constexpr std::int64_t items = cuda_tuning::merge_tuning::items;
  const std::int64_t na = 3 * t + 123, nb = 2 * t + 77;
  // t and 2 t: tile edges of 8-byte and of 4-byte keys (this test's keys are 4 bytes).
  std::vector<std::int64_t> positions = {0,     1,     items - 1, items, 32 * items - 1,
                                         32 * items, t / 2 - 1, t / 2, t - 2, t - 1,
                                         t,     2 * t - 1, 2 * t, nb - 2};
  std::mt19937_64 g(seed);
  for (int k = 0; k < 6; ++k) positions.push_back(std::int64_t(g() % std::uint64_t(nb - 1)));
  buffer<std::int32_t> out(ctx, na + nb);
  for (std::int64_t p : positions) {
    for (int shape = 0; shape < 4; ++shape) {
      const bool in_a = shape % 2 == 0;
      std::vector<std::int32_t> a(na), b(nb);
      for (std::int64_t i = 0; i < na; ++i) a[i] = std::int32_t(4 * i);
      for (std::int64_t j = 0; j < nb; ++j) b[j] = std::int32_t(4 * j + 1);
      auto& x = in_a ? a : b;
      if (shape < 2) x[p + 1] = x[p] - 1;
      else x[p] = 1 << 30;
      auto ba = buffer<std::int32_t>::from_host(ctx, a);
      auto bb = buffer<std::int32_t>::from_host(ctx, b);
      SCOPED_TRACE("p=" + std::to_string(p) + " shape=" + std::to_string(shape));
      testing::expect_error(
          [&] {
            merge<std::int32_t>(ctx, ba, bb, out);
            ctx.synchronize();
          },
          errc::invalid_argument,
          {"merge", std::string(in_a ? "a" : "b") + " is not sorted",
           "element " + std::to_string(p + 1) + " comes before element " + std::to_string(p)});
    }
  }
}

// Every byte of b still holds the poison 0x5A: nothing was written to it.
template <class T>
bool untouched(const buffer<T>& b) {
  auto host = b.to_host();
  std::vector<unsigned char> poison(host.size() * sizeof(T), 0x5A);
  return poison.empty() || std::memcmp(host.data(), poison.data(), poison.size()) == 0;
}

// No queries (m = 0): nothing to do, with an empty out; an empty sorted range: every query's
// bound is 0 (sorted.size()); both empty. Every precompiled type, both searches.
template <class T>
void check_empty_search(const context& ctx) {
  const std::string where = type_name<T>();
  auto sorted = buffer<T>::from_host(ctx, {T(1), T(2), T(2), T(5)});
  buffer<T> none(ctx, 0);
  buffer<std::int64_t> no_out(ctx, 0);
  for (const buffer<T>* s : {&sorted, &none}) {
    lower_bound<T>(ctx, *s, none, no_out);
    upper_bound<T>(ctx, *s, none, no_out);
  }
  std::vector<T> qs{T(3), T(0), T(7), std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()};
  if constexpr (std::is_floating_point_v<T>) qs.push_back(std::numeric_limits<T>::quiet_NaN());
  auto queries = buffer<T>::from_host(ctx, qs);
  buffer<std::int64_t> out(ctx, queries.size());
  out.fill_bytes(0x5A);
  lower_bound<T>(ctx, none, queries, out);
  EXPECT_EQ(out.to_host(), std::vector<std::int64_t>(qs.size(), 0)) << where << " lower_bound";
  out.fill_bytes(0x5A);
  upper_bound<T>(ctx, none, queries, out);
  EXPECT_EQ(out.to_host(), std::vector<std::int64_t>(qs.size(), 0)) << where << " upper_bound";
}

TEST_P(SearchMerge, EmptyQueriesAndEmptySortedRange) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  testing::for_each_type([&](auto t) { check_empty_search<decltype(t)>(ctx); });
}

// out.size() != queries.size() (shorter, longer, or queries empty and out not) is refused by
// both precompiled searches before anything is written.
TEST_P(SearchMerge, SearchOutputSizeMismatchThrowsAndWritesNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto sorted = buffer<std::int32_t>::from_host(ctx, {1, 3, 5});
  auto queries = buffer<std::int32_t>::from_host(ctx, {0, 3, 6});
  buffer<std::int64_t> out(ctx, 4);
  out.fill_bytes(0x5A);
  for (bool upper : {false, true}) {
    const std::string name = upper ? "upper_bound" : "lower_bound";
    auto call = [&](std::int64_t m, std::int64_t n_out) {
      return [&, m, n_out] {
        const span<const std::int32_t> q(queries.data(), m);
        const span<std::int64_t> o(out.data(), n_out);
        if (upper) upper_bound<std::int32_t>(ctx, sorted, q, o);
        else lower_bound<std::int32_t>(ctx, sorted, q, o);
      };
    };
    testing::expect_error(call(3, 2), errc::invalid_argument,
                          {name, ctx.name(), "queries.size()=3 but out.size()=2"});
    testing::expect_error(call(3, 4), errc::invalid_argument,
                          {name, ctx.name(), "queries.size()=3 but out.size()=4"});
    testing::expect_error(call(0, 1), errc::invalid_argument,
                          {name, ctx.name(), "queries.size()=0 but out.size()=1"});
  }
  EXPECT_TRUE(untouched(out));
}

// merge_by_key's unsorted keys (merge.hpp): the CPU throws naming the first unsorted pair
// before writing anything (keys_out and values_out keep their poison); CUDA raises the same
// error by the next synchronize, the outputs then unspecified but nothing written around them
// (each output sits between poisoned guards). Unsorted in b, in a, and against the order.
TEST_P(SearchMerge, UnsortedMergeByKeyInputIsAnError) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  constexpr std::int64_t na = 5000, nb = 3000, guard = 64;
  buffer<std::int32_t> keys_out(ctx, na + nb + 2 * guard);
  buffer<std::int64_t> values_out(ctx, na + nb + 2 * guard);
  for (int shape = 0; shape < 3; ++shape) {
    std::vector<std::int32_t> a(na), b(nb);
    std::vector<std::int64_t> av(na), bv(nb);
    for (std::int64_t i = 0; i < na; ++i) a[i] = std::int32_t(i), av[i] = i;
    for (std::int64_t j = 0; j < nb; ++j) b[j] = std::int32_t(2 * j), bv[j] = 1'000'000 + j;
    sort_order order = sort_order::ascending;
    std::vector<std::string> want{"merge_by_key", ctx.name()};
    if (shape == 0) {
      b[1234] = -7;
      want.insert(want.end(), {"b_keys is not sorted (ascending)", "element 1234 comes before element 1233"});
    } else if (shape == 1) {
      a[2500] = -3;
      want.insert(want.end(), {"a_keys is not sorted (ascending)", "element 2500 comes before element 2499"});
    } else {  // descending asked, a ascending, b descending: a's first pair is out of order
      order = sort_order::descending;
      std::reverse(b.begin(), b.end());
      want.insert(want.end(), {"a_keys is not sorted (descending)", "element 1 comes before element 0"});
    }
    SCOPED_TRACE("shape=" + std::to_string(shape));
    auto ba = buffer<std::int32_t>::from_host(ctx, a);
    auto bb = buffer<std::int32_t>::from_host(ctx, b);
    auto bav = buffer<std::int64_t>::from_host(ctx, av);
    auto bbv = buffer<std::int64_t>::from_host(ctx, bv);
    keys_out.fill_bytes(0x5A);
    values_out.fill_bytes(0x5A);
    const span<std::int32_t> ko(keys_out.data() + guard, na + nb);
    const span<std::int64_t> vo(values_out.data() + guard, na + nb);
    testing::expect_error(
        [&] {
          merge_by_key<std::int32_t, std::int64_t>(ctx, ba, bav, bb, bbv, ko, vo, order);
          ctx.synchronize();
        },
        errc::invalid_argument, want);
    auto k = keys_out.to_host();
    auto v = values_out.to_host();
    if (GetParam() == backend::cpu) {
      EXPECT_TRUE(untouched(keys_out)) << "keys_out written";
      EXPECT_TRUE(untouched(values_out)) << "values_out written";
    }
    for (std::int64_t i = 0; i < guard; ++i) {
      for (std::int64_t at : {i, guard + na + nb + i}) {
        ASSERT_EQ(k[at], 0x5A5A5A5A) << "keys written outside keys_out at " << at;
        ASSERT_EQ(v[at], 0x5A5A5A5A5A5A5A5A) << "values written outside values_out at " << at;
      }
    }
  }
}

// Enough queries for the GPU's tiles of queries (more than per_query_max_tiles_per_sm tiles per
// SM; fewer queries take one thread each, as every size above does): sorted queries dense in
// the keys (each tile streams its key range through shared memory), sorted queries sparse in
// them (each tile binary-searches its range), and unsorted ones (the full search per query).
// GPU only: the CPU has one search, which the cases above cover, and the host oracle of
// tens of millions of keys would take CI's time. Not capped, so the sanitizers run the tiles.
template <class T>
void check_query_tiles(const context& ctx, std::int64_t keys_per_query, std::uint64_t seed) {
  using tuning = cuda_tuning::search_tuning;
  const std::int64_t per_query_most =
      std::int64_t(tuning::per_query_max_tiles_per_sm) * ctx.multiprocessors() * tuning::tile;
  const std::int64_t m = per_query_most + 2 * tuning::tile + 7;
  const std::int64_t n = keys_per_query * m;
  auto sorted = make_keys<T>(n, seed, std::uint64_t(1) << 40);
  sort_keys(sorted, false);
  auto s = buffer<T>::from_host(ctx, sorted);
  for (bool sorted_queries : {true, false}) {
    auto queries = make_keys<T>(m, seed + 1 + sorted_queries, std::uint64_t(1) << 40);
    if (sorted_queries) sort_keys(queries, false);
    auto q = buffer<T>::from_host(ctx, queries);
    buffer<std::int64_t> lo(ctx, m), hi(ctx, m);
    lower_bound<T>(ctx, s, q, lo);
    upper_bound<T>(ctx, s, q, hi);
    const auto got_lo = lo.to_host(), got_hi = hi.to_host();
    const std::string where = std::string(type_name<T>()) + " n=" + std::to_string(n) +
                              " m=" + std::to_string(m) +
                              (sorted_queries ? " sorted queries" : " unsorted queries");
    for (std::int64_t i = 0; i < m; ++i) {
      const auto x = queries[std::size_t(i)];
      const auto want_lo =
          std::lower_bound(sorted.begin(), sorted.end(), x, reference::key_less<T>) - sorted.begin();
      const auto want_hi =
          std::upper_bound(sorted.begin(), sorted.end(), x, reference::key_less<T>) - sorted.begin();
      ASSERT_EQ(got_lo[std::size_t(i)], want_lo) << where << " lower_bound of query " << i;
      ASSERT_EQ(got_hi[std::size_t(i)], want_hi) << where << " upper_bound of query " << i;
    }
  }
}

TEST_P(SearchMerge, SearchManyQueryTiles) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  if (GetParam() != backend::cuda) GTEST_SKIP() << "GPU tiles of queries";
  context ctx = testing::make_context(GetParam());
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_query_tiles<std::uint32_t>(ctx, 3, seed);    // 3 keys per query: staged ranges
  check_query_tiles<std::uint64_t>(ctx, 30, seed);   // 30 (over stage_bytes_per_query): searched
}

INSTANTIATE_TEST_SUITE_P(All, SearchMerge, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
