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

inline void every_generic_case(const context& ctx, std::uint64_t seed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (int skip : {0, 1})
    check_generic<segmented_generic_cases::mat2>(ctx, segmented_generic_cases::mat_mul{}, skip, seed);
  for (int skip : {0, 1, 2}) check_generic<lin>(ctx, lin_then{}, skip, seed + std::uint64_t(skip));
  check_generic<tri>(ctx, tri_mul{}, 1, seed);
}

}  // namespace parprim::segmented_medium_cases
