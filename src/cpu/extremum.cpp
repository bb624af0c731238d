// CPU argmin and argmax: fixed blocks searched in parallel, each for its best element by the
// rule of core/extremum_rule.hpp, then the block winners compared in block order. The rule is
// a strict total order on (value, index), so the answer does not depend on the blocking.
//
// Inside a block a first loop keeps the best value alone, with no index and no branch, in
// lanes the compiler vectorizes (min/max over integers, and over floats compared by <, with
// NaNs caught apart); a second loop finds the first position holding it, from cache. Keeping
// the index beside the value in one loop made it a dependent, branchy chain.
#include <algorithm>
#include <vector>

#include "core/extremum_rule.hpp"
#include "cpu/extremum_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t extremum_block = 1 << 14;
// 32 lanes: enough independent min/max chains to hide their latency (two to four vectors of
// lanes per step). 2^25 f32 on 2 threads of the build machine (AVX-512), whole call: 7.2 ms
// with 8 lanes, one NaN flag ORed per element and the position searched one element at a
// time; 6.6 ms with the search in groups; 5.8 ms with 32 lanes and NaNs caught by a second
// chain per lane (std::min_element on one core: 20.3 ms; a reduce of the same input: 2.7 ms).
constexpr int lanes = 32;

template <bool Largest, class T>
T better_value(T acc, T v) {
  return Largest ? (acc < v ? v : acc) : (v < acc ? v : acc);
}

// The best element of x[begin, end) (begin < end).
template <bool Largest, class T>
extremum<T> best_in_block(const T* x, std::int64_t begin, std::int64_t end) {
  constexpr bool floating = std::is_floating_point_v<T>;
  T acc[lanes], seen_nan[lanes];  // seen_nan[l]: a NaN once lane l met one (floats)
  std::fill(acc, acc + lanes, x[begin]);
  std::fill(seen_nan, seen_nan + lanes, T(0));
  std::int64_t i = begin;
  for (; i + lanes <= end; i += lanes)
    for (int l = 0; l < lanes; ++l) {
      const T v = x[i + l];
      if constexpr (floating) seen_nan[l] = v != v ? v : seen_nan[l];
      acc[l] = better_value<Largest>(acc[l], v);
    }
  for (; i < end; ++i) {
    const T v = x[i];
    if constexpr (floating) seen_nan[0] = v != v ? v : seen_nan[0];
    acc[0] = better_value<Largest>(acc[0], v);
  }
  T best = acc[0];
  bool nan = false;
  for (int l = 0; l < lanes; ++l) {
    best = better_value<Largest>(best, acc[l]);
    nan |= seen_nan[l] != seen_nan[l];
  }
  // The first position holding it: whole groups of `lanes` tested at once (no early exit
  // inside a group, so the test vectorizes), then the element within the group. The block
  // is in cache by now.
  auto holds = [&](T v) { return nan ? v != v : v == best; };
  std::int64_t j = begin;
  for (; j + lanes <= end; j += lanes) {
    bool any = false;
    for (int l = 0; l < lanes; ++l) any |= holds(x[j + l]);
    if (any) break;
  }
  for (; j < end; ++j)
    if (holds(x[j])) return {x[j], j};
  return {best, begin};  // not reached: best is one of the block's values
}

template <bool Largest, class T>
extremum<T> find(const context& ctx, span<const T> in) {
  const std::int64_t n = in.size();
  std::vector<extremum<T>> winners(static_cast<std::size_t>(block_count(n, extremum_block)));
  blocked_for(ctx, n, extremum_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    winners[static_cast<std::size_t>(b)] = best_in_block<Largest>(in.data(), s, e);
  });
  extremum<T> best = winners[0];
  for (const auto& w : winners)
    if (detail::beats<Largest>(w.value, w.index, best.value, best.index)) best = w;
  return best;
}
}  // namespace

template <class T>
extremum<T> find_extremum(const context& ctx, span<const T> in, bool largest) {
  return largest ? find<true>(ctx, in) : find<false>(ctx, in);
}

#define PARPRIM_INSTANTIATE(T) \
  template extremum<T> find_extremum<T>(const context&, span<const T>, bool);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
