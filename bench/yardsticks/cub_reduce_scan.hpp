// CUB and Thrust reduce/scan, timed by the session in the same run as our kernels. These are
// yardsticks only; the library never calls them. Instantiated for u32, u64, f32 and f64
// (ArgMin/ArgMax: f32 and f64).
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
// DeviceReduce::ArgMax (largest) or ArgMin: the value and the int64 index of the extremum.
template <class T>
double cub_arg_extremum_ms(session& s, const T* in, T* value_out, std::int64_t* index_out,
                           std::int64_t n, bool largest);

}  // namespace parprim::bench::yardstick
