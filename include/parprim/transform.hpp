// transform (map): out[i] = f(in[i]) or out[i] = f(a[i], b[i]).
//
// `out` may alias an input exactly (in place); partial overlap is rejected.
#pragma once

#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"

namespace parprim {

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f);

template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f);

}  // namespace parprim
