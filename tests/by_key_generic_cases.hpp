// The generic by-key, unique and run-length entry points with a caller's types, operator and
// key equality, against sequential loops. Compiled by g++ (tests/test_by_key_generic.cpp: CPU
// backend) and by nvcc (tests/cuda/test_by_key_generic_cuda.cu: CUDA backend).
//   keys:   struct group_key {group, tag}; runs by `same_group` (tags ignored), so the first
//           key of each run (with its tag) tells whether the right element was kept;
//   values: struct affine {a, b}, the map x -> a x + b over wrapping u32, composed left to
//           right: associative, not commutative, no identity passed to the library.
#pragma once

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "by_key_inputs.hpp"
#include "parprim/parprim.hpp"
#include "support/test_support.hpp"

namespace parprim::by_key_generic_cases {

struct group_key {
  std::int32_t group;
  std::int32_t tag;
};

struct same_group {
  PARPRIM_HD bool operator()(const group_key& x, const group_key& y) const {
    return x.group == y.group;
  }
};

struct affine {
  std::uint32_t a, b;
};

// Apply f, then g.
struct compose {
  PARPRIM_HD affine operator()(const affine& f, const affine& g) const {
    return affine{g.a * f.a, g.a * f.b + g.b};
  }
};

inline bool operator==(const affine& x, const affine& y) { return x.a == y.a && x.b == y.b; }
inline bool operator==(const group_key& x, const group_key& y) {
  return x.group == y.group && x.tag == y.tag;
}

// Sizes around one and two CUDA tiles for 8-byte elements (scans 256 x 9 = 2304, reductions
// 128 x 17 = 2176; unique's 256 x 16 = 4096) and past the look-back's window of 128 tiles.
// Mean runs (every_case): 1, 8, 512, 5000 (2-3 such tiles, so carries chain through tiles
// without a head) and 0 (one run of everything).
inline std::vector<std::int64_t> sizes() {
  constexpr std::int64_t t8 = by_key_inputs::cuda_tile<8>, r8 = by_key_inputs::cuda_tile<8, true>;
  std::vector<std::int64_t> out;
  for (std::int64_t n : std::initializer_list<std::int64_t>{0, 1, 2, r8 - 1, r8, r8 + 1, t8 - 1, t8,
                                                            t8 + 1, 4095, 4096, 4097, 2 * r8 + 1,
                                                            2 * t8 + 1, 65537, 300'007})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

// Runs of random length (mean about mean_run; 0: one run) of groups drawn from a few values,
// so neighbouring runs sometimes share a group and merge; every tag differs.
inline std::vector<group_key> make_keys(std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<group_key> k(static_cast<std::size_t>(n));
  std::int64_t i = 0;
  while (i < n) {
    const std::int64_t len = mean_run == 0 ? n : 1 + std::int64_t(g() % std::uint64_t(2 * mean_run - 1));
    const std::int32_t group = std::int32_t(g() % 4);
    for (std::int64_t j = i; j < std::min(n, i + len); ++j) k[j] = group_key{group, std::int32_t(j)};
    i += len;
  }
  return k;
}

inline std::vector<affine> make_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<affine> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = affine{std::uint32_t(g()) | 1u, std::uint32_t(g())};
  return v;
}

inline std::vector<bool> heads(const std::vector<group_key>& k) {
  std::vector<bool> h(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) h[i] = i == 0 || !same_group{}(k[i - 1], k[i]);
  return h;
}

// Oracles: first key, first value, fold and length of each run; scans per element (the
// exclusive one from init).
struct expected {
  std::vector<group_key> first_keys;
  std::vector<affine> first_values, folds, inclusive, exclusive;
  std::vector<std::int64_t> lengths;
};

inline expected oracle(const std::vector<group_key>& keys, const std::vector<affine>& values,
                       affine init) {
  const auto h = heads(keys);
  expected e;
  e.inclusive.resize(values.size());
  e.exclusive.resize(values.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (h[i]) {
      e.first_keys.push_back(keys[i]);
      e.first_values.push_back(values[i]);
      e.folds.push_back(values[i]);
      e.lengths.push_back(1);
      e.exclusive[i] = init;
    } else {
      e.exclusive[i] = compose{}(e.exclusive[i - 1], values[i - 1]);
      e.folds.back() = compose{}(e.folds.back(), values[i]);
      ++e.lengths.back();
    }
    e.inclusive[i] = e.folds.back();
  }
  return e;
}

inline void check_one(const context& ctx, std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run);
  const auto keys = make_keys(n, mean_run, seed);
  const auto values = make_values(n, seed + 1);
  const affine init{3u, 5u};
  const expected e = oracle(keys, values, init);
  const auto& [first_keys, first_values, folds, inclusive, exclusive, lengths] = e;
  const std::int64_t runs = std::int64_t(first_keys.size());

  auto k = buffer<group_key>::from_host(ctx, keys);
  auto v = buffer<affine>::from_host(ctx, values);
  span<const group_key> kc(k.data(), n);
  span<const affine> vc(v.data(), n);
  buffer<group_key> ko(ctx, n);
  buffer<affine> vo(ctx, n);
  ASSERT_EQ(reduce_by_key(ctx, kc, vc, span<group_key>(ko), span<affine>(vo), compose{}, same_group{}), runs) << where;
  auto got_k = ko.to_host();
  auto got_v = vo.to_host();
  got_k.resize(runs);
  got_v.resize(runs);
  EXPECT_EQ(got_k, first_keys) << where << " reduce_by_key keys";
  EXPECT_EQ(got_v, folds) << where << " reduce_by_key values";

  buffer<affine> out(ctx, n);
  inclusive_scan_by_key(ctx, kc, vc, span<affine>(out), compose{}, same_group{});
  EXPECT_EQ(out.to_host(), inclusive) << where << " inclusive_scan_by_key";
  exclusive_scan_by_key(ctx, kc, vc, span<affine>(out), init, compose{}, same_group{});
  EXPECT_EQ(out.to_host(), exclusive) << where << " exclusive_scan_by_key";
  // In place.
  buffer<affine> in_place = buffer<affine>::from_host(ctx, values);
  inclusive_scan_by_key(ctx, kc, span<const affine>(in_place.data(), n), span<affine>(in_place),
                        compose{}, same_group{});
  EXPECT_EQ(in_place.to_host(), inclusive) << where << " inclusive_scan_by_key in place";

  EXPECT_EQ(unique_count(ctx, kc, same_group{}), runs) << where;
  ASSERT_EQ(unique(ctx, kc, span<group_key>(ko), same_group{}), runs) << where;
  got_k = ko.to_host();
  got_k.resize(runs);
  EXPECT_EQ(got_k, first_keys) << where << " unique";
  ASSERT_EQ(unique_by_key(ctx, kc, vc, span<group_key>(ko), span<affine>(vo), same_group{}), runs) << where;
  got_k = ko.to_host();
  got_v = vo.to_host();
  got_k.resize(runs);
  got_v.resize(runs);
  EXPECT_EQ(got_k, first_keys) << where << " unique_by_key keys";
  EXPECT_EQ(got_v, first_values) << where << " unique_by_key values";
  buffer<std::int64_t> len(ctx, runs);
  buffer<group_key> uo(ctx, runs);
  ASSERT_EQ(run_length_encode(ctx, kc, span<group_key>(uo), span<std::int64_t>(len), same_group{}), runs) << where;
  EXPECT_EQ(uo.to_host(), first_keys) << where << " run_length_encode keys";
  EXPECT_EQ(len.to_host(), lengths) << where << " run_length_encode lengths";
}

// The _into forms: the count in count[0] on the backend, the first runs as above.
inline void check_into(const context& ctx, std::int64_t n, std::int64_t mean_run,
                       std::uint64_t seed) {
  const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run);
  const auto keys = make_keys(n, mean_run, seed);
  const auto values = make_values(n, seed + 1);
  const expected e = oracle(keys, values, affine{});
  const std::int64_t runs = std::int64_t(e.first_keys.size());
  auto k = buffer<group_key>::from_host(ctx, keys);
  auto v = buffer<affine>::from_host(ctx, values);
  span<const group_key> kc(k.data(), n);
  span<const affine> vc(v.data(), n);
  buffer<group_key> ko(ctx, n);
  buffer<affine> vo(ctx, n);
  buffer<std::int64_t> len(ctx, n), count(ctx, 1);
  // The first runs of each output, and count[0] (poisoned before each call).
  auto first = [&](const auto& out) {
    auto got = out.to_host();
    got.resize(std::size_t(runs));
    return got;
  };
  auto count_after = [&](auto call) {
    count.fill_bytes(0xA5);
    call();
    return count.to_host()[0];
  };
  const span<std::int64_t> cs(count);
  EXPECT_EQ(count_after([&] {
              reduce_by_key_into(ctx, kc, vc, span<group_key>(ko), span<affine>(vo), cs,
                                 compose{}, same_group{});
            }),
            runs)
      << where << " reduce_by_key_into";
  EXPECT_EQ(first(ko), e.first_keys) << where << " reduce_by_key_into keys";
  EXPECT_EQ(first(vo), e.folds) << where << " reduce_by_key_into values";
  EXPECT_EQ(count_after([&] { unique_count_into(ctx, kc, cs, same_group{}); }), runs)
      << where << " unique_count_into";
  EXPECT_EQ(count_after([&] { unique_into(ctx, kc, span<group_key>(ko), cs, same_group{}); }),
            runs)
      << where << " unique_into";
  EXPECT_EQ(first(ko), e.first_keys) << where << " unique_into";
  EXPECT_EQ(count_after([&] {
              unique_by_key_into(ctx, kc, vc, span<group_key>(ko), span<affine>(vo), cs,
                                 same_group{});
            }),
            runs)
      << where << " unique_by_key_into";
  EXPECT_EQ(first(vo), e.first_values) << where << " unique_by_key_into values";
  EXPECT_EQ(count_after([&] {
              run_length_encode_into(ctx, kc, span<group_key>(ko), span<std::int64_t>(len), cs,
                                     same_group{});
            }),
            runs)
      << where << " run_length_encode_into";
  EXPECT_EQ(first(ko), e.first_keys) << where << " run_length_encode_into keys";
  EXPECT_EQ(first(len), e.lengths) << where << " run_length_encode_into lengths";
}

inline void every_into_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : sizes())
    for (std::int64_t mean_run : {1, 8, 512, 0})
      check_into(ctx, n, mean_run, seed ^ std::uint64_t(n * 37 + mean_run));
}

inline void every_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : sizes())
    for (std::int64_t mean_run : {1, 8, 512, 5000, 0}) check_one(ctx, n, mean_run, seed ^ std::uint64_t(n * 31 + mean_run));
}

// Outputs smaller than the run count: an error naming the output; the first size() runs are
// written and nothing past them.
inline void too_small_outputs(const context& ctx) {
  const std::vector<group_key> keys{{1, 0}, {1, 1}, {2, 2}, {3, 3}, {3, 4}, {4, 5}};
  auto k = buffer<group_key>::from_host(ctx, keys);
  span<const group_key> kc(k.data(), k.size());
  buffer<group_key> small(ctx, 3);
  testing::expect_error([&] { unique(ctx, kc, span<group_key>(small), same_group{}); },
                        errc::invalid_argument, {"unique", "out.size()=3", "4 runs"});
  EXPECT_EQ(small.to_host(), (std::vector<group_key>{{1, 0}, {2, 2}, {3, 3}}));
}

}  // namespace parprim::by_key_generic_cases
