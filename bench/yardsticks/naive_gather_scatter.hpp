// The one-line gather and scatter kernels (one thread per element, no bounds check), timed
// by the session: what a first CUDA program would write. Instantiated for u32 values with
// i32 indices and u64 values with i64 indices.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

template <class T, class I>
double naive_gather_ms(session& s, const T* values, const I* indices, T* out, std::int64_t n);
template <class T, class I>
double naive_scatter_ms(session& s, const T* values, const I* indices, T* out, std::int64_t n);

}  // namespace parprim::bench::yardstick
