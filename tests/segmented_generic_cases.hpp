// The generic segmented_reduce and segmented scans with a caller's type and operator, against
// sequential loops. Compiled by g++ (tests/test_segmented_generic.cpp: CPU backend) and by
// nvcc (tests/cuda/test_segmented_generic_cuda.cu: CUDA backend).
//   values: struct mat2, a 2 x 2 matrix over wrapping u32 (16 bytes: CUDA tiles of 256 x 5),
//           multiplied left to right: associative, not commutative, no identity passed;
//           a wrong grouping or order changes the product (checked by swapping the
//           operands in the CPU body's combine: the cases fail);
//   floats: a caller's plus functor on f32, reproducible to the bit from call to call.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parprim/parprim.hpp"
#include "support/test_support.hpp"

namespace parprim::segmented_generic_cases {

struct mat2 {
  std::uint32_t a, b, c, d;  // [[a, b], [c, d]]
};

struct mat_mul {
  PARPRIM_HD mat2 operator()(const mat2& x, const mat2& y) const {
    return mat2{x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
                x.c * y.b + x.d * y.d};
  }
};

struct float_plus {
  PARPRIM_HD float operator()(float x, float y) const { return x + y; }
};

inline bool operator==(const mat2& x, const mat2& y) {
  return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
}
inline std::ostream& operator<<(std::ostream& os, const mat2& m) {
  return os << '[' << m.a << ' ' << m.b << "; " << m.c << ' ' << m.d << ']';
}

// Sizes around the CUDA tiles for 16-byte values (256 x 5 = 1280) and the CPU blocks (2^16).
inline std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {0, 1, 2, 1279, 1280, 1281, 2561, 65535, 65537, 200'003})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

// Odd determinants (a, d odd, b even): invertible modulo 2^32, so long products never
// collapse to the zero matrix (random ones gather factors of 2 until they do, and would then
// hide a wrong order).
inline std::vector<mat2> make_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<mat2> v(static_cast<std::size_t>(n));
  for (auto& m : v)
    m = mat2{std::uint32_t(g()) | 1u, std::uint32_t(g()) & ~1u, std::uint32_t(g()), std::uint32_t(g()) | 1u};
  return v;
}

struct shape {
  std::string name;
  std::vector<std::int64_t> offsets;
};

// One segment, none, all empty, segments of 1, short ones with empty ones between (and one at
// the end), long ones crossing tiles, an inner range not starting at 0 nor reaching n.
inline std::vector<shape> shapes(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<shape> out{{"one", {0, n}}, {"none", {0}}, {"all_empty", {0, 0, 0}}};
  shape ones{"ones", {}};
  for (std::int64_t i = 0; i <= n; ++i) ones.offsets.push_back(i);
  out.push_back(ones);
  shape small{"small_with_empty", {0}};
  while (small.offsets.back() < n) small.offsets.push_back(std::min(n, small.offsets.back() + std::int64_t(g() % 20)));
  small.offsets.push_back(n);
  out.push_back(small);
  shape mixed{"long_mixed", {0}};
  while (mixed.offsets.back() < n) {
    const std::int64_t len = g() % 3 == 0 ? std::int64_t(g() % 4) : std::int64_t(g() % 5000);
    mixed.offsets.push_back(std::min(n, mixed.offsets.back() + len));
  }
  out.push_back(mixed);
  if (n >= 10) out.push_back({"inner_range", {3, 3, 5, n - 4, n - 4}});
  return out;
}

// Sequential oracles: reduce from init, scans restarting at each segment (exclusive: from
// init); elements outside the offsets keep `untouched`.
inline std::vector<mat2> reduce_oracle(const std::vector<mat2>& x, const std::vector<std::int64_t>& o,
                                       const mat2& init) {
  std::vector<mat2> out;
  for (std::size_t s = 0; s + 1 < o.size(); ++s) {
    mat2 acc = init;
    for (std::int64_t i = o[s]; i < o[s + 1]; ++i) acc = mat_mul{}(acc, x[i]);
    out.push_back(acc);
  }
  return out;
}

inline std::vector<mat2> scan_oracle(const std::vector<mat2>& x, const std::vector<bool>& heads,
                                     bool inclusive, const mat2& init, std::vector<mat2> out,
                                     std::int64_t first, std::int64_t last) {
  mat2 acc{};
  for (std::int64_t i = first; i < last; ++i) {
    if (heads[i]) acc = inclusive ? x[i] : init;
    else if (inclusive) acc = mat_mul{}(acc, x[i]);
    out[i] = acc;
    if (!inclusive) acc = mat_mul{}(acc, x[i]);
  }
  return out;
}

inline std::vector<bool> heads_of(const std::vector<std::int64_t>& o, std::int64_t n) {
  std::vector<bool> h(static_cast<std::size_t>(n));
  for (std::size_t s = 0; s + 1 < o.size(); ++s)
    if (o[s + 1] > o[s]) h[o[s]] = true;
  return h;
}

inline void check_offsets_case(const context& ctx, const std::vector<mat2>& x, const shape& sh,
                               workspace& ws) {
  const std::int64_t n = std::int64_t(x.size());
  const std::string where = "n=" + std::to_string(n) + " " + sh.name;
  const mat2 init{3, 1, 4, 1};
  const mat2 poison{77, 77, 77, 77};
  auto in = buffer<mat2>::from_host(ctx, x);
  auto off = buffer<std::int64_t>::from_host(ctx, sh.offsets);
  const std::int64_t segments = std::int64_t(sh.offsets.size()) - 1;
  buffer<mat2> red(ctx, segments);
  red.fill_bytes(0xA5);
  segmented_reduce(ctx, span<const mat2>(in), span<const std::int64_t>(off), span<mat2>(red),
                   init, mat_mul{}, &ws);
  EXPECT_EQ(red.to_host(), reduce_oracle(x, sh.offsets, init)) << where << " reduce";
  const auto heads = heads_of(sh.offsets, n);
  const std::vector<mat2> untouched(x.size(), poison);
  for (bool inclusive : {true, false}) {
    auto out = buffer<mat2>::from_host(ctx, untouched);
    if (inclusive)
      segmented_inclusive_scan(ctx, span<const mat2>(in), span<const std::int64_t>(off),
                               span<mat2>(out), mat_mul{});
    else
      segmented_exclusive_scan(ctx, span<const mat2>(in), span<const std::int64_t>(off),
                               span<mat2>(out), init, mat_mul{}, &ws);
    EXPECT_EQ(out.to_host(), scan_oracle(x, heads, inclusive, init, untouched, sh.offsets.front(),
                                         sh.offsets.back()))
        << where << (inclusive ? " inclusive" : " exclusive");
  }
}

inline void check_flags_case(const context& ctx, const std::vector<mat2>& x, std::uint64_t seed) {
  const std::int64_t n = std::int64_t(x.size());
  std::mt19937_64 g(seed);
  std::vector<std::uint8_t> flags(x.size());
  std::vector<bool> heads(x.size());
  for (std::int64_t i = 0; i < n; ++i) {
    flags[i] = g() % 16 == 0 ? std::uint8_t(1 + g() % 255) : 0;
    heads[i] = i == 0 || flags[i] != 0;
  }
  const mat2 init{2, 7, 1, 8};
  auto in = buffer<mat2>::from_host(ctx, x);
  auto f = buffer<std::uint8_t>::from_host(ctx, flags);
  for (bool inclusive : {true, false}) {
    buffer<mat2> out(ctx, n);
    if (inclusive)
      segmented_inclusive_scan_by_flags(ctx, span<const mat2>(in), span<const std::uint8_t>(f),
                                        span<mat2>(out), mat_mul{});
    else
      segmented_exclusive_scan_by_flags(ctx, span<const mat2>(in), span<const std::uint8_t>(f),
                                        span<mat2>(out), init, mat_mul{});
    EXPECT_EQ(out.to_host(), scan_oracle(x, heads, inclusive, init, x, 0, n))
        << "n=" << n << (inclusive ? " flags inclusive" : " flags exclusive");
  }
}

inline void every_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  workspace ws(ctx);
  for (std::int64_t n : sizes()) {
    const auto x = make_values(n, seed ^ std::uint64_t(n));
    for (const shape& sh : shapes(n, seed + std::uint64_t(n))) check_offsets_case(ctx, x, sh, ws);
    check_flags_case(ctx, x, seed * 3 + std::uint64_t(n));
  }
}

// In place: a scan whose out is its in gives what the out-of-place call gives.
inline void in_place(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = std::min<std::int64_t>(70'001, testing::max_test_size());
  const auto x = make_values(n, seed);
  const std::vector<std::int64_t> offsets{0, n / 3, n / 3, n};
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  auto a = buffer<mat2>::from_host(ctx, x);
  buffer<mat2> b(ctx, n);
  segmented_exclusive_scan(ctx, span<const mat2>(a), span<const std::int64_t>(off), span<mat2>(b),
                           mat2{1, 0, 0, 1}, mat_mul{});
  segmented_exclusive_scan(ctx, span<const mat2>(a), span<const std::int64_t>(off), span<mat2>(a),
                           mat2{1, 0, 0, 1}, mat_mul{});
  EXPECT_EQ(a.to_host(), b.to_host());
}

// Float sums with a caller's functor on the given segments: the same bits from two calls,
// each close to the exact sum.
inline void floats_reproducible_on(const context& ctx, const std::vector<float>& x,
                                   const std::vector<std::int64_t>& offsets) {
  const std::int64_t n = std::int64_t(x.size());
  auto in = buffer<float>::from_host(ctx, x);
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  const std::int64_t segments = std::int64_t(offsets.size()) - 1;
  buffer<float> a(ctx, segments), b(ctx, segments), sa(ctx, n), sb(ctx, n);
  for (auto* pair : {&a, &b})
    segmented_reduce(ctx, span<const float>(in), span<const std::int64_t>(off), span<float>(*pair),
                     0.25f, float_plus{});
  for (auto* out : {&sa, &sb})
    segmented_inclusive_scan(ctx, span<const float>(in), span<const std::int64_t>(off),
                             span<float>(*out), float_plus{});
  const auto ha = a.to_host(), hb = b.to_host(), hsa = sa.to_host(), hsb = sb.to_host();
  ASSERT_EQ(0, std::memcmp(ha.data(), hb.data(), ha.size() * sizeof(float)));
  ASSERT_EQ(0, std::memcmp(hsa.data(), hsb.data(), hsa.size() * sizeof(float)));
  for (std::int64_t s = 0; s < segments; ++s) {
    double exact = 0.25;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) exact += x[i];
    EXPECT_NEAR(ha[s], exact, 1e-5 * double(offsets[s + 1] - offsets[s]) + 1e-6) << "segment " << s;
    if (offsets[s + 1] > offsets[s])
      EXPECT_NEAR(hsa[offsets[s + 1] - 1] + 0.25, exact, 1e-5 * double(offsets[s + 1] - offsets[s]) + 1e-6)
          << "segment " << s << " scan";
  }
}

// floats_reproducible_on two layouts of n random floats.
inline void floats_reproducible(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = std::min<std::int64_t>(200'003, testing::max_test_size());
  std::mt19937_64 g(seed);
  std::vector<float> x(static_cast<std::size_t>(n));
  for (auto& v : x) v = float(std::int64_t(g() % 2'000'001) - 1'000'000) * 1e-6f;
  // Random lengths up to 9000 (the runs engine on CUDA), then n / 700 each (one block per
  // segment on CUDA where n allows it), then 100 each (one warp per segment on CUDA where n
  // allows it).
  std::vector<std::int64_t> offsets{0};
  while (offsets.back() < n) offsets.push_back(std::min(n, offsets.back() + std::int64_t(g() % 9000)));
  const std::int64_t medium = std::max<std::int64_t>(1, n / 700);
  std::vector<std::int64_t> medium_offsets{0}, warp_offsets{0};
  while (medium_offsets.back() < n) medium_offsets.push_back(std::min(n, medium_offsets.back() + medium));
  while (warp_offsets.back() < n) warp_offsets.push_back(std::min(n, warp_offsets.back() + 100));
  for (const auto& o : {offsets, medium_offsets, warp_offsets}) floats_reproducible_on(ctx, x, o);
}

// Bad arguments: a parprim::error naming the function, the backend and the argument, and
// nothing written.
inline void bad_arguments(const context& ctx) {
  auto in = buffer<mat2>::from_host(ctx, std::vector<mat2>(10, mat2{1, 2, 3, 4}));
  buffer<mat2> out(ctx, 3);
  out.fill_bytes(0x5A);
  const auto before = out.to_host();
  for (std::vector<std::int64_t> bad : {std::vector<std::int64_t>{0, 5, 3, 10},
                                        std::vector<std::int64_t>{0, 5, 8, 11},
                                        std::vector<std::int64_t>{-1, 5, 8, 10}}) {
    auto off = buffer<std::int64_t>::from_host(ctx, bad);
    testing::expect_error(
        [&] {
          segmented_reduce(ctx, span<const mat2>(in), span<const std::int64_t>(off),
                           span<mat2>(out), mat2{}, mat_mul{});
        },
        errc::invalid_argument, {"segmented_reduce", ctx.name(), "offsets["});
    EXPECT_EQ(out.to_host(), before);
  }
  auto off = buffer<std::int64_t>::from_host(ctx, {0, 5, 10});
  testing::expect_error(
      [&] {
        segmented_reduce(ctx, span<const mat2>(in), span<const std::int64_t>(off), span<mat2>(out),
                         mat2{}, mat_mul{});
      },
      errc::invalid_argument, {"segmented_reduce", ctx.name(), "out.size()=3"});
  buffer<mat2> scan_out(ctx, 9);
  testing::expect_error(
      [&] {
        segmented_inclusive_scan(ctx, span<const mat2>(in), span<const std::int64_t>(off),
                                 span<mat2>(scan_out), mat_mul{});
      },
      errc::invalid_argument, {"segmented_inclusive_scan", ctx.name(), "out"});
  auto flags = buffer<std::uint8_t>::from_host(ctx, std::vector<std::uint8_t>(9, 0));
  buffer<mat2> flags_out(ctx, 10);
  testing::expect_error(
      [&] {
        segmented_exclusive_scan_by_flags(ctx, span<const mat2>(in), span<const std::uint8_t>(flags),
                                          span<mat2>(flags_out), mat2{}, mat_mul{});
      },
      errc::invalid_argument, {"segmented_exclusive_scan_by_flags", ctx.name(), "flags"});
}

}  // namespace parprim::segmented_generic_cases
