// segmented_top_k and segmented_top_k_pairs against the top_k oracle (reference/top_k_ref.hpp)
// applied to each segment, over backend x type x layout x k x largest/smallest x
// sorted/unsorted; long segments; bad offsets and sizes, outputs poisoned to show nothing is
// written.
#include <algorithm>
#include <cstring>
#include <random>

#include "reference/top_k_ref.hpp"
#include "support/test_support.hpp"
#include "test_top_k/inputs.hpp"

namespace parprim {
namespace {

using namespace top_k_inputs;
using testing::same_bits;

class SegmentedTopK : public ::testing::TestWithParam<backend> {};

// segmented_top_k and its pairs form (values: the positions; with a workspace) on one layout
// and k, largest and smallest, sorted and in input order, against the oracle on each segment.
template <class K>
void expect_segmented(const context& ctx, const std::vector<K>& x, const buffer<K>& in,
                      const buffer<std::int32_t>& vin, const std::vector<std::int64_t>& offsets,
                      std::int64_t k) {
  const std::int64_t segments = std::int64_t(offsets.size()) - 1;
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  workspace ws(ctx);  // the pairs form's: every temporary of a call stacked in it
  for (bool largest : {true, false}) {
    for (bool sorted : {true, false}) {
      const sort_order order = largest ? sort_order::descending : sort_order::ascending;
      std::vector<K> want(static_cast<std::size_t>(segments * k), K(99));
      std::vector<std::int32_t> want_ids(want.size(), -1);
      for (std::int64_t s = 0; s < segments; ++s) {
        std::vector<K> seg(x.begin() + offsets[s], x.begin() + offsets[s + 1]);
        const auto ranked = reference::ranked_positions(seg, largest);
        const std::int64_t m = std::min<std::int64_t>(k, std::int64_t(seg.size()));
        const auto pos = m ? reference::top_k_positions(ranked, m, sorted) : std::vector<std::int64_t>{};
        for (std::int64_t j = 0; j < m; ++j) {
          want[s * k + j] = seg[pos[j]];
          want_ids[s * k + j] = std::int32_t(offsets[s] + pos[j]);
        }
      }
      const std::string where = std::string(type_name<K>()) + " n=" + std::to_string(x.size()) +
                                " segments=" + std::to_string(segments) + " k=" + std::to_string(k) +
                                (largest ? " largest" : " smallest") + (sorted ? " sorted" : " unsorted");
      auto out = buffer<K>::from_host(ctx, std::vector<K>(want.size(), K(99)));
      segmented_top_k<K>(ctx, in, off, k, out, order, sorted);
      EXPECT_TRUE(same_bits(out.to_host(), want)) << where;
      auto kout = buffer<K>::from_host(ctx, std::vector<K>(want.size(), K(99)));
      auto vout = buffer<std::int32_t>::from_host(ctx, std::vector<std::int32_t>(want.size(), -1));
      segmented_top_k_pairs<K, std::int32_t>(ctx, in, vin, off, k, kout, vout, order, sorted, &ws);
      EXPECT_TRUE(same_bits(kout.to_host(), want)) << where << " pairs keys";
      EXPECT_EQ(vout.to_host(), want_ids) << where << " pairs values";
    }
  }
}

// Segmented top-k against the same oracle applied to each segment: empty segments, segments
// shorter than k (all their elements, slots after them untouched), one segment, k = 1, 7, 32
// and k = n, offsets not starting at 0; keys and pairs, sorted and in input order. Segments
// of up to 300 elements, of up to 2000, and one long segment among short ones (a mean over
// 256: on CUDA, for k <= 32, the chunked select; the others take the segmented sort).
template <class K>
void check_segmented(const context& ctx, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  for (std::int64_t n : {0, 1, 33, 4097, 20'001}) {
    if (n > testing::max_test_size()) continue;
    auto x = make_keys<K>(n, seed ^ std::uint64_t(n));
    auto in = buffer<K>::from_host(ctx, x);
    auto vin = input_positions(ctx, n);
    std::vector<std::vector<std::int64_t>> layouts{{0, n}, {0}};
    std::vector<std::int64_t> mixed{std::min<std::int64_t>(n, 2)};
    while (mixed.back() < n) mixed.push_back(std::min(n, mixed.back() + std::int64_t(g() % 300)));
    mixed.push_back(n);  // an empty segment at the end
    layouts.push_back(mixed);
    std::vector<std::int64_t> longer{std::min<std::int64_t>(n, 1)};
    while (longer.back() < n) longer.push_back(std::min(n, longer.back() + std::int64_t(g() % 2000)));
    layouts.push_back(longer);
    // One long segment among short ones (a mean over 256 from n = 4097): on CUDA it crosses
    // many chunks of the select, whose lists a second pass merges.
    std::vector<std::int64_t> skewed{0};
    for (int j = 0; j < 8; ++j) skewed.push_back(std::min(n, skewed.back() + std::int64_t(g() % 5)));
    skewed.push_back(std::max(skewed.back(), n - 40));
    for (int j = 0; j < 2; ++j) skewed.push_back(std::min(n, skewed.back() + std::int64_t(g() % 20)));
    skewed.push_back(n);
    layouts.push_back(skewed);
    // Segments that begin and end on multiples of 4096, the CUDA selects' smallest chunks (2048
    // for the warp lists, 4096 for the tiles): one of exactly a chunk, longer ones that begin
    // where a chunk does (a mean of 6667: on CUDA, for k >= 4, the tiles' select).
    if (n > 12288) layouts.push_back({0, 4096, 12288, n});
    // Segments of 6000 (the last shorter; a mean of 5000): on CUDA, for k >= 4, the tiles' select.
    if (n > 6000) {
      std::vector<std::int64_t> tiled;
      for (std::int64_t p = 0; p < n; p += 6000) tiled.push_back(p);
      tiled.push_back(n);
      layouts.push_back(tiled);
    }
    for (const auto& offsets : layouts)
      // k = n up to 4097 (larger k only makes the oracle's vectors larger).
      for (std::int64_t k :
           {std::int64_t(1), std::int64_t(7), std::int64_t(32), std::clamp<std::int64_t>(n, 1, 4097)})
        expect_segmented(ctx, x, in, vin, offsets, k);
  }
}

// One test per key type: compute-sanitizer then runs them side by side. Under racecheck on
// the H100, one test per key width (three types each) ran past 420 s for both widths.
#define PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(K, name)                  \
  TEST_P(SegmentedTopK, MatchesPerSegmentOracle_##name) {           \
    PARPRIM_SKIP_IF_NO_BACKEND(GetParam());                         \
    with_seeded_context(GetParam(), check_segmented<K>);            \
  }
PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(std::int32_t, i32)
PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(std::uint32_t, u32)
PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(float, f32)
PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(std::int64_t, i64)
PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(std::uint64_t, u64)
PARPRIM_SEGMENTED_TOP_K_TYPE_TEST(double, f64)
#undef PARPRIM_SEGMENTED_TOP_K_TYPE_TEST

// Long segments, alone, with short ones and with a shorter long one: on the CPU a segment of
// at least twice max(2^16, 16 k) elements is cut into one part per thread and the parts'
// selections merged (two threads or more: the default context); on CUDA a segment crosses
// many chunks. k = 5000 makes the CPU's minimum part longer than 2^16.
template <class K>
void check_long_segments(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = (std::int64_t(1) << 18) + (std::int64_t(1) << 16) + 3;
  if (n > testing::max_test_size()) return;
  auto x = make_keys<K>(n, seed);
  auto in = buffer<K>::from_host(ctx, x);
  auto vin = input_positions(ctx, n);
  const std::vector<std::vector<std::int64_t>> layouts{
      {0, n}, {0, 3, 3, 70, n - 200, n - 7, n}, {5, 150'001, n}};
  for (const auto& offsets : layouts)
    for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(5000)})
      expect_segmented(ctx, x, in, vin, offsets, k);
}

TEST_P(SegmentedTopK, LongSegments) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  with_seeded_context(GetParam(), [](const context& ctx, std::uint64_t seed) {
    check_long_segments<float>(ctx, seed);
    check_long_segments<std::uint64_t>(ctx, seed + 1);
  });
}

// Segments of 2^22 elements or more on average with k > 32: on CUDA each segment by top_k's
// radix select, its k then sorted (sorted output); a segment no longer than k is copied whole.
// The long segment begins at 2, not 0. One key type (f32: NaNs, -0.0 and many ties) and one k,
// as the oracle sorts 8.4 million keys four times.
TEST_P(SegmentedTopK, FewLongSegmentsEachSelected) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  with_seeded_context(GetParam(), [](const context& ctx, std::uint64_t seed) {
    const std::int64_t n = (std::int64_t(1) << 23) + 7;
    if (n > testing::max_test_size()) return;
    auto x = make_keys<float>(n, seed);
    auto in = buffer<float>::from_host(ctx, x);
    auto vin = input_positions(ctx, n);
    expect_segmented(ctx, x, in, vin, {2, n - 5, n}, 4099);
  });
}

// Keys in ascending and in descending order, in runs of three equal keys: with the largest
// asked, every ascending key beats the k best seen before it (every descending one with the
// smallest), the worst case of a select that keeps a running list. On the CPU the heap
// (k <= 8) and the buffer and its cuts (larger k); on CUDA, for k <= 32, batches whose
// elements all enter a warp's list by one merge, with equal keys in one batch. One segment,
// segments of 1000 (each inside a chunk of the CUDA select) and of 3000 (crossing chunks).
template <class K>
void check_ordered_keys(const context& ctx) {
  const std::int64_t n = 150'001;
  if (n > testing::max_test_size()) return;
  auto vin = input_positions(ctx, n);
  std::vector<std::vector<std::int64_t>> layouts{{0, n}};
  for (std::int64_t length : {1000, 3000}) {
    std::vector<std::int64_t> offsets;
    for (std::int64_t p = 0; p < n; p += length) offsets.push_back(p);
    offsets.push_back(n);
    layouts.push_back(offsets);
  }
  for (bool ascending : {true, false}) {
    std::vector<K> x(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t rank = (ascending ? i : n - 1 - i) / 3;
      x[i] = std::is_signed_v<K> ? K(rank - n / 6) : K(rank);
    }
    auto in = buffer<K>::from_host(ctx, x);
    SCOPED_TRACE(ascending ? "ascending keys" : "descending keys");
    for (const auto& offsets : layouts)
      for (std::int64_t k : {std::int64_t(1), std::int64_t(9), std::int64_t(32), std::int64_t(100)})
        expect_segmented(ctx, x, in, vin, offsets, k);
  }
}

TEST_P(SegmentedTopK, OrderedKeys) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  check_ordered_keys<float>(ctx);
  check_ordered_keys<std::uint64_t>(ctx);
}

// Keys of one value and of three: on CUDA more ties at the k-th than the select's buffer of 64
// candidates holds, taken by position within a tile, across the tiles of a segment and across
// the chunks whose lists pass 2 merges. One segment (many chunks), segments of 5000 (a tile and
// a part) and of 300.
template <class K>
void check_few_distinct_keys(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = 70'001;
  if (n > testing::max_test_size()) return;
  std::mt19937_64 g(seed);
  auto vin = input_positions(ctx, n);
  std::vector<std::vector<std::int64_t>> layouts{{0, n}};
  for (std::int64_t length : {5000, 300}) {
    std::vector<std::int64_t> offsets;
    for (std::int64_t p = 0; p < n; p += length) offsets.push_back(p);
    offsets.push_back(n);
    layouts.push_back(offsets);
  }
  for (std::uint64_t distinct : {1, 3}) {
    std::vector<K> x(static_cast<std::size_t>(n));
    for (auto& v : x) v = K(g() % distinct);
    auto in = buffer<K>::from_host(ctx, x);
    SCOPED_TRACE(std::to_string(distinct) + " distinct keys");
    for (const auto& offsets : layouts)
      for (std::int64_t k : {std::int64_t(1), std::int64_t(5), std::int64_t(32)})
        expect_segmented(ctx, x, in, vin, offsets, k);
  }
}

TEST_P(SegmentedTopK, FewDistinctKeys) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  with_seeded_context(GetParam(), [](const context& ctx, std::uint64_t seed) {
    check_few_distinct_keys<float>(ctx, seed);
    check_few_distinct_keys<std::uint64_t>(ctx, seed + 1);
  });
}

TEST_P(SegmentedTopK, BadArgumentsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto in = buffer<float>::from_host(ctx, {3.0f, 1.0f, 2.0f, 5.0f});
  auto off = buffer<std::int64_t>::from_host(ctx, {0, 2, 4});
  auto bad_off = buffer<std::int64_t>::from_host(ctx, {0, 3, 2});
  auto far_off = buffer<std::int64_t>::from_host(ctx, {0, 2, 5});
  buffer<float> out(ctx, 4);
  out.fill_bytes(0x5A);
  testing::expect_error([&] { segmented_top_k<float>(ctx, in, off, 0, out); }, errc::invalid_argument,
                        {"segmented_top_k", ctx.name(), "k=0"});
  testing::expect_error([&] { segmented_top_k<float>(ctx, in, off, 1, out); }, errc::invalid_argument,
                        {"segmented_top_k", "out.size()=4", "2 segments of k=1"});
  testing::expect_error([&] { segmented_top_k<float>(ctx, in, bad_off, 2, out); }, errc::invalid_argument,
                        {"segmented_top_k", "offsets[1]"});
  testing::expect_error([&] { segmented_top_k<float>(ctx, in, far_off, 2, out); }, errc::invalid_argument,
                        {"segmented_top_k", "offsets[2]"});
  auto host = out.to_host();
  std::vector<unsigned char> poison(host.size() * sizeof(float), 0x5A);
  EXPECT_EQ(0, std::memcmp(host.data(), poison.data(), poison.size()));
}

// The pairs form refuses what segmented_top_k refuses (k < 1, out.size() != S * k, offsets
// that decrease, are negative or pass n, no offsets at all) and also keys and values, or
// keys_out and values_out, of different sizes; both outputs are left as they were.
TEST_P(SegmentedTopK, PairsBadArgumentsThrowAndWriteNothing) {
  PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
  context ctx = testing::make_context(GetParam());
  auto keys = buffer<float>::from_host(ctx, {3.0f, 1.0f, 2.0f, 5.0f});
  auto values = buffer<std::int32_t>::from_host(ctx, {0, 1, 2, 3});
  buffer<float> kout(ctx, 4);
  buffer<std::int32_t> vout(ctx, 4);
  kout.fill_bytes(0x5A);
  vout.fill_bytes(0x5A);
  auto call = [&](std::vector<std::int64_t> offsets, std::int64_t k, std::int64_t nv, std::int64_t nvo) {
    const auto o = buffer<std::int64_t>::from_host(ctx, offsets);
    segmented_top_k_pairs<float, std::int32_t>(ctx, keys, span<const std::int32_t>(values.data(), nv), o, k,
                                               kout, span<std::int32_t>(vout.data(), nvo));
  };
  const std::string name = "segmented_top_k_pairs";
  testing::expect_error([&] { call({0, 2, 4}, 0, 4, 4); }, errc::invalid_argument, {name, ctx.name(), "k=0"});
  testing::expect_error([&] { call({0, 2, 4}, 1, 4, 4); }, errc::invalid_argument,
                        {name, "keys_out.size()=4", "2 segments of k=1"});
  testing::expect_error([&] { call({0, 3, 2}, 2, 4, 4); }, errc::invalid_argument, {name, ctx.name(), "offsets[1]"});
  testing::expect_error([&] { call({0, 2, 5}, 2, 4, 4); }, errc::invalid_argument, {name, "offsets[2]"});
  testing::expect_error([&] { call({-1, 2, 4}, 2, 4, 4); }, errc::invalid_argument, {name, "offsets[0]"});
  testing::expect_error([&] { call({}, 2, 4, 4); }, errc::invalid_argument, {name, "offsets.size()=0"});
  testing::expect_error([&] { call({0, 2, 4}, 2, 3, 4); }, errc::invalid_argument,
                        {name, ctx.name(), "keys.size()=4 but values.size()=3"});
  testing::expect_error([&] { call({0, 2, 4}, 2, 4, 3); }, errc::invalid_argument,
                        {name, ctx.name(), "keys_out.size()=4 but values_out.size()=3"});
  EXPECT_TRUE(untouched(kout));
  EXPECT_TRUE(untouched(vout));
}

INSTANTIATE_TEST_SUITE_P(All, SegmentedTopK, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
