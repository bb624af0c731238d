// merge, merge_by_key, lower_bound and upper_bound with a caller's comparator against
// std::merge, std::lower_bound and std::upper_bound, shared by the two public-API test files
// like generic_cases.hpp (public headers only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "public_api/generic_cases.hpp"

namespace parprim::generic_cases {

// 16 bytes compared on `key` only: `range` and `seq` record where an element came from, so
// a stable merge is told apart from any other order of equal keys.
struct record {
  std::int32_t key;
  std::uint32_t range, seq, pad;
};
static_assert(sizeof(record) == 16);
struct key_ascending {
  PARPRIM_HD bool operator()(const record& x, const record& y) const { return x.key < y.key; }
};
struct key_descending {
  PARPRIM_HD bool operator()(const record& x, const record& y) const { return y.key < x.key; }
};

// n records with keys in [0, distinct) (many equal keys), sorted by comp, numbered in order.
template <class Comp>
std::vector<record> sorted_records(std::int64_t n, std::int32_t distinct, std::uint32_t range,
                                   std::uint64_t seed, Comp comp) {
  std::mt19937_64 g(seed);
  std::vector<record> v(static_cast<std::size_t>(n));
  for (auto& r : v) r = record{std::int32_t(g() % std::uint64_t(distinct)), range, 0u, 0xA5A5A5A5u};
  std::stable_sort(v.begin(), v.end(), comp);
  for (std::size_t i = 0; i < v.size(); ++i) v[i].seq = std::uint32_t(i);
  return v;
}

// Pairs of sizes around merge tiles (1280 to 3840 outputs, 1792 for 16-byte keys, 1280 for
// 16-byte keys with 4-byte values) and ranges of very different lengths.
inline std::vector<std::pair<std::int64_t, std::int64_t>> merge_sizes() {
  const std::vector<std::pair<std::int64_t, std::int64_t>> all{
      {0, 0},       {0, 7},       {7, 0},          {1, 1},        {1279, 1},    {640, 640},
      {1792, 1},    {896, 897},   {1792, 1792},    {3000, 17},    {17, 4000},   {2561, 2560},
      {65537, 1000}, {100003, 99991}, {1 << 20, 3}, {3, 1 << 20}};
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  for (auto p : all)
    if (p.first + p.second <= testing::max_test_size()) out.push_back(p);
  return out;
}

// merge and merge_by_key against std::merge (stable: a first on equal keys) over the sizes,
// with few distinct keys (long runs of ties across both ranges) and many.
template <class Comp>
void check_merges(const context& ctx, Comp comp, const std::string& what) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (auto [na, nb] : merge_sizes()) {
    for (std::int32_t distinct : {5, 1 << 30}) {
      const auto a = sorted_records(na, distinct, 0u, seed + std::uint64_t(na), comp);
      const auto b = sorted_records(nb, distinct, 1u, seed + std::uint64_t(nb) * 7 + 1, comp);
      std::vector<record> want(a.size() + b.size());
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), comp);
      const std::string at = what + " na=" + std::to_string(na) + " nb=" + std::to_string(nb) +
                             " distinct=" + std::to_string(distinct);
      auto da = buffer<record>::from_host(ctx, a), db = buffer<record>::from_host(ctx, b);
      buffer<record> out(ctx, na + nb);
      out.fill_bytes(0x5A);
      merge(ctx, da.view(), db.view(), out.view(), comp);
      auto got = out.to_host();
      for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_TRUE(same_bits(got[i], want[i])) << "merge " << at << " i=" << i;

      // merge_by_key: the value of each key is its own (range, seq) packed, so a value that
      // does not travel with its key shows.
      std::vector<std::uint32_t> va(a.size()), vb(b.size());
      for (std::size_t i = 0; i < a.size(); ++i) va[i] = a[i].seq * 2u;
      for (std::size_t i = 0; i < b.size(); ++i) vb[i] = b[i].seq * 2u + 1u;
      auto dva = buffer<std::uint32_t>::from_host(ctx, va), dvb = buffer<std::uint32_t>::from_host(ctx, vb);
      buffer<std::uint32_t> values(ctx, na + nb);
      out.fill_bytes(0x5A);
      merge_by_key(ctx, da.view(), dva.view(), db.view(), dvb.view(), out.view(), values.view(), comp);
      got = out.to_host();
      auto gv = values.to_host();
      for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_TRUE(same_bits(got[i], want[i])) << "merge_by_key keys " << at << " i=" << i;
        ASSERT_EQ(gv[i], want[i].seq * 2u + want[i].range) << "merge_by_key values " << at << " i=" << i;
      }
    }
  }
}

// lower_bound / upper_bound against std::lower_bound / std::upper_bound, queries in random
// order (keys below, inside and above the range) and sorted.
template <class Comp>
void check_searches(const context& ctx, Comp comp, const std::string& what) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : {0, 1, 2047, 2049, 100003}) {
    if (n > testing::max_test_size()) continue;
    const auto sorted = sorted_records(n, 1000, 0u, seed + std::uint64_t(n), comp);
    auto ds = buffer<record>::from_host(ctx, sorted);
    for (std::int64_t nq : {0, 1, 2049, 70001}) {
      if (nq > testing::max_test_size()) continue;
      for (bool sorted_queries : {false, true}) {
        std::mt19937_64 g(seed + std::uint64_t(n * 31 + nq));
        std::vector<record> q(static_cast<std::size_t>(nq));
        for (auto& r : q) r = record{std::int32_t(g() % 1010) - 5, 2u, 0u, 0u};
        if (sorted_queries) std::stable_sort(q.begin(), q.end(), comp);
        auto dq = buffer<record>::from_host(ctx, q);
        buffer<std::int64_t> out(ctx, nq);
        const std::string at = what + " n=" + std::to_string(n) + " queries=" + std::to_string(nq) +
                               (sorted_queries ? " sorted" : " random");
        for (bool upper : {false, true}) {
          out.fill_bytes(0x5A);
          if (upper) upper_bound(ctx, ds.view(), dq.view(), out.view(), comp);
          else lower_bound(ctx, ds.view(), dq.view(), out.view(), comp);
          auto got = out.to_host();
          for (std::size_t i = 0; i < q.size(); ++i) {
            const auto it = upper ? std::upper_bound(sorted.begin(), sorted.end(), q[i], comp)
                                  : std::lower_bound(sorted.begin(), sorted.end(), q[i], comp);
            ASSERT_EQ(got[i], std::int64_t(it - sorted.begin()))
                << (upper ? "upper_bound " : "lower_bound ") << at << " i=" << i;
          }
        }
      }
    }
  }
}

inline void run_merge_search_cases(const context& ctx) {
  check_merges(ctx, key_ascending{}, "ascending");
  check_merges(ctx, key_descending{}, "descending");
  check_searches(ctx, key_ascending{}, "ascending");
}

}  // namespace parprim::generic_cases
