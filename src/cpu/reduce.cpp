// CPU reduce: fixed blocks reduced in parallel, then the block results combined in order.
//
// Inside a block, eight independent accumulators (element i goes to lane i % 8) break the
// dependency chain so the loop runs at memory speed; the lanes are then folded in a fixed
// order. The combining order depends only on n, so float sums are bitwise identical on every
// run and on any number of threads.
#include <vector>

#include "core/op_functors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t reduce_block = 1 << 15;
constexpr int lanes = 8;

template <class T, class Op>
T reduce_range(const T* x, std::int64_t begin, std::int64_t end, Op o) {
  T acc[lanes];
  for (int l = 0; l < lanes; ++l) acc[l] = Op::identity();
  std::int64_t i = begin;
  for (; i + lanes <= end; i += lanes)
    for (int l = 0; l < lanes; ++l) acc[l] = o(acc[l], x[i + l]);
  for (int l = 0; i < end; ++i, ++l) acc[l] = o(acc[l], x[i]);
  T r = acc[0];
  for (int l = 1; l < lanes; ++l) r = o(r, acc[l]);
  return r;
}
}  // namespace

template <class T>
T reduce(const context& ctx, span<const T> in, op o) {
  return detail::with_op<T>(o, [&](auto f) -> T {
    using Op = decltype(f);
    const std::int64_t n = in.size();
    if (n <= reduce_block) return reduce_range(in.data(), 0, n, f);
    std::vector<T> partial(static_cast<std::size_t>(block_count(n, reduce_block)));
    blocked_for(ctx, n, reduce_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
      partial[static_cast<std::size_t>(b)] = reduce_range(in.data(), s, e, f);
    });
    T r = Op::identity();
    for (T p : partial) r = f(r, p);
    return r;
  });
}

#define PARPRIM_INSTANTIATE(T) template T reduce<T>(const context&, span<const T>, op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
