// histogram with even bins (as CUB's DeviceHistogram::HistogramEven).
//
// num_bins bins of equal width split [lower, upper); bins_out[b] receives the number of
// samples in bin b. Samples outside [lower, upper) (and NaNs) are not counted. Counts are
// uint64_t, so no sample count can overflow them; bins_out is overwritten, not accumulated.
//
// Bin of a sample s with lower <= s < upper:
//   integers: floor((s - lower) * num_bins / (upper - lower)), computed exactly;
//   floats:   min(num_bins - 1, floor((s - lower) * scale)) with
//             scale = T(num_bins) / (upper - lower), both computed in T.
// Sample types: the six of types.hpp. num_bins >= 1 (at most 2^31 - 1).
//
// CUDA: up to 4096 bins each block counts into privatized copies in shared memory (one copy
// per lane slot, so even all-equal samples do not serialize on one counter) and merges them at
// the end; more bins count with warp-aggregated global atomics. Stream-ordered.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim {

template <class T>
void histogram(const context& ctx, span<const T> samples, span<std::uint64_t> bins_out,
               std::int64_t num_bins, T lower, T upper);

// The largest bin count served by the shared-memory path on CUDA.
inline constexpr std::int64_t histogram_shared_bins = 4096;

}  // namespace parprim
