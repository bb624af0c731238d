// Segment layouts around the thresholds of CUDA's warp-per-segment and block-per-segment
// segmented_reduce (parprim/cuda/segment_warps.cuh, segment_blocks.cuh), and the generic cases
// on them: caller's types that are associative and not commutative, one per load path of the
// kernels. Compiled by g++
// (tests/test_segmented.cpp, tests/test_segmented_generic.cpp: both backends) and by nvcc
// (tests/cuda/test_segmented_generic_cuda.cu: CUDA backend).
//   mat2  (segmented_generic_cases.hpp, 16 bytes): one 16-byte vector per value, or one
//         plain load per value in a view 4 bytes into its buffer;
//   lin   x -> a x + b over wrapping u32, composed left to right (8 bytes, 4-byte aligned):
//         two per vector, and a view 4 bytes into its buffer, off every 8-byte boundary,
//         falls back to one value per load;
//   tri   upper triangular 2 x 2 matrices over wrapping u32 (12 bytes): one value per load.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "parprim/cuda/tuning/segment_blocks_tuning.hpp"
#include "parprim/cuda/tuning/segment_paths.hpp"
#include "parprim/cuda/tuning/segment_warps_tuning.hpp"
#include "parprim/parprim.hpp"
#include "segmented_generic_cases.hpp"
#include "support/test_support.hpp"

namespace parprim::segmented_medium_cases {

// Segments around the thresholds of CUDA's warp-per-segment and block-per-segment reduces
// (segment_warps_tuning, segment_blocks_tuning): each shape says which path the rules pick,
// and the test checks the rules agree, so every path (runs engine or chunked, one warp per
// segment, one block per segment) is taken on purpose.
using warps_rule = parprim::cuda_tuning::segment_warps_tuning;
using blocks_rule = parprim::cuda_tuning::segment_blocks_tuning;

enum class reduce_path { other, warps, blocks };  // other: the runs engine or the chunked reduce

struct medium_shape {
  std::string name;
  std::vector<std::int64_t> offsets;
  reduce_path path;  // on CUDA
};

// `count` segments of `length`, each followed by `empties` empty ones.
std::vector<std::int64_t> uniform_offsets(std::int64_t count, std::int64_t length, int empties) {
  std::vector<std::int64_t> o{0};
  for (std::int64_t s = 0; s < count; ++s) {
    o.push_back(o.back() + length);
    for (int e = 0; e < empties; ++e) o.push_back(o.back());
  }
  return o;
}

// The path CUDA's segmented_reduce takes, in the order of parprim/cuda/segmented.cuh.
reduce_path rule_path(const std::vector<std::int64_t>& o) {
  std::int64_t longest = 0;
  for (std::size_t s = 0; s + 1 < o.size(); ++s) longest = std::max(longest, o[s + 1] - o[s]);
  const std::int64_t n = o.back() - o.front(), segments = std::int64_t(o.size()) - 1;
  if (warps_rule::chosen(n, segments, longest)) return reduce_path::warps;
  if (blocks_rule::chosen(n, segments, longest)) return reduce_path::blocks;
  return reduce_path::other;
}

// `count` segments of random lengths in [low, high], with an empty one after every
// `empty_every`-th (0: none): segment starts fall on every element position mod 16 bytes.
std::vector<std::int64_t> around_offsets(std::int64_t count, std::int64_t low, std::int64_t high,
                                         int empty_every, std::mt19937_64& g) {
  std::vector<std::int64_t> o{0};
  for (std::int64_t s = 0; s < count; ++s) {
    o.push_back(o.back() + low + std::int64_t(g() % std::uint64_t(high - low + 1)));
    if (empty_every > 0 && s % empty_every == empty_every - 1) o.push_back(o.back());
  }
  return o;
}

// Shapes around the warp rule: averages at 31/32 elements (and lanes holding 1-3 f32 units,
// a tail or not), 64, 128, 256 with empty segments between, the longest segment at and just
// over n / min_work_per_longest, offsets not starting at 0. All but the 128 and 256 ones stay
// under 70000 elements, the sanitizer runs' PARPRIM_TEST_MAX_N.
void add_warp_shapes(std::vector<medium_shape>& out, std::uint64_t seed) {
  const std::int64_t avg = warps_rule::min_average, ratio = warps_rule::min_work_per_longest;
  using P = reduce_path;
  out.push_back({"warps_average_below", uniform_offsets(2 * ratio, avg - 1, 0), P::other});
  out.push_back({"warps_average_at", uniform_offsets(ratio, avg, 0), P::warps});  // n = ratio x longest
  out.push_back({"warps_work_below", uniform_offsets(ratio - 1, avg, 0), P::other});
  std::mt19937_64 g(seed ^ 0x3a4b);
  const std::int64_t count = ratio + ratio / 16;  // n >= ratio x longest for every draw
  out.push_back({"warps_around_32", around_offsets(count, avg, avg + 2, 0, g), P::warps});
  for (std::int64_t len : {64, 128, 256})
    out.push_back({"warps_around_" + std::to_string(len) + "_with_empty",
                   around_offsets(count, len - 1, len + 1, 4, g), P::warps});
  // 1984 segments of 33 and one of 64 at the end: n = 1024 x 64, the longest the rule
  // allows; with 65 the warps give way (to the runs engine: averages under 256).
  medium_shape at{"warps_longest_at_bound", uniform_offsets(1984, 33, 0), P::warps};
  at.offsets.push_back(at.offsets.back() + 64);
  medium_shape over{"warps_longest_over_bound", at.offsets, P::other};
  over.offsets.back() += 1;
  out.push_back(at);
  out.push_back(over);
  medium_shape inner{"warps_inner", uniform_offsets(count, 40, 0), P::warps};
  for (auto& o : inner.offsets) o += 3;
  out.push_back(inner);
}

std::vector<medium_shape> medium_shapes(std::uint64_t seed) {
  const std::int64_t avg = blocks_rule::min_average, ratio = blocks_rule::min_work_per_longest;
  using P = reduce_path;
  std::vector<medium_shape> out{
      {"average_below", uniform_offsets(2 * ratio, avg - 1, 0), P::other},
      {"average_at", uniform_offsets(2 * ratio, avg, 0), P::blocks},
      {"average_above", uniform_offsets(2 * ratio, avg + 1, 0), P::blocks},
      {"empty_between", uniform_offsets(2 * ratio, 2 * avg, 1), P::blocks},
      {"empty_between_below", uniform_offsets(2 * ratio, 2 * avg - 2, 1), P::other},
      {"work_below", uniform_offsets(ratio - 1, 4096, 0), P::other},
      {"work_at", uniform_offsets(ratio, 4096, 0), P::blocks},
  };
  // Tile edges (4095-4097: 1023-1025 16-byte units of 4-byte values), tiny and empty
  // segments and medium ones, mixed: one block per segment.
  std::mt19937_64 g(seed ^ 0xb10c);
  medium_shape mixed{"mixed_medium", {0}, P::blocks};
  for (int s = 0; s < 4 * ratio; ++s) {
    const std::uint64_t kind = g() % 4;
    const std::int64_t len = kind == 0   ? 4095 + std::int64_t(g() % 3)
                             : kind == 1 ? 0
                             : kind == 2 ? std::int64_t(g() % 20)
                                         : 256 + std::int64_t(g() % 5000);
    mixed.offsets.push_back(mixed.offsets.back() + len);
  }
  out.push_back(mixed);
  // The same with one segment over max_length in the middle: a multi-block path.
  medium_shape huge{"mixed_with_huge", mixed.offsets, P::other};
  const std::size_t mid = huge.offsets.size() / 2;
  for (std::size_t s = mid; s < huge.offsets.size(); ++s) huge.offsets[s] += blocks_rule::max_length + 1;
  out.push_back(huge);
  // Not starting at 0: segment starts off 16-byte boundaries.
  medium_shape inner{"inner_medium", uniform_offsets(2 * ratio, avg + 3, 0), P::blocks};
  for (auto& o : inner.offsets) o += 3;
  out.push_back(inner);
  add_warp_shapes(out, seed);
  return out;
}

// CUDA's segmented_reduce queues the warp or block kernel its guess picks
// (cuda_tuning::speculated_path of the input's size and the segment count) behind the offsets
// check, before the verdict; the kernel writes only where the verdict picks it too. The
// guess for offsets o over an input of n elements:
inline reduce_path guessed_path(const std::vector<std::int64_t>& o, std::int64_t n) {
  using parprim::cuda_tuning::segment_path;
  switch (parprim::cuda_tuning::speculated_path(n, std::int64_t(o.size()) - 1)) {
    case segment_path::warps: return reduce_path::warps;
    case segment_path::blocks: return reduce_path::blocks;
    default: return reduce_path::other;
  }
}

// Shapes where that guess is wrong, over inputs of n elements: `guess` is what the host
// queues, `path` what the verdict then picks (the call must give the path's answer, the
// guessed kernel having written nothing).
struct misguessed_shape {
  std::string name;
  std::vector<std::int64_t> offsets;
  std::int64_t n;
  reduce_path guess, path;
};

inline std::vector<misguessed_shape> misguessed_shapes() {
  using P = reduce_path;
  std::vector<misguessed_shape> out;
  // Segments of 64 covering a quarter of the input: the guess (averaging 256) is blocks.
  out.push_back({"quarter_covered", uniform_offsets(256, 64, 0), 65536, P::blocks, P::other});
  // One segment over max_length among ones of 200: averaging 336, the guess is blocks.
  medium_shape huge{"", uniform_offsets(511, 200, 0), P::other};
  huge.offsets.push_back(huge.offsets.back() + blocks_rule::max_length + 4464);
  out.push_back({"huge_among_200", huge.offsets, huge.offsets.back(), P::blocks, P::other});
  // One segment of 3000 among ones of 32: averaging 33, the guess is warps.
  medium_shape long_one{"", uniform_offsets(2047, 32, 0), P::other};
  long_one.offsets.push_back(long_one.offsets.back() + 3000);
  out.push_back({"long_among_32", long_one.offsets, long_one.offsets.back(), P::warps, P::other});
  // Segments of 256 but one of 1024 (and three empty ones): warps guessed, blocks picked.
  std::vector<std::int64_t> o{0, 1024, 1024, 1024, 1024};
  for (int s = 4; s < 1024; ++s) o.push_back(o.back() + 256);
  out.push_back({"warps_guess_blocks_picked", o, o.back(), P::warps, P::blocks});
  // Segments of 32 in the first 2^15 of 2^20 elements: blocks guessed, warps picked.
  out.push_back({"blocks_guess_warps_picked", uniform_offsets(1024, 32, 0), std::int64_t(1) << 20,
                 P::blocks, P::warps});
  return out;
}

// Offsets the host guesses right, one set per guessed kernel (n = their end, at most 65536,
// the sanitizer runs' PARPRIM_TEST_MAX_N), good and with one bad entry in four ways: bad[k]
// must throw naming bad_index[k] (the lowest s with offsets[s] outside [0, n] or offsets[s+1]
// < offsets[s]) and write nothing, the gated kernel included.
struct bad_guessed {
  std::string name;
  std::vector<std::int64_t> good;
  std::vector<std::vector<std::int64_t>> bad;
  std::vector<std::int64_t> bad_index;
};

inline std::vector<bad_guessed> bad_guessed_offsets() {
  std::vector<bad_guessed> out(2);
  out[0].name = "warps";
  out[0].good = uniform_offsets(warps_rule::min_work_per_longest, warps_rule::min_average, 0);
  out[1].name = "blocks";
  out[1].good = uniform_offsets(blocks_rule::min_work_per_longest, blocks_rule::min_average, 0);
  for (bad_guessed& b : out) {
    const std::int64_t count = std::int64_t(b.good.size()) - 1, n = b.good.back(), mid = count / 2;
    auto with = [&](std::int64_t s, std::int64_t value, std::int64_t named) {
      b.bad.push_back(b.good);
      b.bad.back()[std::size_t(s)] = value;
      b.bad_index.push_back(named);
    };
    with(mid, b.good[std::size_t(mid - 1)] - 1, mid - 1);  // a decrease in the middle
    with(count, n + 1, count);                            // past the end of the input
    with(0, -1, 0);                                       // before its start
    with(mid, std::int64_t(1) << 40, mid);                // far past the end
  }
  return out;
}

// call(ctx, in, offsets, out): a segmented_reduce of V; oracle(offsets) its answer over x. For each
// guessed-right offsets set, every bad variant throws naming segmented_reduce, the backend
// and the bad entry, and leaves the poisoned output as it was; the good set then reduces as
// the oracle does.
template <class V, class Call, class Oracle>
void check_bad_guessed(const context& ctx, const std::vector<V>& x, Call call, Oracle oracle) {
  for (const bad_guessed& b : bad_guessed_offsets()) {
    ASSERT_EQ(int(rule_path(b.good)), int(guessed_path(b.good, b.good.back()))) << b.name;
    ASSERT_NE(int(rule_path(b.good)), int(reduce_path::other)) << b.name;
    if (b.good.back() > std::int64_t(x.size())) continue;  // PARPRIM_TEST_MAX_N
    auto in = buffer<V>::from_host(ctx, std::vector<V>(x.begin(), x.begin() + b.good.back()));
    buffer<V> out(ctx, std::int64_t(b.good.size()) - 1);
    out.fill_bytes(0x5A);
    const auto poisoned = out.to_host();
    for (std::size_t k = 0; k < b.bad.size(); ++k) {
      auto off = buffer<std::int64_t>::from_host(ctx, b.bad[k]);
      testing::expect_error(
          [&] { call(ctx, span<const V>(in), span<const std::int64_t>(off), span<V>(out)); },
          errc::invalid_argument,
          {"segmented_reduce", ctx.name(), "offsets[" + std::to_string(b.bad_index[k]) + "]"});
      EXPECT_TRUE(out.to_host() == poisoned) << b.name << ": bad offsets set " << k << " wrote";
    }
    auto off = buffer<std::int64_t>::from_host(ctx, b.good);
    call(ctx, span<const V>(in), span<const std::int64_t>(off), span<V>(out));
    EXPECT_TRUE(out.to_host() == oracle(b.good)) << b.name << ": good offsets after bad ones";
  }
}

// The misguessed shapes (within PARPRIM_TEST_MAX_N): each reduces as the oracle does.
template <class V, class Call, class Oracle>
void check_misguessed(const context& ctx, const std::vector<V>& x, Call call, Oracle oracle) {
  for (const misguessed_shape& sh : misguessed_shapes()) {
    ASSERT_EQ(int(guessed_path(sh.offsets, sh.n)), int(sh.guess)) << sh.name;
    ASSERT_EQ(int(rule_path(sh.offsets)), int(sh.path)) << sh.name;
    if (sh.n > std::int64_t(x.size())) continue;
    auto in = buffer<V>::from_host(ctx, std::vector<V>(x.begin(), x.begin() + sh.n));
    auto off = buffer<std::int64_t>::from_host(ctx, sh.offsets);
    buffer<V> out(ctx, std::int64_t(sh.offsets.size()) - 1);
    out.fill_bytes(0xA5);
    call(ctx, span<const V>(in), span<const std::int64_t>(off), span<V>(out));
    EXPECT_TRUE(out.to_host() == oracle(sh.offsets)) << sh.name;
  }
}

// Calls in a row on two contexts, interleaved, with different offsets (a guessed-right warp
// shape, a guessed-right block shape, bad offsets, a misguessed shape), each result read back
// only after all calls: every call reads its own verdict, not a stale one of the context's
// reused verdict words.
template <class V, class Call, class Oracle>
void check_calls_in_a_row(const context& a, const context& b, const std::vector<V>& x, Call call,
                          Oracle oracle) {
  const auto guessed = bad_guessed_offsets();
  const auto misguessed = misguessed_shapes();
  const std::vector<std::vector<std::int64_t>> offsets{guessed[0].good, guessed[1].good,
                                                       misguessed[0].offsets, guessed[1].good};
  const std::int64_t n = 65536;  // every offsets set above ends within it
  ASSERT_LE(n, std::int64_t(x.size()));
  const std::vector<V> head(x.begin(), x.begin() + n);
  std::vector<buffer<V>> ins, outs;
  std::vector<buffer<std::int64_t>> offs;
  for (const context* ctx : {&a, &b}) {
    ins.push_back(buffer<V>::from_host(*ctx, head));
    for (const auto& o : offsets) offs.push_back(buffer<std::int64_t>::from_host(*ctx, o));
    for (const auto& o : offsets) outs.emplace_back(*ctx, std::int64_t(o.size()) - 1);
  }
  // Bad offsets of the block shape's size, into the output of a's block-shape call (which it
  // must leave as it is).
  auto bad = buffer<std::int64_t>::from_host(a, guessed[1].bad[0]);
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    for (std::size_t c = 0; c < 2; ++c) {
      const std::size_t i = c * offsets.size() + k;
      call(c == 0 ? a : b, span<const V>(ins[c]), span<const std::int64_t>(offs[i]),
           span<V>(outs[i]));
    }
    testing::expect_error(
        [&] {
          call(a, span<const V>(ins[0]), span<const std::int64_t>(bad), span<V>(outs[1]));
        },
        errc::invalid_argument, {"segmented_reduce", a.name(), "offsets["});
  }
  for (std::size_t i = 0; i < outs.size(); ++i)
    EXPECT_TRUE(outs[i].to_host() == oracle(offsets[i % offsets.size()])) << "call " << i;
}

struct lin {
  std::uint32_t a, b;  // x -> a x + b
};
struct lin_then {  // apply x, then y
  PARPRIM_HD lin operator()(const lin& x, const lin& y) const { return lin{y.a * x.a, y.a * x.b + y.b}; }
};
struct tri {
  std::uint32_t a, b, c;  // [[a, b], [0, c]]
};
struct tri_mul {
  PARPRIM_HD tri operator()(const tri& x, const tri& y) const {
    return tri{x.a * y.a, x.a * y.b + x.b * y.c, x.c * y.c};
  }
};
inline bool operator==(const lin& x, const lin& y) { return x.a == y.a && x.b == y.b; }
inline bool operator==(const tri& x, const tri& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
inline std::ostream& operator<<(std::ostream& os, const lin& f) { return os << f.a << "x+" << f.b; }
inline std::ostream& operator<<(std::ostream& os, const tri& m) {
  return os << '[' << m.a << ' ' << m.b << "; 0 " << m.c << ']';
}

// Words holding n + 1 values of V from word `skip` on. Invertible values (odd multipliers and
// diagonals, and for mat2 an even b: odd determinants) keep long products from collapsing
// to zero, which would hide a wrong order (see segmented_generic_cases.hpp).
template <class V>
std::vector<std::uint32_t> make_words(std::int64_t n, int skip, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  constexpr int per = int(sizeof(V) / 4);
  std::vector<std::uint32_t> w(std::size_t(n + 1) * per + std::size_t(skip));
  for (std::size_t i = 0; i < w.size(); ++i) {
    const int j = int((i + per - std::size_t(skip) % per) % per);  // word j of its value
    const bool odd = j == 0 || (per == 4 && j == 3) || (per == 3 && j == 2);
    const bool even = per == 4 && j == 1;
    w[i] = odd ? std::uint32_t(g()) | 1u : even ? std::uint32_t(g()) & ~1u : std::uint32_t(g());
  }
  return w;
}

template <class V, class Op>
std::vector<V> reduce_oracle(const std::vector<V>& x, const std::vector<std::int64_t>& o, const V& init, Op op) {
  std::vector<V> out;
  for (std::size_t s = 0; s + 1 < o.size(); ++s) {
    V acc = init;
    for (std::int64_t i = o[s]; i < o[s + 1]; ++i) acc = op(acc, x[i]);
    out.push_back(acc);
  }
  return out;
}

// segmented_reduce of V under op on every medium shape, the values read through a view
// `skip_words` 4-byte words into their buffer.
template <class V, class Op>
void check_generic(const context& ctx, Op op, int skip_words, std::uint64_t seed) {
  workspace ws(ctx);
  for (const medium_shape& sh : medium_shapes(seed)) {
    ASSERT_EQ(int(rule_path(sh.offsets)), int(sh.path)) << sh.name;
    const std::int64_t n = sh.offsets.back() + 2;
    if (n > testing::max_test_size()) continue;
    const auto words = make_words<V>(n, skip_words, seed ^ std::uint64_t(n));
    std::vector<V> x(static_cast<std::size_t>(n));
    std::memcpy(x.data(), words.data() + skip_words, x.size() * sizeof(V));
    auto buf = buffer<std::uint32_t>::from_host(ctx, words);
    const span<const V> in(reinterpret_cast<const V*>(buf.data() + skip_words), n);
    auto off = buffer<std::int64_t>::from_host(ctx, sh.offsets);
    buffer<V> red(ctx, std::int64_t(sh.offsets.size()) - 1);
    red.fill_bytes(0xA5);
    V init;
    std::memcpy(&init, words.data() + skip_words + sizeof(V) / 4, sizeof(V));
    segmented_reduce(ctx, in, span<const std::int64_t>(off), span<V>(red), init, op, &ws);
    EXPECT_EQ(red.to_host(), reduce_oracle(x, sh.offsets, init, op))
        << sizeof(V) << "-byte values, view " << skip_words << " words in, " << sh.name;
  }
}

// The guess-related checks above with a caller's operator (lin, not commutative).
inline void guessed_generic_cases(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = std::min<std::int64_t>(std::int64_t(1) << 20, testing::max_test_size());
  const auto words = make_words<lin>(n, 0, seed);
  std::vector<lin> x(static_cast<std::size_t>(n));
  std::memcpy(x.data(), words.data(), x.size() * sizeof(lin));
  const lin init{3, 1};
  auto call = [init](const context& c, span<const lin> in, span<const std::int64_t> off,
                     span<lin> out) { segmented_reduce(c, in, off, out, init, lin_then{}); };
  auto oracle = [&](const std::vector<std::int64_t>& o) {
    return reduce_oracle(x, o, init, lin_then{});
  };
  check_bad_guessed<lin>(ctx, x, call, oracle);
  check_misguessed<lin>(ctx, x, call, oracle);
}

inline void every_generic_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (int skip : {0, 1})
    check_generic<segmented_generic_cases::mat2>(ctx, segmented_generic_cases::mat_mul{}, skip, seed);
  for (int skip : {0, 1, 2}) check_generic<lin>(ctx, lin_then{}, skip, seed + std::uint64_t(skip));
  check_generic<tri>(ctx, tri_mul{}, 1, seed);
}

}  // namespace parprim::segmented_medium_cases
