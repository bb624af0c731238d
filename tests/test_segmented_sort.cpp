// segmented_sort and segmented_sort_pairs against std::stable_sort of every segment
// (reference/sort_ref.hpp's documented key order), over backend x key type x order x segment
// layout: empty input, zero segments, empty segments (at both ends), one segment holding
// everything, many tiny segments, a skewed mix, lengths around the warp (64), block (4096,
// 16384) and radix-sort size classes (CUDA 16384, CPU 65536), float specials; values carry their
// input position, so stability is checked exactly. Bad offsets and sizes throw.
#include <algorithm>
#include <limits>
#include <random>

#include "reference/sort_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;

// Few distinct keys (many ties) with every float special mixed in.
template <class K>
std::vector<K> make_keys(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<K> v(static_cast<std::size_t>(n));
  for (auto& x : v) {
    const std::int64_t small = std::int64_t(g() % 9) - (std::is_signed_v<K> ? 4 : 0);
    x = K(small);
    if constexpr (std::is_floating_point_v<K>) {
      const K nan = std::numeric_limits<K>::quiet_NaN(), inf = std::numeric_limits<K>::infinity();
      const K specials[] = {nan, -nan, inf, -inf, K(0), K(-0.0), K(0.5), K(-1e-30)};
      if (g() % 4 == 0) x = specials[g() % 8];
    } else if (g() % 4 == 0) {
      x = K(g());  // the whole range, sign bits included
    }
  }
  return v;
}

struct layout {
  std::string name;
  std::vector<std::int64_t> offsets;
};

void add_run(layout& l, std::int64_t length, std::int64_t n) {
  l.offsets.push_back(std::min(n, l.offsets.back() + length));
}

std::vector<layout> layouts(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<layout> out;
  out.push_back({"one", {0, n}});
  out.push_back({"none", {0}});
  out.push_back({"all_empty", {0, 0, 0}});
  layout tiny{"tiny_with_empty_ends", {0, 0}};
  while (tiny.offsets.back() < n) add_run(tiny, std::int64_t(g() % 33), n);
  tiny.offsets.push_back(n);
  out.push_back(tiny);
  layout skewed{"skewed", {0, n / 2}};
  while (skewed.offsets.back() < n) add_run(skewed, 1 + std::int64_t(g() % 64), n);
  out.push_back(skewed);
  layout classes{"class_edges", {0}};
  const std::int64_t edges[] = {1,    2,     32,    33,    63,    64,    65,   100,
                                4095, 4096,  4097,  16384, 16385, 65536, 65537, 9000};
  for (int i = 0; classes.offsets.back() < n; ++i) add_run(classes, edges[i % 16], n);
  out.push_back(classes);
  if (n >= 10) out.push_back({"inner_range", {3, 3, 5, n - 4, n - 4}});
  return out;
}

// The oracle: each segment stably sorted, elements outside the segments untouched.
template <class K, class V>
void oracle(std::vector<K>& keys, std::vector<V>& values, const std::vector<std::int64_t>& off,
            bool descending) {
  for (std::size_t s = 0; s + 1 < off.size(); ++s) {
    std::vector<K> k(keys.begin() + off[s], keys.begin() + off[s + 1]);
    std::vector<V> v(values.begin() + off[s], values.begin() + off[s + 1]);
    const auto perm = reference::stable_sort_permutation(k, descending, 0, int(sizeof(K) * 8));
    for (std::size_t j = 0; j < perm.size(); ++j) {
      keys[off[s] + j] = k[perm[j]];
      values[off[s] + j] = v[perm[j]];
    }
  }
}

template <class K>
std::vector<reference::image_t<K>> bits(const std::vector<K>& v) {
  std::vector<reference::image_t<K>> out;
  for (K k : v) out.push_back(reference::bits_of(k));
  return out;
}

std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {0, 1, 70, 4097, 30'011, 100'003})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

template <class K>
void check_key_type(const context& ctx, std::uint64_t seed) {
  using V = reference::image_t<K>;  // the input position, as a value of the key's width
  workspace ws(ctx);
  for (std::int64_t n : sizes()) {
    const auto x = make_keys<K>(n, seed ^ std::uint64_t(n));
    std::vector<V> positions(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) positions[i] = V(i);
    for (const layout& l : layouts(n, seed + std::uint64_t(n))) {
      auto off = buffer<std::int64_t>::from_host(ctx, l.offsets);
      for (sort_order order : {sort_order::ascending, sort_order::descending}) {
        const std::string where = std::string(type_name<K>()) + " n=" + std::to_string(n) + " " +
                                  l.name + " " + to_string(order);
        auto want_keys = x;
        auto want_values = positions;
        oracle(want_keys, want_values, l.offsets, order == sort_order::descending);

        auto keys = buffer<K>::from_host(ctx, x);
        auto values = buffer<V>::from_host(ctx, positions);
        segmented_sort_pairs<K, V>(ctx, keys, values, off, order, &ws);
        EXPECT_EQ(bits(keys.to_host()), bits(want_keys)) << where << " pairs keys";
        EXPECT_EQ(values.to_host(), want_values) << where << " pairs values";

        auto only = buffer<K>::from_host(ctx, x);
        segmented_sort<K>(ctx, only, off, order);
        EXPECT_EQ(bits(only.to_host()), bits(want_keys)) << where << " keys only";
      }
    }
  }
}

class SegmentedSort : public ::testing::TestWithParam<backend> {};

TEST_P(SegmentedSort, MatchesStableSortPerSegment) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  testing::for_each_type([&](auto k) { check_key_type<decltype(k)>(ctx, seed); });
}

// Float values of the key's width move with their keys too (the other value types).
TEST_P(SegmentedSort, FloatValuesMoveWithKeys) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::vector<std::int32_t> k{3, 1, 2, 1, 9, 0, 5, 5, 4};
  const std::vector<float> v{0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
  auto keys = buffer<std::int32_t>::from_host(ctx, k);
  auto values = buffer<float>::from_host(ctx, v);
  auto off = buffer<std::int64_t>::from_host(ctx, {0, 4, 4, 9});
  segmented_sort_pairs<std::int32_t, float>(ctx, keys, values, off, sort_order::descending);
  EXPECT_EQ(keys.to_host(), (std::vector<std::int32_t>{3, 2, 1, 1, 9, 5, 5, 4, 0}));
  EXPECT_EQ(values.to_host(), (std::vector<float>{0.f, 2.f, 1.f, 3.f, 4.f, 6.f, 7.f, 8.f, 5.f}));
}

TEST_P(SegmentedSort, BadArgumentsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  const std::vector<std::uint32_t> k{9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  auto keys = buffer<std::uint32_t>::from_host(ctx, k);
  auto values = buffer<std::uint32_t>::from_host(ctx, k);
  for (std::vector<std::int64_t> bad : {std::vector<std::int64_t>{0, 5, 3, 10},
                                        std::vector<std::int64_t>{0, 5, 8, 11},
                                        std::vector<std::int64_t>{-1, 5, 8, 10}}) {
    auto off = buffer<std::int64_t>::from_host(ctx, bad);
    testing::expect_error([&] { segmented_sort<std::uint32_t>(ctx, keys, off); },
                          errc::invalid_argument, {"segmented_sort", ctx.name(), "offsets["});
    testing::expect_error(
        [&] { segmented_sort_pairs<std::uint32_t, std::uint32_t>(ctx, keys, values, off); },
        errc::invalid_argument, {"segmented_sort_pairs", ctx.name(), "offsets["});
    EXPECT_EQ(keys.to_host(), k);
    EXPECT_EQ(values.to_host(), k);
  }
  buffer<std::int64_t> no_offsets(ctx, 0);
  testing::expect_error([&] { segmented_sort<std::uint32_t>(ctx, keys, no_offsets); },
                        errc::invalid_argument, {"segmented_sort", "offsets.size()=0"});
  auto off = buffer<std::int64_t>::from_host(ctx, {0, 10});
  buffer<std::uint32_t> short_values(ctx, 9);
  testing::expect_error(
      [&] { segmented_sort_pairs<std::uint32_t, std::uint32_t>(ctx, keys, short_values, off); },
      errc::invalid_argument, {"segmented_sort_pairs", "values.size()=9"});
  testing::expect_error(
      [&] { segmented_sort<std::uint32_t>(ctx, keys, off, static_cast<sort_order>(7)); },
      errc::invalid_argument, {"segmented_sort", "order=7"});
  EXPECT_EQ(keys.to_host(), k);
}

INSTANTIATE_TEST_SUITE_P(All, SegmentedSort, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
