// argmin and argmax: the position of the first smallest (largest) element and its value.
//
//   extremum<float> m = argmax<float>(ctx, in);        m.value, m.index (waits for the device)
//   argmax_into<float>(ctx, in, value, index);         value[0], index[0] left on the backend,
//                                                      stream-ordered (no host synchronization)
//
// Ties go to the lowest index. Floats follow NumPy's and PyTorch's rule: a NaN counts as both
// smaller and larger than every number, so any NaN makes the first NaN the answer of both;
// -0.0 and +0.0 are equal. An empty input has no extremum and throws. Precompiled for the six
// element types (i32 u32 i64 u64 f32 f64). Results do not depend on the number of threads or
// blocks: the rule orders every (value, index) pair, so any grouping picks the same element.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/types.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class T>
struct extremum {
  T value;
  std::int64_t index;
};

namespace detail {
// The library's compiled entry points (src/core/extremum.cpp), for the six types only.
template <class T>
extremum<T> find_extremum(const context& ctx, span<const T> in, bool largest, workspace* ws);
template <class T>
void find_extremum_into(const context& ctx, span<const T> in, bool largest, span<T> value,
                        span<std::int64_t> index, workspace* ws);
}  // namespace detail

template <class T>
extremum<T> argmin(const context& ctx, span<const T> in, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(argmin));
  return detail::find_extremum(ctx, in, false, ws);
}

template <class T>
extremum<T> argmax(const context& ctx, span<const T> in, workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(argmax));
  return detail::find_extremum(ctx, in, true, ws);
}

// value and index: one element each, on the context's backend.
template <class T>
void argmin_into(const context& ctx, span<const T> in, span<T> value, span<std::int64_t> index,
                 workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(argmin_into));
  detail::find_extremum_into(ctx, in, false, value, index, ws);
}

template <class T>
void argmax_into(const context& ctx, span<const T> in, span<T> value, span<std::int64_t> index,
                 workspace* ws = nullptr) {
  static_assert(is_arithmetic_type_v<T>, PARPRIM_PRECOMPILED_TYPES_MESSAGE(argmax_into));
  detail::find_extremum_into(ctx, in, true, value, index, ws);
}

}  // namespace parprim
