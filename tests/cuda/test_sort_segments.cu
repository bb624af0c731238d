// Onesweep's multi-segment path with small inputs. The look-back counts are 30 bits wide, so
// the tiles are cut into segments of fewer than 2^30 keys with one look-back chain each, and
// each pass must find where every digit starts in each later segment of its own input (a
// permutation of the caller's keys). The library takes that path only from 2^30 keys on; the
// backend's testing hook cuts segments of a few tiles instead, so every pass crosses many
// segment boundaries, with ragged and exact last tiles, an odd number of executed passes
// (copy back), pairs of every value width, every key kind, and argsort (the first pass that
// runs reads the caller's keys and makes the indices, in every segment).
#include <cstring>
#include <random>

#include "core/sort_keys.hpp"
#include "cuda/sort_backend.hpp"
#include "cuda/tuning/sort_tuning.hpp"
#include "reference/sort_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

// Runs the segmented sort of `keys` (values = original index when V is not void) and
// compares keys and values with a stable sort. argsort: the sort's keys are scratch, the
// caller's stay untouched, and the values start poisoned (the sort makes the indices).
template <class K, class V>
void check_segmented(std::int64_t n, std::int64_t tiles_per_segment, std::uint64_t key_mask,
                     bool descending, std::uint64_t seed, bool argsort = false) {
  constexpr bool pairs = !std::is_void_v<V>;
  using U = detail::key_word_t<K>;
  const std::string where = std::to_string(sizeof(K)) + "-byte keys, n=" + std::to_string(n) +
                            ", tiles_per_segment=" + std::to_string(tiles_per_segment) +
                            (descending ? ", descending" : "") + (pairs ? ", pairs" : "") +
                            (argsort ? ", argsort" : "");
  std::mt19937_64 g(seed);
  std::vector<K> keys(static_cast<std::size_t>(n));
  for (auto& k : keys) {
    const U bits = U(g() & key_mask);
    std::memcpy(&k, &bits, sizeof k);
  }
  const int key_bits = int(sizeof(K) * 8);
  const auto perm = reference::stable_sort_permutation(keys, descending, 0, key_bits);

  context ctx = context::cuda(0);
  auto kb = buffer<K>::from_host(ctx, keys);
  detail::sort_request r;
  r.keys = kb.data();
  r.n = n;
  r.key_bytes = int(sizeof(K));
  r.kind = detail::kind_of<K>();
  r.descending = descending;
  r.begin_bit = 0;
  r.end_bit = key_bits;
  using value_t = std::conditional_t<pairs, V, std::uint32_t>;
  buffer<value_t> vb;
  if constexpr (pairs) {
    std::vector<V> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = argsort ? V(0xA5A5A5A5u) : V(i);
    vb = buffer<V>::from_host(ctx, values);
    r.values = vb.data();
    r.value_bytes = int(sizeof(V));
  }
  buffer<K> scratch(ctx, argsort ? n : 0);
  if (argsort) {
    r.argsort_keys = kb.data();
    r.keys = scratch.data();
  }
  cuda_backend::radix_sort_onesweep_segmented(ctx, r, nullptr, tiles_per_segment);
  // argsort leaves no sorted keys anywhere: only its indices are checked.
  const auto got_keys = kb.to_host();
  std::int64_t bad = 0;
  for (std::int64_t j = 0; j < n && bad < 3 && !argsort; ++j) {
    const K want = keys[static_cast<std::size_t>(perm[j])];
    if (std::memcmp(&got_keys[j], &want, sizeof want) != 0) {
      ADD_FAILURE() << where << ": keys[" << j << "] differ";
      ++bad;
    }
  }
  if constexpr (pairs) {
    const auto got_values = vb.to_host();
    for (std::int64_t j = 0; j < n && bad < 6; ++j)
      if (got_values[j] != V(perm[j])) {
        ADD_FAILURE() << where << ": values[" << j << "] got " << got_values[j] << " want "
                      << perm[j];
        ++bad;
      }
  }
  EXPECT_EQ(bad, 0) << where;
  if (argsort) EXPECT_EQ(std::memcmp(got_keys.data(), keys.data(), keys.size() * sizeof(K)), 0)
      << where << ": the caller's keys changed";
}

using tuning = cuda_tuning::onesweep_tuning;
constexpr std::int64_t narrow_tile = tuning::pairs_tile::keys;  // the 4-byte cases are mostly pairs
constexpr std::int64_t keys_tile = tuning::keys_tile::keys;
constexpr std::int64_t wide_tile = tuning::wide_tile::keys;

TEST(CudaSortSegments, PairsOf24BitKeysLikeTheHugeTest) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  // 24 random bits: the top digit is trivial, so 3 passes run and the result is copied back.
  for (std::int64_t tps : {1, 2, 3, 7})
    for (std::int64_t n : {20 * narrow_tile + 17, 12 * narrow_tile, std::int64_t(100'003)})
      check_segmented<std::uint32_t, std::uint32_t>(n, tps, 0xFFFFFF, false, seed + tps * 7 + n);
}

TEST(CudaSortSegments, EveryKeyKindAndValueWidth) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::uint64_t all = ~std::uint64_t(0);
  for (std::int64_t tps : {1, 3}) {
    const std::int64_t n4 = 9 * narrow_tile + 1, n8 = 9 * wide_tile + 1, k4 = 9 * keys_tile + 1;
    check_segmented<std::uint32_t, void>(k4, tps, all, false, seed + 1);
    check_segmented<std::int32_t, std::uint64_t>(n8, tps, all, true, seed + 2);
    check_segmented<float, std::uint32_t>(n4, tps, all, false, seed + 3);
    check_segmented<std::uint64_t, void>(n8, tps, all, false, seed + 4);
    check_segmented<double, std::uint64_t>(n8, tps, all, true, seed + 5);
    check_segmented<std::int64_t, std::uint32_t>(n8, tps, 0xFFFF, false, seed + 6);  // 6 passes skipped
    // 1- and 2-byte keys: one pass (copied back) and two passes (keys-only 2-byte keys over
    // all 16 bits take the counting sort instead: radix_sort_counting.cuh).
    check_segmented<std::int8_t, std::uint32_t>(n4, tps, all, true, seed + 7);
    check_segmented<f16, std::uint64_t>(n8, tps, all, false, seed + 8);
    check_segmented<std::uint16_t, void>(k4, tps, all, true, seed + 9);
  }
}

TEST(CudaSortSegments, ArgsortMakesTheIndicesInTheFirstPassThatRuns) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t tps : {1, 3}) {
    const std::int64_t n4 = 9 * narrow_tile + 1, n8 = 9 * wide_tile + 1;
    check_segmented<std::uint32_t, std::uint32_t>(n4, tps, ~0ull, false, seed + 1, true);
    check_segmented<std::uint32_t, std::uint64_t>(n8, tps, 0xFFFFFF, true, seed + 2, true);  // top pass skipped
    check_segmented<double, std::uint64_t>(n8, tps, ~0ull, false, seed + 3, true);
    check_segmented<std::int64_t, std::uint32_t>(n8, tps, 0xFFFF00, false, seed + 4, true);  // first pass skipped
    check_segmented<std::uint16_t, std::uint64_t>(n8, tps, 0, false, seed + 5, true);  // no pass runs
  }
}

}  // namespace
}  // namespace parprim
