// CUB DeviceSegmentedSort, timed by the session in the same run as our segmented sort.
// Yardsticks only; the library never calls them. Out of place (CUB's input stays untouched
// between runs), stable variants (our sort is stable), temporary storage allocated once.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

double cub_segmented_sort_keys_ms(session& s, const std::uint32_t* keys_in,
                                  std::uint32_t* keys_out, std::int64_t n,
                                  const std::int64_t* offsets, std::int64_t segments);
double cub_segmented_sort_pairs_ms(session& s, const std::uint32_t* keys_in,
                                   std::uint32_t* keys_out, const std::uint32_t* values_in,
                                   std::uint32_t* values_out, std::int64_t n,
                                   const std::int64_t* offsets, std::int64_t segments);

}  // namespace parprim::bench::yardstick
