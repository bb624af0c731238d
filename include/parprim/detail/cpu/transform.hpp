// CPU transform, the one body behind every transform on the CPU backend: one parallel pass
// of out[i] = f(in[i]) (or f(a[i], b[i])) over fixed blocks; the loop body is the caller's
// expression, which the compiler vectorizes where it can.
#pragma once

#include <cstdint>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/span.hpp"

namespace parprim::detail::cpu {

inline constexpr std::int64_t transform_block = 1 << 16;

template <class T, class U, class F>
void transform(const context& ctx, span<const T> in, span<U> out, F f) {
  const T* x = in.data();
  U* y = out.data();
  blocked_for(ctx, in.size(), transform_block, [&](std::int64_t, std::int64_t b, std::int64_t e) {
    PARPRIM_SIMD
    for (std::int64_t i = b; i < e; ++i) y[i] = f(x[i]);
  });
}

template <class T, class U, class V, class F>
void transform(const context& ctx, span<const T> a, span<const U> b, span<V> out, F f) {
  const T* x = a.data();
  const U* z = b.data();
  V* y = out.data();
  blocked_for(ctx, a.size(), transform_block, [&](std::int64_t, std::int64_t s, std::int64_t e) {
    PARPRIM_SIMD
    for (std::int64_t i = s; i < e; ++i) y[i] = f(x[i], z[i]);
  });
}

}  // namespace parprim::detail::cpu
