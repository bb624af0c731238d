// CPU reduce, the one body behind every reduce on the CPU backend: fixed blocks reduced in
// parallel, then the block results combined in block order.
//
// Inside a block, eight independent accumulators break the dependency chain so the loop runs
// at memory speed. Which elements an accumulator takes depends on the operator:
//   * reorderable operators (commutative, with an identity: the library's plus/min/max):
//     accumulator l takes elements i with i % 8 == l, a loop the compiler vectorizes;
//   * any other associative operator: accumulator l takes the l-th eighth of the block, so
//     elements are combined strictly left to right (no commutativity assumed).
// The accumulators are then folded in order. The combining order depends only on n, so float
// results are bitwise identical on every run and on any number of threads.
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/span.hpp"

namespace parprim::detail::cpu {

inline constexpr std::int64_t reduce_block = 1 << 15;
inline constexpr int reduce_lanes = 8;

// op over map(x[begin..end)), end > begin.
template <class R, class T, class Map, class Op>
R reduce_range(const T* x, std::int64_t begin, std::int64_t end, Map map, Op op) {
  constexpr int lanes = reduce_lanes;
  R acc[lanes];
  if constexpr (reorderable_v<Op>) {
    for (int l = 0; l < lanes; ++l) acc[l] = Op::identity();
    std::int64_t i = begin;
    for (; i + lanes <= end; i += lanes)
      for (int l = 0; l < lanes; ++l) acc[l] = op(acc[l], map(x[i + l]));
    for (int l = 0; i < end; ++i, ++l) acc[l] = op(acc[l], map(x[i]));
  } else {
    const std::int64_t part = (end - begin) / lanes;
    if (part == 0) {
      R r = map(x[begin]);
      for (std::int64_t i = begin + 1; i < end; ++i) r = op(r, map(x[i]));
      return r;
    }
    for (int l = 0; l < lanes; ++l) acc[l] = map(x[begin + l * part]);
    for (std::int64_t i = 1; i < part; ++i)
      for (int l = 0; l < lanes; ++l) acc[l] = op(acc[l], map(x[begin + l * part + i]));
    for (std::int64_t i = begin + lanes * part; i < end; ++i)
      acc[lanes - 1] = op(acc[lanes - 1], map(x[i]));
  }
  R r = acc[0];
  for (int l = 1; l < lanes; ++l) r = op(r, acc[l]);
  return r;
}

// init op map(x[0]) op ... op map(x[n-1]).
template <class T, class R, class Map, class Op>
R transform_reduce(const context& ctx, span<const T> in, R init, Map map, Op op) {
  const std::int64_t n = in.size();
  if (n == 0) return init;
  if (n <= reduce_block) return op(init, reduce_range<R>(in.data(), 0, n, map, op));
  std::vector<R> partial(static_cast<std::size_t>(block_count(n, reduce_block)));
  blocked_for(ctx, n, reduce_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    partial[static_cast<std::size_t>(b)] = reduce_range<R>(in.data(), s, e, map, op);
  });
  R r = init;
  for (const R& p : partial) r = op(r, p);
  return r;
}

}  // namespace parprim::detail::cpu
