// CPU dot: fixed blocks of products summed in parallel, block sums combined in order.
//
// Inside a block, eight independent accumulators (product i goes to lane i % 8) break the
// dependency chain; the lanes are then folded in a fixed order. The combining order depends
// only on n, so results are bitwise identical on every run and on any number of threads.
#include <vector>

#include "cpu/blas_backend.hpp"
#include "cpu/parallel.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t dot_block = 1 << 12;
constexpr int lanes = 8;

template <class T>
T dot_range(const T* x, const T* y, std::int64_t begin, std::int64_t end) {
  T acc[lanes] = {};
  std::int64_t i = begin;
  for (; i + lanes <= end; i += lanes)
    for (int l = 0; l < lanes; ++l) acc[l] += x[i + l] * y[i + l];
  for (int l = 0; i < end; ++i, ++l) acc[l] += x[i] * y[i];
  T r = acc[0];
  for (int l = 1; l < lanes; ++l) r += acc[l];
  return r;
}
}  // namespace

template <class T>
T dot(const context& ctx, span<const T> x, span<const T> y) {
  const std::int64_t n = x.size();
  if (n <= dot_block) return dot_range(x.data(), y.data(), 0, n);
  std::vector<T> partial(static_cast<std::size_t>(block_count(n, dot_block)));
  blocked_for(ctx, n, dot_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    partial[static_cast<std::size_t>(b)] = dot_range(x.data(), y.data(), s, e);
  });
  T r = T(0);
  for (T p : partial) r += p;
  return r;
}

template float dot<float>(const context&, span<const float>, span<const float>);
template double dot<double>(const context&, span<const double>, span<const double>);

}  // namespace parprim::cpu_backend
