// CPU argmin and argmax: fixed blocks searched in parallel, each for its best element by the
// rule of core/extremum_rule.hpp, then the block winners compared in block order. The rule is
// a strict total order on (value, index), so the answer does not depend on the blocking.
//
// Inside a block a first loop keeps the best value alone, with no index and no branch, in
// eight lanes the compiler can vectorize (min/max over integers, and over floats compared by
// <, with NaNs tracked apart); a second loop finds the first position holding it. Both loops
// read the block from cache. Keeping the index beside the value in one loop made it a
// dependent, branchy chain.
#include <algorithm>
#include <vector>

#include "core/extremum_rule.hpp"
#include "cpu/extremum_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t extremum_block = 1 << 14;
constexpr int lanes = 8;

// The best element of x[begin, end) (begin < end).
template <bool Largest, class T>
extremum<T> best_in_block(const T* x, std::int64_t begin, std::int64_t end) {
  T acc[lanes];
  std::fill(acc, acc + lanes, x[begin]);
  bool nan = false;
  std::int64_t i = begin;
  for (; i + lanes <= end; i += lanes)
    for (int l = 0; l < lanes; ++l) {
      const T v = x[i + l];
      if constexpr (std::is_floating_point_v<T>) nan |= v != v;
      acc[l] = Largest ? (acc[l] < v ? v : acc[l]) : (v < acc[l] ? v : acc[l]);
    }
  for (; i < end; ++i) {
    const T v = x[i];
    if constexpr (std::is_floating_point_v<T>) nan |= v != v;
    acc[0] = Largest ? (acc[0] < v ? v : acc[0]) : (v < acc[0] ? v : acc[0]);
  }
  T best = acc[0];
  for (int l = 1; l < lanes; ++l) best = Largest ? (best < acc[l] ? acc[l] : best) : (acc[l] < best ? acc[l] : best);
  for (std::int64_t j = begin; j < end; ++j) {
    const T v = x[j];
    if (nan ? v != v : v == best) return {v, j};
  }
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
