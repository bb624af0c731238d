// argsort against the stable sorting permutation of a sequential oracle
// (reference/sort_ref.hpp), on both backends: every key type with i64 indices and every index
// type with 4- and 8-byte keys, both orders, sizes around the Onesweep tiles that argsort takes
// on CUDA (4-byte pairs for 4-byte indices, the wide tile for 8-byte ones), duplicates (the
// permutation of a stable sort is unique, so ties check stability), all-equal keys (no pass
// runs: the indices come from the copy-back), a narrow key range (an odd number of passes
// run), special floats, bit ranges and a workspace. The caller's keys must come back
// untouched and the indices are poisoned first. Bad arguments throw and write nothing.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "core/sort_keys.hpp"
#include "cuda/tuning/sort_tuning.hpp"
#include "parprim/sort.hpp"
#include "reference/sort_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using detail::key_type_name;
using testing::fresh_seed;

enum class keys_like { uniform, few_distinct, all_equal, narrow, special_floats };

template <class K>
std::vector<K> make_keys(std::int64_t n, keys_like like, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::uint64_t> pool = {g(), g(), g(), g()};
  // Special floats of any width: zeros, infinities and NaNs of both signs, in the top bits.
  const std::uint64_t top = std::uint64_t(1) << (sizeof(K) * 8 - 1);
  const std::uint64_t specials[] = {0, top, top - 1, ~std::uint64_t(0), top >> 1, 1, top | 1};
  std::vector<K> v(static_cast<std::size_t>(n));
  for (auto& k : v) {
    std::uint64_t bits = g();
    if (like == keys_like::few_distinct) bits = pool[g() % pool.size()];
    if (like == keys_like::all_equal) bits = pool[0];
    if (like == keys_like::narrow) bits &= 0xFFFFF;
    if (like == keys_like::special_floats) bits = specials[g() % 7];
    std::memcpy(&k, &bits, sizeof k);  // little endian: the low bytes
  }
  return v;
}

struct argsort_case {
  keys_like like = keys_like::uniform;
  sort_order order = sort_order::ascending;
  int begin_bit = 0;
  int end_bit = -1;
};

template <class K, class I>
void check_argsort(const context& ctx, std::int64_t n, const argsort_case& c, std::uint64_t seed,
                   workspace* ws = nullptr) {
  const std::string where = std::string(key_type_name<K>()) + " keys, " + type_name<I>() +
                            " indices, n=" + std::to_string(n) + ", " + to_string(c.order) +
                            ", bits [" + std::to_string(c.begin_bit) + "," +
                            std::to_string(c.end_bit) + "), like " + std::to_string(int(c.like));
  const auto keys = make_keys<K>(n, c.like, seed);
  const int end = c.end_bit == -1 ? int(sizeof(K) * 8) : c.end_bit;
  const auto perm =
      reference::stable_sort_permutation(keys, c.order == sort_order::descending, c.begin_bit, end);
  auto kb = buffer<K>::from_host(ctx, keys);
  buffer<I> ib(ctx, n);
  if (n > 0) ctx.fill_bytes(ib.data(), 0xA5, ib.bytes());
  argsort<K, I>(ctx, span<const K>(kb.data(), n), ib.view(), c.order, c.begin_bit, c.end_bit, ws);
  const auto got = ib.to_host();
  std::int64_t bad = 0;
  for (std::int64_t j = 0; j < n; ++j)
    if (std::int64_t(got[std::size_t(j)]) != perm[std::size_t(j)] && bad++ < 3)
      ADD_FAILURE() << where << ": indices[" << j << "] got " << got[std::size_t(j)] << " want "
                    << perm[std::size_t(j)];
  EXPECT_EQ(bad, 0) << where;
  const auto after = kb.to_host();
  EXPECT_TRUE(n == 0 || std::memcmp(after.data(), keys.data(), keys.size() * sizeof(K)) == 0)
      << where << ": the caller's keys changed";
}

// Around the tiles argsort takes on CUDA, and below one tile; capped for sanitizer runs.
std::vector<std::int64_t> argsort_sizes() {
  using t = cuda_tuning::onesweep_tuning;
  std::vector<std::int64_t> v = {0, 1, 2, 3, 33, 4097};
  for (std::int64_t tile : {t::pairs_tile::keys, t::wide_tile::keys})
    for (std::int64_t n : {tile - 1, tile, tile + 1, 3 * tile + 7}) v.push_back(n);
  std::vector<std::int64_t> capped;
  for (std::int64_t n : v)
    if (n <= testing::max_test_size()) capped.push_back(n);
  return capped;
}

class Argsort : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override {
    PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
    seed_ = fresh_seed();
  }
  context ctx() const { return testing::make_context(GetParam()); }
  std::uint64_t seed_ = 0;
};

template <class K, class I>
void every_size_and_order(const context& ctx, std::uint64_t seed) {
  for (std::int64_t n : argsort_sizes())
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      check_argsort<K, I>(ctx, n, {keys_like::uniform, o}, seed ^ std::uint64_t(n * 131 + int(o)));
}

TEST_P(Argsort, EveryKeyTypeWithI64Indices) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  const context c = ctx();
  every_size_and_order<std::int8_t, std::int64_t>(c, seed_ + 1);
  every_size_and_order<std::uint8_t, std::int64_t>(c, seed_ + 2);
  every_size_and_order<std::int16_t, std::int64_t>(c, seed_ + 3);
  every_size_and_order<std::uint16_t, std::int64_t>(c, seed_ + 4);
  every_size_and_order<f16, std::int64_t>(c, seed_ + 5);
  every_size_and_order<std::int32_t, std::int64_t>(c, seed_ + 6);
  every_size_and_order<std::uint32_t, std::int64_t>(c, seed_ + 7);
  every_size_and_order<float, std::int64_t>(c, seed_ + 8);
  every_size_and_order<std::int64_t, std::int64_t>(c, seed_ + 9);
  every_size_and_order<std::uint64_t, std::int64_t>(c, seed_ + 10);
  every_size_and_order<double, std::int64_t>(c, seed_ + 11);
}

TEST_P(Argsort, EveryIndexType) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  const context c = ctx();
  every_size_and_order<std::uint32_t, std::int32_t>(c, seed_ + 1);
  every_size_and_order<float, std::uint32_t>(c, seed_ + 2);
  every_size_and_order<double, std::uint64_t>(c, seed_ + 3);
  every_size_and_order<std::int64_t, std::int32_t>(c, seed_ + 4);
}

TEST_P(Argsort, TiesSkippedPassesSpecialFloatsAndBitRanges) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  const context c = ctx();
  const std::int64_t n = std::min<std::int64_t>(
      3 * cuda_tuning::onesweep_tuning::wide_tile::keys + 5, testing::max_test_size());
  for (keys_like like : {keys_like::few_distinct, keys_like::all_equal, keys_like::narrow,
                         keys_like::special_floats})
    for (sort_order o : {sort_order::ascending, sort_order::descending}) {
      const std::uint64_t s = seed_ ^ std::uint64_t(int(like) * 17 + int(o));
      check_argsort<std::uint32_t, std::int64_t>(c, n, {like, o}, s);
      check_argsort<float, std::int32_t>(c, n, {like, o}, s + 1);
      check_argsort<double, std::int64_t>(c, n, {like, o}, s + 2);
      check_argsort<f16, std::uint32_t>(c, n, {like, o}, s + 3);
    }
  for (auto [begin, end] : {std::pair{0, 8}, {4, 20}, {24, 32}, {31, 32}}) {
    check_argsort<std::uint32_t, std::int64_t>(
        c, n, {keys_like::uniform, sort_order::ascending, begin, end},
        seed_ + std::uint64_t(begin));
    check_argsort<std::int64_t, std::uint32_t>(
        c, n, {keys_like::uniform, sort_order::descending, begin, end}, seed_ + std::uint64_t(end));
  }
}

TEST_P(Argsort, WithWorkspaceTwice) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  const context c = ctx();
  workspace ws(c);
  for (std::int64_t n : {std::int64_t(4097), std::int64_t(20000)})
    if (n <= testing::max_test_size()) {
      check_argsort<std::uint32_t, std::int64_t>(c, n, {}, seed_ + std::uint64_t(n), &ws);
      check_argsort<double, std::int32_t>(c, n, {}, seed_ + std::uint64_t(n) + 1, &ws);
    }
}

INSTANTIATE_TEST_SUITE_P(All, Argsort, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(ArgsortErrors, BadArgumentsThrowAndWriteNothing) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    const std::vector<std::uint32_t> k0 = {5, 3, 9, 1, 7};
    auto keys = buffer<std::uint32_t>::from_host(ctx, k0);
    auto indices = buffer<std::int64_t>::from_host(ctx, {-1, -1, -1, -1, -1});
    const span<const std::uint32_t> ks(keys.data(), 5);
    span<std::int64_t> is = indices.view();
    auto expect_error = [&](auto&& call, const std::string& fragment) {
      testing::expect_error(call, errc::invalid_argument,
                            {"argsort", "[" + ctx.name() + "]", fragment});
      EXPECT_EQ(keys.to_host(), k0) << "keys written despite " << fragment;
      EXPECT_EQ(indices.to_host(), std::vector<std::int64_t>(5, -1))
          << "indices written despite " << fragment;
    };
    expect_error([&] { argsort<std::uint32_t, std::int64_t>(ctx, ks, is.subspan(0, 4)); },
                 "keys.size()=5 but indices.size()=4");
    expect_error(
        [&] { argsort<std::uint32_t, std::int64_t>(ctx, ks, is, sort_order::ascending, 0, 33); },
        "end_bit=33");
    expect_error(
        [&] { argsort<std::uint32_t, std::int64_t>(ctx, ks, is, sort_order::ascending, 9, 9); },
        "begin_bit=9 is not below end_bit=9");
    expect_error(
        [&] { argsort<std::uint32_t, std::int64_t>(ctx, ks, is, static_cast<sort_order>(5)); },
        "order=5");
    expect_error(
        [&] { argsort<std::uint32_t, std::int64_t>(ctx, ks, span<std::int64_t>(nullptr, 5)); },
        "indices.data() is null");
    // Indices in the keys' own memory.
    expect_error(
        [&] {
          argsort<std::uint32_t, std::uint32_t>(ctx, ks, span<std::uint32_t>(keys.data(), 5));
        },
        "overlap");
  }
  // More keys than i32 indices can number: refused before any memory is touched (the spans
  // are never read, so they need not be backed).
  context cpu = context::cpu();
  const auto far = [](std::uintptr_t at) { return at; };
  const std::int64_t n = (std::int64_t(1) << 31) + 1;
  auto* keys_at = reinterpret_cast<const std::uint8_t*>(far(std::uintptr_t(1) << 44));
  auto* indices_at = reinterpret_cast<std::int32_t*>(far(std::uintptr_t(1) << 40));
  testing::expect_error(
      [&] {
        argsort<std::uint8_t, std::int32_t>(cpu, span<const std::uint8_t>(keys_at, n),
                                            span<std::int32_t>(indices_at, n));
      },
      errc::invalid_argument, {"argsort", "keys.size()=2147483649", "i32"});
}

}  // namespace
}  // namespace parprim
