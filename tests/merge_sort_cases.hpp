// merge_sort and merge_sort_pairs against std::stable_sort, shared by the g++ test (CPU
// backend) and the nvcc one (both backends): sizes around the GPU tiles and merge passes,
// 8-byte keys, 16-byte structs sorted by one field with many equal keys (stability), a
// descending comparator, and pairs whose values are the original indices (so the values
// check the permutation exactly).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parprim/buffer.hpp"
#include "parprim/merge_sort.hpp"
#include "support/test_support.hpp"

namespace parprim::merge_sort_cases {

// A 16-byte record sorted by `key` alone; `tag` makes equal keys distinguishable.
struct record {
  std::uint32_t key;
  std::uint32_t tag;
  std::uint64_t payload;
};

struct by_key {
  PARPRIM_HOST_DEVICE bool operator()(const record& a, const record& b) const { return a.key < b.key; }
};
struct descending_u64 {
  PARPRIM_HOST_DEVICE bool operator()(std::uint64_t a, std::uint64_t b) const { return a > b; }
};

// Sizes around the GPU tiles of 4-, 8- and 16-byte elements (256 threads x 15, 11, 7) and
// their merge passes, and across the CPU's sequential cutoff.
inline std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> v = {0, 1, 2, 3, 255, 256, 257};
  for (std::int64_t tile : {256 * 15, 256 * 11, 256 * 7})
    for (std::int64_t n : {tile - 1, tile, tile + 1, 2 * tile + 1, 5 * tile - 3}) v.push_back(n);
  for (std::int64_t n : {16383, 16385, 100'003, (1 << 20) + 7}) v.push_back(n);
  v.erase(std::remove_if(v.begin(), v.end(), [](std::int64_t n) { return n > testing::max_test_size(); }),
          v.end());
  return v;
}

inline std::vector<record> make_records(std::int64_t n, std::uint64_t seed, std::uint32_t distinct) {
  std::mt19937_64 g(seed);
  std::vector<record> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = record{std::uint32_t(g() % distinct), std::uint32_t(i), g()};
  return v;
}

inline bool same_bytes(const record& a, const record& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class T, class Comp>
void check_keys(const context& ctx, std::vector<T> in, Comp comp, const std::string& where) {
  std::vector<T> want = in;
  std::stable_sort(want.begin(), want.end(), comp);
  auto b = buffer<T>::from_host(ctx, in);
  merge_sort(ctx, span<T>(b.data(), b.size()), comp);
  std::vector<T> got = b.to_host();
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ < 3) ADD_FAILURE() << where << ": [" << i << "] differs";
  EXPECT_EQ(bad, 0) << where;
}

template <class K, class Comp>
void check_pairs(const context& ctx, const std::vector<K>& keys, Comp comp, const std::string& where,
                 workspace* ws = nullptr) {
  std::vector<std::uint32_t> idx(keys.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = std::uint32_t(i);
  std::vector<std::uint32_t> want = idx;
  std::stable_sort(want.begin(), want.end(), [&](std::uint32_t a, std::uint32_t b) { return comp(keys[a], keys[b]); });
  auto kb = buffer<K>::from_host(ctx, keys);
  auto vb = buffer<std::uint32_t>::from_host(ctx, idx);
  merge_sort_pairs(ctx, span<K>(kb.data(), kb.size()), span<std::uint32_t>(vb.data(), vb.size()), comp, ws);
  std::vector<K> got_k = kb.to_host();
  std::vector<std::uint32_t> got_v = vb.to_host();
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    const bool ok = got_v[i] == want[i] && std::memcmp(&got_k[i], &keys[want[i]], sizeof(K)) == 0;
    if (!ok && bad++ < 3) ADD_FAILURE() << where << ": [" << i << "] value " << got_v[i] << " want " << want[i];
  }
  EXPECT_EQ(bad, 0) << where;
}

inline void every_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : sizes()) {
    const std::string at = ctx.name() + " n=" + std::to_string(n);
    std::mt19937_64 g(seed + std::uint64_t(n));
    std::vector<std::uint64_t> u64(static_cast<std::size_t>(n));
    for (auto& x : u64) x = g();
    check_keys(ctx, u64, less_than{}, at + " u64");
    check_keys(ctx, u64, descending_u64{}, at + " u64 descending");
    std::vector<std::uint32_t> u32(static_cast<std::size_t>(n));
    for (auto& x : u32) x = std::uint32_t(g() % 1000);  // equal-heavy
    check_keys(ctx, u32, less_than{}, at + " u32 (1000 distinct)");
    for (std::uint32_t distinct : {1u, 7u, 1u << 30}) {
      auto recs = make_records(n, g(), distinct);
      check_keys(ctx, recs, by_key{}, at + " records, " + std::to_string(distinct) + " distinct keys");
      check_pairs(ctx, recs, by_key{}, at + " record pairs, " + std::to_string(distinct) + " distinct keys");
    }
    check_pairs(ctx, u64, descending_u64{}, at + " u64 pairs descending");
  }
}

// Sorted, reversed and organ-pipe inputs (the merge path's extremes: one run taken whole).
inline void ordered_inputs(const context& ctx) {
  const std::int64_t n = std::min<std::int64_t>(300'001, testing::max_test_size());
  std::vector<std::uint64_t> up(static_cast<std::size_t>(n)), down, pipe;
  for (std::int64_t i = 0; i < n; ++i) up[i] = std::uint64_t(i / 3);
  down.assign(up.rbegin(), up.rend());
  pipe = up;
  std::reverse(pipe.begin() + n / 2, pipe.end());
  check_keys(ctx, up, less_than{}, ctx.name() + " sorted");
  check_keys(ctx, down, less_than{}, ctx.name() + " reversed");
  check_keys(ctx, pipe, less_than{}, ctx.name() + " organ pipe");
  workspace ws(ctx);
  check_pairs(ctx, down, less_than{}, ctx.name() + " reversed pairs, workspace", &ws);
}

}  // namespace parprim::merge_sort_cases
