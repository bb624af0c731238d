// CUB DeviceHistogram::HistogramEven, timed by the session in the same run as ours (a
// yardstick only; the library never calls it). 32-bit counters, CUB's fastest; instantiated
// for u32 and f32 samples.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

// Leaves the counts in counts[0..num_bins) (device memory).
template <class T>
double cub_histogram_even_ms(session& s, const T* samples, std::int64_t n, int num_bins, T lower,
                             T upper, unsigned* counts);

}  // namespace parprim::bench::yardstick
