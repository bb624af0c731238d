// radix_sort and radix_sort_pairs against std::stable_sort with the documented key order,
// over backend x algorithm x key type (1-, 2-, 4- and 8-byte, f16 included) x value width x
// order x bit range x size (every tile edge), on uniform bits, few distinct keys, all-equal keys, special floats (NaN of both
// signs, +-0.0, +-inf, denormals), sorted and reversed input. Values are the original
// indices, so comparing them checks stability exactly (a stable sort's permutation is unique).
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <tuple>

#include "core/sort_keys.hpp"
#include "cuda/tuning/sort_tuning.hpp"
#include "parprim/sort.hpp"
#include "reference/sort_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {

// Found by argument-dependent lookup from GoogleTest's messages: in namespace parprim.
std::ostream& operator<<(std::ostream& os, f16 h) { return os << "f16 0x" << std::hex << h.bits << std::dec; }

namespace {

using detail::key_type_name;
using testing::fresh_seed;

// Prints 1-byte integers as numbers, not characters.
template <class T>
auto printable(T x) {
  if constexpr (sizeof(T) == 1) return int(x);
  else return x;
}

// PARPRIM_TEST_MAX_N caps every size (compute-sanitizer runs); the tile edges stay below it.
std::int64_t capped(std::int64_t n) { return std::min(n, testing::max_test_size()); }

// narrow: only the low 20 bits vary, so Onesweep skips the constant high digits and an odd
// number of executed passes leaves the result in the temporary copy (the copy-back path).
// skewed: the bit patterns of uniform reals in [0, 1) (4- and 8-byte keys): half the keys
// share one exponent, a quarter the next, ..., so the CPU's large-input split meets buckets
// too large for a cache, which are split again on the bits below.
enum class dist { uniform, few_distinct, all_equal, special, sorted, reversed, narrow, mostly_one, skewed };

const char* name_of(dist d) {
  switch (d) {
    case dist::uniform: return "uniform";
    case dist::few_distinct: return "few_distinct";
    case dist::all_equal: return "all_equal";
    case dist::special: return "special";
    case dist::sorted: return "sorted";
    case dist::reversed: return "reversed";
    case dist::narrow: return "narrow";
    case dist::mostly_one: return "mostly_one";
    case dist::skewed: return "skewed";
  }
  return "?";
}

template <class K>
K from_bits(std::uint64_t r) {
  K k;
  std::memcpy(&k, &r, sizeof(K));  // little endian: the low bytes of r
  return k;
}

// Values that stress the key transform: both zeros, infinities, NaNs of both signs with
// several payloads, denormals, extremes; for integers the extremes and neighbours of 0.
template <class K>
std::vector<K> special_values() {
  if constexpr (std::is_same_v<K, f16>) {
    // zeros, infinities, NaNs of both signs, subnormals, +-1, the largest finite
    std::vector<std::uint16_t> b = {0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7C01,
                                    0xFC01, 0x7FFF, 0xFFFF, 0x0001, 0x8001, 0x03FF, 0x83FF,
                                    0x3C00, 0xBC00, 0x7BFF, 0xFBFF};
    std::vector<K> v;
    for (auto x : b) v.push_back(K{x});
    return v;
  } else if constexpr (std::is_same_v<K, float>) {
    std::vector<std::uint32_t> b = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000,
                                    0xFFC00000, 0x7F800001, 0xFF800001, 0x7FFFFFFF, 0xFFFFFFFF,
                                    0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x3F800000,
                                    0xBF800000, 0x7F7FFFFF, 0xFF7FFFFF};
    std::vector<K> v;
    for (auto x : b) v.push_back(from_bits<K>(x));
    return v;
  } else if constexpr (std::is_same_v<K, double>) {
    std::vector<std::uint64_t> b = {
        0x0000000000000000ull, 0x8000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
        0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull, 0xFFF0000000000001ull,
        0x7FFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFFull, 0x0000000000000001ull, 0x8000000000000001ull,
        0x3FF0000000000000ull, 0xBFF0000000000000ull, 0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull};
    std::vector<K> v;
    for (auto x : b) v.push_back(from_bits<K>(x));
    return v;
  } else {
    return {K(0), K(1), K(2), K(-1), K(-2), std::numeric_limits<K>::min(),
            std::numeric_limits<K>::max(), K(std::numeric_limits<K>::max() - 1),
            K(std::numeric_limits<K>::min() + 1)};
  }
}

template <class K>
std::vector<K> make_keys(std::int64_t n, std::uint64_t seed, dist d) {
  std::mt19937_64 g(seed);
  std::vector<K> v(static_cast<std::size_t>(n));
  switch (d) {
    case dist::uniform:
    case dist::sorted:
    case dist::reversed:
      for (auto& x : v) x = from_bits<K>(g());  // every bit pattern: floats include NaNs
      break;
    case dist::few_distinct: {
      K pool[5];
      for (auto& p : pool) p = from_bits<K>(g());
      for (auto& x : v) x = pool[g() % 5];
      break;
    }
    case dist::all_equal: {
      K k = from_bits<K>(g());
      for (auto& x : v) x = k;
      break;
    }
    case dist::special: {
      auto s = special_values<K>();
      for (auto& x : v) x = s[g() % s.size()];
      break;
    }
    case dist::narrow:
      for (auto& x : v) x = from_bits<K>(g() & 0xFFFFFu);
      break;
    case dist::mostly_one: {  // 15 keys in 16 one value, the rest anything: sparse runs around a dense one
      const K k = from_bits<K>(g());
      for (auto& x : v) x = g() % 16 == 0 ? from_bits<K>(g()) : k;
      break;
    }
    case dist::skewed: {  // 4- and 8-byte keys: the bits of uniform reals in [0, 1)
      std::uniform_real_distribution<double> unit(0.0, 1.0);
      for (auto& x : v) {
        if constexpr (sizeof(K) == 4) {
          float r = float(unit(g));
          r = r < 1.0f ? r : 0.0f;  // rounding to float can reach 1
          std::uint32_t b;
          std::memcpy(&b, &r, sizeof b);
          x = from_bits<K>(b);
        } else {
          const double r = unit(g);
          std::uint64_t b;
          std::memcpy(&b, &r, sizeof b);
          x = from_bits<K>(b);
        }
      }
      break;
    }
  }
  if (d == dist::sorted || d == dist::reversed) {
    std::stable_sort(v.begin(), v.end(), [](K a, K b) { return reference::key_less(a, b); });
    if (d == dist::reversed) std::reverse(v.begin(), v.end());
  }
  return v;
}

struct sort_case {
  sort_order order = sort_order::ascending;
  int begin_bit = 0;
  int end_bit = -1;
  dist d = dist::uniform;
};

template <class K>
std::string describe(const sort_case& c, std::int64_t n, const char* values) {
  return std::string(key_type_name<K>()) + " keys, values " + values + ", " + to_string(c.order) +
         ", bits [" + std::to_string(c.begin_bit) + "," + std::to_string(c.end_bit) + "), " +
         name_of(c.d) + ", n=" + std::to_string(n);
}

template <class T>
std::int64_t count_mismatches(const std::vector<T>& got, const std::vector<T>& want,
                              const std::string& where, const char* what) {
  std::int64_t bad = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0 && bad++ < 3)
      ADD_FAILURE() << where << ": " << what << "[" << i << "] got " << printable(got[i])
                    << " want " << printable(want[i]);
  }
  return bad;
}

// Sorts keys (and values = original index, when V is not void) and compares with the oracle.
template <class K, class V = void>
void check_sort(const context& ctx, sort_algorithm alg, std::int64_t n, const sort_case& c,
                std::uint64_t seed, workspace* ws = nullptr) {
  const int bits = int(sizeof(K) * 8);
  const int end = c.end_bit == -1 ? bits : c.end_bit;
  constexpr bool pairs = !std::is_void_v<V>;
  const std::string where = describe<K>(c, n, pairs ? type_name<std::conditional_t<pairs, V, int>>() : "none") +
                            ", " + to_string(alg);
  auto keys = make_keys<K>(n, seed, c.d);
  auto perm = reference::stable_sort_permutation(keys, c.order == sort_order::descending,
                                                 c.begin_bit, end);
  std::vector<K> want_keys(keys.size());
  for (std::size_t j = 0; j < perm.size(); ++j) want_keys[j] = keys[static_cast<std::size_t>(perm[j])];

  auto kb = buffer<K>::from_host(ctx, keys);
  if constexpr (pairs) {
    std::vector<V> values(keys.size()), want_values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<V>(i);
    for (std::size_t j = 0; j < perm.size(); ++j) want_values[j] = static_cast<V>(perm[j]);
    auto vb = buffer<V>::from_host(ctx, values);
    radix_sort_pairs<K, V>(ctx, kb, vb, c.order, c.begin_bit, c.end_bit, alg, ws);
    EXPECT_EQ(count_mismatches(kb.to_host(), want_keys, where, "keys"), 0) << where;
    EXPECT_EQ(count_mismatches(vb.to_host(), want_values, where, "values"), 0) << where;
  } else {
    radix_sort<K>(ctx, kb, c.order, c.begin_bit, c.end_bit, alg, ws);
    EXPECT_EQ(count_mismatches(kb.to_host(), want_keys, where, "keys"), 0) << where;
  }
}

// The GPU Onesweep tiles of the tuning in force (2- and 4-byte keys, 1-byte keys, 4-byte
// pairs, 8-byte words), whatever the shape.
std::vector<std::int64_t> onesweep_tile_edges() {
  using t = cuda_tuning::onesweep_tuning;
  std::vector<std::int64_t> v;
  for (std::int64_t tile :
       {t::keys_tile::keys, t::byte_keys_tile::keys, t::pairs_tile::keys, t::wide_tile::keys})
    for (std::int64_t n : {tile - 1, tile, tile + 1, 2 * tile + 1}) v.push_back(n);
  return v;
}

// Sizes around the tiles: Onesweep's tiles (onesweep_tile_edges) and 4096-key histogram
// rounds, warps, powers of two +-1, and a few million.
std::vector<std::int64_t> sort_sizes(sort_algorithm alg) {
  std::vector<std::int64_t> v = {0,    1,    2,    31,   32,    33,    255,   256,   257,     3839,
                                 3840, 3841, 4095, 4096, 4097,  7679,  7680,  7681,  65535,   65537,
                                 (1 << 18) + 3};
  if (alg == sort_algorithm::split_1bit)  // one pass per bit: keep it small
    v = {0, 1, 2, 31, 33, 256, 257, 3841, 4097, 65537};
  else
    for (std::int64_t n : onesweep_tile_edges())
      if (std::find(v.begin(), v.end(), n) == v.end()) v.push_back(n);
  v.erase(std::remove_if(v.begin(), v.end(), [](std::int64_t n) { return n > testing::max_test_size(); }),
          v.end());
  return v;
}

using param = std::tuple<backend, sort_algorithm>;
class RadixSort : public ::testing::TestWithParam<param> {
 protected:
  void SetUp() override {
    PARPRIM_SKIP_IF_NO_BACKEND(std::get<0>(GetParam()));
    seed_ = fresh_seed();
  }
  context ctx() const { return testing::make_context(std::get<0>(GetParam())); }
  sort_algorithm alg() const { return std::get<1>(GetParam()); }
  std::uint64_t seed_ = 0;
};

template <class K>
void keys_every_size(const context& ctx, sort_algorithm alg, std::uint64_t seed) {
  for (std::int64_t n : sort_sizes(alg))
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      check_sort<K>(ctx, alg, n, {o, 0, -1, dist::uniform}, seed ^ std::uint64_t(n * 31 + int(o)));
}

// One test per key type, so sanitizer runs can take them side by side.
TEST_P(RadixSort, KeysI32EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<std::int32_t>(ctx(), alg(), seed_);
}
TEST_P(RadixSort, KeysU32EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<std::uint32_t>(ctx(), alg(), seed_);
}
TEST_P(RadixSort, KeysI64EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<std::int64_t>(ctx(), alg(), seed_);
}
TEST_P(RadixSort, KeysU64EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<std::uint64_t>(ctx(), alg(), seed_);
}
TEST_P(RadixSort, KeysF32EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<float>(ctx(), alg(), seed_);
}
TEST_P(RadixSort, KeysF64EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<double>(ctx(), alg(), seed_);
}
// 1- and 2-byte keys: one and two 8-bit digit passes.
TEST_P(RadixSort, KeysI8U8EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<std::int8_t>(ctx(), alg(), seed_);
  keys_every_size<std::uint8_t>(ctx(), alg(), seed_);
  // A part of the bits: keys-only 1-byte sorts then run a pass (all 8 bits take the fill).
  for (std::int64_t n : {std::int64_t(8833), capped(100'003)})
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      check_sort<std::uint8_t>(ctx(), alg(), n, {o, 1, 7, dist::uniform}, seed_ + std::uint64_t(n) + int(o));
}
TEST_P(RadixSort, KeysI16U16F16EverySizeAndOrder) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  keys_every_size<std::int16_t>(ctx(), alg(), seed_);
  keys_every_size<std::uint16_t>(ctx(), alg(), seed_);
  keys_every_size<f16>(ctx(), alg(), seed_);
}

// Keys-only sorts of 2-byte keys over all 16 bits are counting sorts on the GPU (a histogram
// of the 65536 images, their starts, a fill): every distribution, a few million keys (many
// histogram block pairs and fill blocks), and keys that start off a 16-byte boundary (the
// scalar load and store paths; the untouched key before them must stay as it was).
template <class K>
void keys_every_distribution(const context& ctx, sort_algorithm alg, std::uint64_t seed) {
  const std::int64_t n = capped(alg == sort_algorithm::split_1bit ? 20'011 : 100'003);
  for (dist d : {dist::uniform, dist::few_distinct, dist::all_equal, dist::special, dist::sorted,
                 dist::reversed, dist::mostly_one})
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      check_sort<K>(ctx, alg, n, {o, 0, -1, d}, seed + int(d) * 2 + int(o));
}

template <class K>
void keys_off_alignment(const context& ctx, sort_algorithm alg, std::int64_t n, std::uint64_t seed) {
  const std::string where =
      std::string(key_type_name<K>()) + " keys from element 1, n=" + std::to_string(n);
  const auto keys = make_keys<K>(n + 1, seed, dist::uniform);
  const std::vector<K> tail(keys.begin() + 1, keys.end());
  const auto perm = reference::stable_sort_permutation(tail, false, 0, int(sizeof(K) * 8));
  std::vector<K> want = keys;
  for (std::size_t j = 0; j < perm.size(); ++j) want[j + 1] = tail[static_cast<std::size_t>(perm[j])];
  auto kb = buffer<K>::from_host(ctx, keys);
  radix_sort<K>(ctx, kb.view().subspan(1, n), sort_order::ascending, 0, -1, alg);
  EXPECT_EQ(count_mismatches(kb.to_host(), want, where, "keys"), 0) << where;
}

// Skewed keys (dist::skewed) of every width, keys and pairs, both orders: on the CPU, a million
// keys put most of them in a few buckets of the first split, each split again (recursively).
TEST_P(RadixSort, SkewedKeysEveryWidth) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  const std::int64_t n = capped(alg() == sort_algorithm::split_1bit ? 20'011 : (1 << 20) + 3);
  for (sort_order o : {sort_order::ascending, sort_order::descending}) {
    const sort_case sc{o, 0, -1, dist::skewed};
    check_sort<std::uint32_t>(c, alg(), n, sc, seed_ + 1);
    check_sort<float>(c, alg(), n, sc, seed_ + 2);
    check_sort<std::uint64_t>(c, alg(), n, sc, seed_ + 3);
    check_sort<double>(c, alg(), n, sc, seed_ + 4);
    check_sort<std::int32_t, std::uint32_t>(c, alg(), n, sc, seed_ + 5);
    check_sort<double, std::uint64_t>(c, alg(), n, sc, seed_ + 6);
  }
}

TEST_P(RadixSort, Keys2ByteEveryDistribution) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  keys_every_distribution<std::uint16_t>(c, alg(), seed_);
  keys_every_distribution<std::int16_t>(c, alg(), seed_ + 1);
  keys_every_distribution<f16>(c, alg(), seed_ + 2);
  for (std::int64_t n : {std::int64_t(7), std::int64_t(8199), capped(100'003)}) {
    keys_off_alignment<std::uint16_t>(c, alg(), n, seed_ + std::uint64_t(n));
    keys_off_alignment<f16>(c, alg(), n, seed_ + std::uint64_t(n) + 1);
  }
  // A part of the bits: keys-only 2-byte sorts then run Onesweep passes.
  for (std::int64_t n : {std::int64_t(8833), capped(100'003)})
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      check_sort<std::uint16_t>(c, alg(), n, {o, 3, 15, dist::uniform}, seed_ + std::uint64_t(n) + int(o));
  // Many histogram block pairs and fill blocks of several parts: the GPU's counting sort
  // only. mostly_one leaves fill blocks whose positions span more non-empty images than one
  // stage holds (about 3 keys per image outside the dense run), which fill part by part.
  if (alg() == sort_algorithm::onesweep && std::get<0>(GetParam()) == backend::cuda) {
    check_sort<std::uint16_t>(c, alg(), capped(3'000'017), {}, seed_ + 3);
    check_sort<f16>(c, alg(), capped(3'000'017), {sort_order::descending, 0, -1, dist::special}, seed_ + 4);
    check_sort<std::uint16_t>(c, alg(), capped(3'000'017), {sort_order::ascending, 0, -1, dist::mostly_one},
                              seed_ + 5);
    check_sort<std::int16_t>(c, alg(), capped(1'000'003), {sort_order::descending, 0, -1, dist::mostly_one},
                             seed_ + 6);
  }
}

#include "sort_pairs_and_edges_cases.hpp"

// More than 2^30 keys: the look-back chains restart per segment (CUDA only: the CPU would
// take minutes). Checked in O(n) without a sort oracle: values are original indices, so the
// result is right when the values form a permutation, every key equals the input key at its
// value, keys never decrease, and equal keys have increasing values (stability).
TEST(RadixSortHuge, PairsAcrossLookBackSegments) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const std::int64_t n = (std::int64_t(1) << 30) + 3 * 3840 + 17;
  auto devices = cuda_devices();
  if (devices.empty() || devices[0].global_memory_bytes < std::int64_t(24) << 30)
    GTEST_SKIP() << "needs 24 GB of device memory";
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::vector<std::uint32_t> keys(static_cast<std::size_t>(n)), values(static_cast<std::size_t>(n));
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t x = seed + std::uint64_t(i) * 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 31)) * 0xBF58476D1CE4E5B9ull;
    keys[i] = std::uint32_t(x >> 40);  // 24 random bits: many duplicates
    values[i] = std::uint32_t(i);
  }
  context ctx = context::cuda(0);
  auto kb = buffer<std::uint32_t>::from_host(ctx, keys);
  auto vb = buffer<std::uint32_t>::from_host(ctx, values);
  radix_sort_pairs<std::uint32_t, std::uint32_t>(ctx, kb, vb);
  auto got_k = kb.to_host();
  auto got_v = vb.to_host();
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  std::int64_t bad = 0;
  for (std::int64_t j = 0; j < n && bad < 3; ++j) {
    std::uint32_t v = got_v[j];
    bool ok = v < n && !seen[v] && got_k[j] == keys[v];
    if (ok) seen[v] = true;
    if (ok && j > 0)
      ok = got_k[j - 1] < got_k[j] || (got_k[j - 1] == got_k[j] && got_v[j - 1] < v);
    if (!ok && bad++ < 3) ADD_FAILURE() << "j=" << j << " key " << got_k[j] << " value " << v;
  }
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace parprim
