// Yardsticks: CUB DeviceSegmentedSort::StableSortKeys / StableSortPairs on the session's
// stream, segments given by one offsets array (begin = offsets, end = offsets + 1).
#include <cub/device/device_segmented_sort.cuh>

#include "cub_segmented_sort.hpp"
#include "time_cub.cuh"

namespace parprim::bench::yardstick {

double cub_segmented_sort_keys_ms(session& s, const std::uint32_t* keys_in,
                                  std::uint32_t* keys_out, std::int64_t n,
                                  const std::int64_t* offsets, std::int64_t segments) {
  return time_cub(s, "cub::DeviceSegmentedSort::StableSortKeys",
                  [&](void* t, std::size_t& b, cudaStream_t st) {
                    return cub::DeviceSegmentedSort::StableSortKeys(
                        t, b, keys_in, keys_out, n, segments, offsets, offsets + 1, st);
                  });
}

double cub_segmented_sort_pairs_ms(session& s, const std::uint32_t* keys_in,
                                   std::uint32_t* keys_out, const std::uint32_t* values_in,
                                   std::uint32_t* values_out, std::int64_t n,
                                   const std::int64_t* offsets, std::int64_t segments) {
  return time_cub(s, "cub::DeviceSegmentedSort::StableSortPairs",
                  [&](void* t, std::size_t& b, cudaStream_t st) {
                    return cub::DeviceSegmentedSort::StableSortPairs(
                        t, b, keys_in, keys_out, values_in, values_out, n, segments, offsets,
                        offsets + 1, st);
                  });
}

}  // namespace parprim::bench::yardstick
