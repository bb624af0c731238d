// Checks of the generic primitives against sequential left folds, shared by the two public-API
// test files: test_public_api.cpp (any C++ compiler) and test_public_api.cu (nvcc). Only
// public headers are included, and the test targets have no src/ include path, so a public
// header that needs a private one fails to build.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parprim/parprim.hpp"
#include "support/test_support.hpp"

namespace parprim::generic_cases {

constexpr std::uint32_t prime = 1'000'000'007u;

PARPRIM_HD std::uint32_t mul_mod(std::uint32_t a, std::uint32_t b) {
  return std::uint32_t(std::uint64_t(a) * b % prime);
}
PARPRIM_HD std::uint32_t add_mod(std::uint32_t a, std::uint32_t b) {
  return std::uint32_t((std::uint64_t(a) + b) % prime);
}

// x -> a x + b over Z_p; compose(f, g) applies f first, then g: not commutative.
struct affine {
  std::uint32_t a, b;
};
struct affine_then {
  PARPRIM_HD affine operator()(const affine& f, const affine& g) const {
    return affine{mul_mod(g.a, f.a), add_mod(mul_mod(g.a, f.b), g.b)};
  }
};

// x -> a x + b modulo 2^16 with odd a (odd numbers stay odd under products, so the maps never
// collapse to constants), packed in 4 bytes; applied left to right, not commutative, no
// identity. Scans of 4-byte values take the CUDA pipelined kernel from 2^20 elements, so this
// is its case of an operator without an identity (flags for the missing prefixes).
struct affine16 {
  std::uint16_t a, b;
};
struct affine16_then {
  PARPRIM_HD affine16 operator()(const affine16& f, const affine16& g) const {
    return affine16{std::uint16_t(unsigned(g.a) * f.a), std::uint16_t(unsigned(g.a) * f.b + g.b)};
  }
};

// Decimal concatenation of digit strings mod p: (value, 10^length); not commutative.
struct digits {
  std::uint32_t value, scale;
};
PARPRIM_HD digits concat(const digits& a, const digits& b) {
  return digits{add_mod(mul_mod(a.value, b.scale), b.value), mul_mod(a.scale, b.scale)};
}

// 2x2 matrices over Z_p, row-major; the product is not commutative.
struct mat2 {
  std::uint32_t m[4];
};
struct mat2_product {
  PARPRIM_HD mat2 operator()(const mat2& x, const mat2& y) const {
    mat2 r;
    r.m[0] = add_mod(mul_mod(x.m[0], y.m[0]), mul_mod(x.m[1], y.m[2]));
    r.m[1] = add_mod(mul_mod(x.m[0], y.m[1]), mul_mod(x.m[1], y.m[3]));
    r.m[2] = add_mod(mul_mod(x.m[2], y.m[0]), mul_mod(x.m[3], y.m[2]));
    r.m[3] = add_mod(mul_mod(x.m[2], y.m[1]), mul_mod(x.m[3], y.m[3]));
    return r;
  }
};

// One-pass statistics: 16 bytes.
struct stats {
  float min, max, sum;
  std::uint32_t count;
};
struct stats_of {
  PARPRIM_HD stats operator()(float x) const { return stats{x, x, x, 1u}; }
};
struct stats_merge {
  PARPRIM_HD stats operator()(const stats& p, const stats& q) const {
    return stats{q.min < p.min ? q.min : p.min, p.max < q.max ? q.max : p.max, p.sum + q.sum,
                 p.count + q.count};
  }
};

// 32 bytes: eight wrapping lanes.
struct wide {
  std::uint32_t v[8];
};
struct wide_plus {
  PARPRIM_HD wide operator()(const wide& x, const wide& y) const {
    wide r;
    for (int i = 0; i < 8; ++i) r.v[i] = x.v[i] + y.v[i];
    return r;
  }
};
struct wide_first_odd {
  PARPRIM_HD bool operator()(const wide& x) const { return (x.v[0] & 1u) != 0; }
};

// Small integer operators (1- and 2-byte elements).
struct u8_plus {
  PARPRIM_HD std::uint8_t operator()(std::uint8_t a, std::uint8_t b) const { return std::uint8_t(a + b); }
};
struct i16_max {
  PARPRIM_HD std::int16_t operator()(std::int16_t a, std::int16_t b) const { return a < b ? b : a; }
};
struct u8_below {
  std::uint8_t limit;
  PARPRIM_HD bool operator()(std::uint8_t x) const { return x < limit; }
};
struct i16_negative {
  PARPRIM_HD bool operator()(std::int16_t x) const { return x < 0; }
};
struct affine_a_even {
  PARPRIM_HD bool operator()(const affine& f) const { return (f.a & 1u) == 0; }
};
struct mat2_trace_odd {
  PARPRIM_HD bool operator()(const mat2& x) const { return ((x.m[0] + x.m[3]) & 1u) != 0; }
};

// Float addition as a caller's functor (not marked commutative): associative only up to
// rounding, so the combining order shows in the bits, which must not change from run to run.
struct float_plus {
  PARPRIM_HD float operator()(float a, float b) const { return a + b; }
};

// Small integers over their whole range (std::uniform_int_distribution takes no 8-bit types).
template <class T>
std::vector<T> random_small(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<T>(g());
  return v;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Sizes around the tiles of every element size (scan tiles are 512 to 8192 elements, reduce
// warp chunks 512 bytes, copy_if tiles 32 KiB), capped by PARPRIM_TEST_MAX_N.
inline std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> all{0,    1,    2,     31,    32,    33,    511,   512,     513,
                                1023, 1025, 2047,  4096,  4097,  8191,  8192,  8193,    16383,
                                16385, 65537, 131073, 1 << 20, 3'000'017};
  std::vector<std::int64_t> out;
  for (auto n : all)
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

inline std::vector<affine> random_affine(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<affine> v(static_cast<std::size_t>(n));
  for (auto& f : v) f = affine{std::uint32_t(g() % prime), std::uint32_t(g() % prime)};
  return v;
}
inline std::vector<affine16> random_affine16(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<affine16> v(static_cast<std::size_t>(n));
  for (auto& f : v) f = affine16{std::uint16_t(g() | 1u), std::uint16_t(g())};
  return v;
}
inline std::vector<mat2> random_mat2(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<mat2> v(static_cast<std::size_t>(n));
  for (auto& x : v)
    for (auto& e : x.m) e = std::uint32_t(g() % prime);
  return v;
}
inline std::vector<wide> random_wide(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<wide> v(static_cast<std::size_t>(n));
  for (auto& x : v)
    for (auto& e : x.v) e = std::uint32_t(g());
  return v;
}

// Inclusive scans (with and without init) and exclusive ones of x with op against the
// sequential left fold.
template <class T, class Op>
void check_scans(const context& ctx, const std::vector<T>& x, T init, Op op, const std::string& what) {
  const std::int64_t n = std::int64_t(x.size());
  auto in = buffer<T>::from_host(ctx, x);
  buffer<T> out(ctx, n);
  out.fill_bytes(0xA5);
  inclusive_scan(ctx, in.view(), out.view(), op);
  auto got = out.to_host();
  T acc{};
  for (std::int64_t i = 0; i < n; ++i) {
    acc = i == 0 ? x[0] : op(acc, x[std::size_t(i)]);
    ASSERT_TRUE(same_bits(got[std::size_t(i)], acc)) << what << " inclusive n=" << n << " i=" << i;
  }
  out.fill_bytes(0xA5);
  exclusive_scan(ctx, in.view(), out.view(), init, op);
  got = out.to_host();
  acc = init;
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_TRUE(same_bits(got[std::size_t(i)], acc)) << what << " exclusive n=" << n << " i=" << i;
    acc = op(acc, x[std::size_t(i)]);
  }
  out.fill_bytes(0xA5);
  inclusive_scan(ctx, in.view(), out.view(), init, op);
  got = out.to_host();
  acc = init;
  for (std::int64_t i = 0; i < n; ++i) {
    acc = op(acc, x[std::size_t(i)]);
    ASSERT_TRUE(same_bits(got[std::size_t(i)], acc))
        << what << " inclusive from init n=" << n << " i=" << i;
  }
  // In place.
  inclusive_scan(ctx, in.view(), in.view(), op);
  auto again = in.to_host();
  acc = T{};
  for (std::int64_t i = 0; i < n; ++i) {
    acc = i == 0 ? x[0] : op(acc, x[std::size_t(i)]);
    ASSERT_TRUE(same_bits(again[std::size_t(i)], acc)) << what << " in place n=" << n << " i=" << i;
  }
}

// reduce(init, op) against init op x[0] op ... op x[n-1].
template <class T, class Op>
void check_reduce(const context& ctx, const std::vector<T>& x, T init, Op op, const std::string& what) {
  auto in = buffer<T>::from_host(ctx, x);
  T want = init;
  for (const T& v : x) want = op(want, v);
  T got = reduce(ctx, in.view(), init, op);
  EXPECT_TRUE(same_bits(got, want)) << what << " reduce n=" << x.size();
  buffer<T> out(ctx, 1);
  out.fill_bytes(0xA5);
  reduce_into(ctx, in.view(), out.view(), init, op);
  EXPECT_TRUE(same_bits(out.to_host()[0], want)) << what << " reduce_into n=" << x.size();
}

// copy_if, partition and unstable_partition with pred against a sequential stable filter.
template <class T, class Pred>
void check_select(const context& ctx, const std::vector<T>& x, Pred pred, const std::string& what) {
  const std::int64_t n = std::int64_t(x.size());
  std::vector<T> want_sel, want_rej;
  for (const T& v : x) (pred(v) ? want_sel : want_rej).push_back(v);
  auto in = buffer<T>::from_host(ctx, x);
  buffer<T> out(ctx, n);
  out.fill_bytes(0xA5);
  const std::int64_t count = copy_if(ctx, in.view(), out.view(), pred);
  ASSERT_EQ(count, std::int64_t(want_sel.size())) << what << " copy_if n=" << n;
  auto got = out.to_host();
  for (std::size_t i = 0; i < want_sel.size(); ++i)
    ASSERT_TRUE(same_bits(got[i], want_sel[i])) << what << " copy_if n=" << n << " i=" << i;
  out.fill_bytes(0xA5);
  const std::int64_t selected = partition(ctx, in.view(), out.view(), pred);
  ASSERT_EQ(selected, std::int64_t(want_sel.size())) << what << " partition n=" << n;
  got = out.to_host();
  for (std::size_t i = 0; i < want_sel.size(); ++i)
    ASSERT_TRUE(same_bits(got[i], want_sel[i])) << what << " partition n=" << n << " i=" << i;
  for (std::size_t i = 0; i < want_rej.size(); ++i)
    ASSERT_TRUE(same_bits(got[want_sel.size() + i], want_rej[i]))
        << what << " partition rejected n=" << n << " i=" << i;
  // unstable_partition: the same selected run, the rejected one reversed.
  out.fill_bytes(0xA5);
  ASSERT_EQ(unstable_partition(ctx, in.view(), out.view(), pred), std::int64_t(want_sel.size()))
      << what << " unstable_partition n=" << n;
  got = out.to_host();
  for (std::size_t i = 0; i < want_sel.size(); ++i)
    ASSERT_TRUE(same_bits(got[i], want_sel[i])) << what << " unstable_partition n=" << n << " i=" << i;
  for (std::size_t i = 0; i < want_rej.size(); ++i)
    ASSERT_TRUE(same_bits(got[std::size_t(n) - 1 - i], want_rej[i]))
        << what << " unstable_partition rejected n=" << n << " i=" << i;
}

struct widen_u8 {
  PARPRIM_HD std::uint32_t operator()(std::uint8_t x) const { return std::uint32_t(x) * 3u; }
};
struct quarter_u16 {  // exact: k / 4 for every 16-bit k
  PARPRIM_HD float operator()(std::uint16_t k) const { return float(k) * 0.25f; }
};
struct u32_wrap_plus {
  PARPRIM_HD std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a + b; }
};

// transform scans (1-byte input, 4-byte output: the element-wise load path) and copy_if_into.
inline void check_transform_scans(const context& ctx, const std::vector<std::uint8_t>& x) {
  const std::int64_t n = std::int64_t(x.size());
  auto in = buffer<std::uint8_t>::from_host(ctx, x);
  buffer<std::uint32_t> out(ctx, n);
  transform_inclusive_scan(ctx, in.view(), out.view(), widen_u8{}, u32_wrap_plus{});
  auto got = out.to_host();
  std::uint32_t acc = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    acc += std::uint32_t(x[std::size_t(i)]) * 3u;
    ASSERT_EQ(got[std::size_t(i)], acc) << "transform_inclusive_scan n=" << n << " i=" << i;
  }
  transform_exclusive_scan(ctx, in.view(), out.view(), 11u, widen_u8{}, u32_wrap_plus{});
  got = out.to_host();
  acc = 11u;
  for (std::int64_t i = 0; i < n; ++i) {
    ASSERT_EQ(got[std::size_t(i)], acc) << "transform_exclusive_scan n=" << n << " i=" << i;
    acc += std::uint32_t(x[std::size_t(i)]) * 3u;
  }
  buffer<std::uint8_t> kept(ctx, n);
  buffer<std::int64_t> count(ctx, 1);
  copy_if_into(ctx, in.view(), kept.view(), count.view(), u8_below{50});
  std::int64_t want = 0;
  for (std::uint8_t v : x) want += v < 50 ? 1 : 0;
  EXPECT_EQ(count.to_host()[0], want) << "copy_if_into n=" << n;
}

// Every generic primitive with the functors above, on one context.
inline void run_functor_cases(const context& ctx) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : sizes()) {
    const auto f = random_affine(n, seed + 1);
    check_scans(ctx, f, affine{1, 0}, affine_then{}, "affine");
    check_reduce(ctx, f, affine{3, 5}, affine_then{}, "affine");
    check_select(ctx, f, affine_a_even{}, "affine");
    const auto m = random_mat2(n, seed + 2);
    check_scans(ctx, m, mat2{{1, 0, 0, 1}}, mat2_product{}, "mat2");
    check_reduce(ctx, m, mat2{{1, 0, 0, 1}}, mat2_product{}, "mat2");
    check_select(ctx, m, mat2_trace_odd{}, "mat2");
    const auto w = random_wide(n, seed + 3);
    check_scans(ctx, w, wide{}, wide_plus{}, "wide");
    check_reduce(ctx, w, wide{}, wide_plus{}, "wide");
    check_select(ctx, w, wide_first_odd{}, "wide");
    const auto b = random_small<std::uint8_t>(n, seed + 4);
    check_scans(ctx, b, std::uint8_t(7), u8_plus{}, "u8");
    check_reduce(ctx, b, std::uint8_t(7), u8_plus{}, "u8");
    check_select(ctx, b, u8_below{100}, "u8");
    check_transform_scans(ctx, b);
    const auto h = random_small<std::int16_t>(n, seed + 5);
    check_scans(ctx, h, std::int16_t(-32768), i16_max{}, "i16");
    check_reduce(ctx, h, std::int16_t(-32768), i16_max{}, "i16");
    check_select(ctx, h, i16_negative{}, "i16");
    const auto q = random_affine16(n, seed + 6);
    check_scans(ctx, q, affine16{3, 5}, affine16_then{}, "affine16");
  }
}

// {min, max, sum, count} of floats in one pass, and float user operators reproducible bit for
// bit from run to run.
inline void run_float_cases(const context& ctx) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : sizes()) {
    const auto x = testing::random_vector<float>(n, seed + std::uint64_t(n));
    auto in = buffer<float>::from_host(ctx, x);
    const stats init{3.0e38f, -3.0e38f, 0.0f, 0u};
    const stats s = transform_reduce(ctx, in.view(), init, stats_of{}, stats_merge{});
    stats want = init;
    double sum = 0, abs_sum = 0;
    for (float v : x) {
      want = stats_merge{}(want, stats_of{}(v));
      sum += v;
      abs_sum += std::abs(double(v));
    }
    EXPECT_EQ(s.min, want.min) << n;
    EXPECT_EQ(s.max, want.max) << n;
    EXPECT_EQ(s.count, std::uint32_t(n)) << n;
    EXPECT_NEAR(double(s.sum), sum, testing::float_tolerance<float>(n) * abs_sum + 1e-30) << n;
    const stats again = transform_reduce(ctx, in.view(), init, stats_of{}, stats_merge{});
    EXPECT_TRUE(same_bits(s, again)) << "stats not reproducible, n=" << n;

    const float r1 = reduce(ctx, in.view(), 0.0f, float_plus{});
    const float r2 = reduce(ctx, in.view(), 0.0f, float_plus{});
    EXPECT_TRUE(same_bits(r1, r2)) << "reduce not reproducible, n=" << n;
    EXPECT_NEAR(double(r1), sum, testing::float_tolerance<float>(n) * abs_sum + 1e-30) << n;
    buffer<float> o1(ctx, n), o2(ctx, n);
    inclusive_scan(ctx, in.view(), o1.view(), float_plus{});
    inclusive_scan(ctx, in.view(), o2.view(), float_plus{});
    auto h1 = o1.to_host(), h2 = o2.to_host();
    EXPECT_EQ(0, n == 0 ? 0 : std::memcmp(h1.data(), h2.data(), std::size_t(n) * sizeof(float)))
        << "scan not reproducible, n=" << n;
    double prefix = 0, prefix_abs = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      prefix += x[std::size_t(i)];
      prefix_abs += std::abs(double(x[std::size_t(i)]));
      ASSERT_NEAR(double(h1[std::size_t(i)]), prefix,
                  testing::float_tolerance<float>(i + 1) * prefix_abs + 1e-30)
          << "float scan n=" << n << " i=" << i;
    }

    // The same floats mapped on load from 2-byte integers (a transform scan: element-wise
    // loads) and loaded as floats (whole tiles in 16-byte vectors): the same tiles in the same
    // order, so the same bits. Their sums pass 2^24 and round.
    const auto q = random_small<std::uint16_t>(n, seed + 7 + std::uint64_t(n));
    std::vector<float> qf(q.size());
    for (std::size_t i = 0; i < q.size(); ++i) qf[i] = quarter_u16{}(q[i]);
    auto qin = buffer<std::uint16_t>::from_host(ctx, q);
    auto qfin = buffer<float>::from_host(ctx, qf);
    for (bool inclusive : {true, false}) {
      if (inclusive) {
        transform_inclusive_scan(ctx, qin.view(), o1.view(), quarter_u16{}, float_plus{});
        inclusive_scan(ctx, qfin.view(), o2.view(), float_plus{});
      } else {
        transform_exclusive_scan(ctx, qin.view(), o1.view(), 0.5f, quarter_u16{}, float_plus{});
        exclusive_scan(ctx, qfin.view(), o2.view(), 0.5f, float_plus{});
      }
      h1 = o1.to_host();
      h2 = o2.to_host();
      EXPECT_EQ(0, n == 0 ? 0 : std::memcmp(h1.data(), h2.data(), std::size_t(n) * sizeof(float)))
          << (inclusive ? "inclusive" : "exclusive")
          << " transform scan differs from the scan of the mapped values, n=" << n;
    }
  }
}

}  // namespace parprim::generic_cases
