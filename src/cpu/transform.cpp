// CPU transform: one parallel pass; the switch on the op is hoisted out of the loop so that
// each loop body is a plain vectorizable expression.
#include "core/op_functors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t transform_block = 1 << 16;

template <class T, class F>
void map_blocks(const context& ctx, std::int64_t n, F f) {
  blocked_for(ctx, n, transform_block, [&](std::int64_t, std::int64_t b, std::int64_t e) {
#pragma omp simd
    for (std::int64_t i = b; i < e; ++i) f(i);
  });
}
}  // namespace

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f) {
  const T* x = in.data();
  T* y = out.data();
  switch (f) {
#define PARPRIM_CASE(OP) \
  case unary_op::OP:     \
    return map_blocks<T>(ctx, in.size(), [=](std::int64_t i) { y[i] = detail::apply_unary(unary_op::OP, x[i]); });
    PARPRIM_CASE(identity)
    PARPRIM_CASE(negate)
    PARPRIM_CASE(abs)
    PARPRIM_CASE(square)
#undef PARPRIM_CASE
  }
}

template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f) {
  const T* x = a.data();
  const T* z = b.data();
  T* y = out.data();
  switch (f) {
#define PARPRIM_CASE(OP) \
  case binary_op::OP:    \
    return map_blocks<T>(ctx, a.size(), [=](std::int64_t i) { y[i] = detail::apply_binary(binary_op::OP, x[i], z[i]); });
    PARPRIM_CASE(plus)
    PARPRIM_CASE(minus)
    PARPRIM_CASE(multiply)
    PARPRIM_CASE(min)
    PARPRIM_CASE(max)
#undef PARPRIM_CASE
  }
}

#define PARPRIM_INSTANTIATE(T)                                                      \
  template void transform<T>(const context&, span<const T>, span<T>, unary_op);      \
  template void transform<T>(const context&, span<const T>, span<const T>, span<T>, \
                             binary_op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
