// The OpenMP backend's entry points. Front ends call these after validating arguments.
#pragma once

#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"

namespace parprim::cpu_backend {

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f);
template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f);

template <class T>
T reduce(const context& ctx, span<const T> in, op o);

// inclusive: out[i] = in[0..i]; exclusive: out[i] = init op in[0..i-1].
template <class T>
void scan(const context& ctx, span<const T> in, span<T> out, op o, bool inclusive, T init);

}  // namespace parprim::cpu_backend
