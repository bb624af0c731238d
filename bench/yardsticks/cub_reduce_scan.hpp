// CUB and Thrust reduce/scan, timed by the session in the same run as our kernels. These are
// yardsticks only; the library never calls them. Instantiated for u32 and f32.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

template <class T>
double cub_reduce_sum_ms(session& s, const T* in, T* out, std::int64_t n);
template <class T>
double cub_exclusive_sum_ms(session& s, const T* in, T* out, std::int64_t n);
template <class T>
double cub_inclusive_sum_ms(session& s, const T* in, T* out, std::int64_t n);
template <class T>
double thrust_exclusive_scan_ms(session& s, const T* in, T* out, std::int64_t n);

}  // namespace parprim::bench::yardstick
