// CPU argmin and argmax: fixed blocks searched in parallel, each for its best element by the
// rule of core/extremum_rule.hpp, then the block winners compared in block order. The rule is
// a strict total order on (value, index), so the answer does not depend on the blocking.
// Inside a block, branch-free lanes keep the best value, where they first held it, and their
// first NaN; the lanes are then combined.
#include <algorithm>
#include <climits>
#include <vector>

#include "core/extremum_rule.hpp"
#include "cpu/extremum_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t extremum_block = 1 << 14;
// 32 lanes: enough independent min/max chains to hide their latency. Each lane also keeps
// the group where it first held its best value, so the position needs no second pass. 2^25
// f32 on 2 threads of the build machine (AVX-512), whole call: 7.2 ms with 8 lanes and the
// position searched afterwards one element at a time; 5.8 ms with 32 lanes and the search in
// groups of 32, which still compiled to scalar compares (65% of the call in perf); 2.9 ms
// with the positions kept in the lanes, a reduce's time (3.0 ms in the same process).
constexpr int lanes = 32;

// The best element of x[begin, end) (begin < end, at most 2^31 elements).
template <bool Largest, class T>
extremum<T> best_in_block(const T* x, std::int64_t begin, std::int64_t end) {
  constexpr bool floating = std::is_floating_point_v<T>;
  constexpr std::int32_t none = INT32_MAX;
  const T* block = x + begin;
  const std::int32_t len = static_cast<std::int32_t>(end - begin);
  // Lane l sees elements g + l of each group g (a multiple of lanes): its best value, the
  // group where it first held it (a strict comparison keeps the first), and the group of its
  // first NaN (floats).
  T acc[lanes];
  std::int32_t at[lanes], nan_at[lanes];
  std::fill(acc, acc + lanes, block[0]);
  for (int l = 0; l < lanes; ++l) at[l] = -l;  // every lane starts at element 0
  std::fill(nan_at, nan_at + lanes, none);
  auto visit = [&](std::int32_t g, int l) {  // element g + l, in lane l
    const T v = block[g + l];
    if constexpr (floating) nan_at[l] = v != v && nan_at[l] == none ? g : nan_at[l];
    const bool better = Largest ? acc[l] < v : v < acc[l];
    at[l] = better ? g : at[l];
    acc[l] = better ? v : acc[l];
  };
  std::int32_t g = 0;
  for (; g + lanes <= len; g += lanes)
    for (int l = 0; l < lanes; ++l) visit(g, l);
  // The elements past the last whole group, one lane each (their positions are larger).
  for (int l = 0; g + l < len; ++l) visit(g, l);
  // The first NaN if any lane met one, else the first position of the best value.
  std::int32_t first = none;
  for (int l = 0; l < lanes; ++l)
    if (nan_at[l] != none) first = std::min(first, nan_at[l] + l);
  if (first == none) {
    T best = acc[0];
    for (int l = 1; l < lanes; ++l)
      best = Largest ? (best < acc[l] ? acc[l] : best) : (acc[l] < best ? acc[l] : best);
    for (int l = 0; l < lanes; ++l)
      if (acc[l] == best) first = std::min(first, at[l] + l);
  }
  return {block[first], begin + first};
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
