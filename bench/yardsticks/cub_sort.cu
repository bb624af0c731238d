// Yardstick: CUB DeviceRadixSort::SortKeys / SortPairs (Onesweep in CCCL 3.0) on the
// session's stream.
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "cub_sort.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "time_cub.cuh"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

template <class K>
double cub_sort_keys_ms(session& s, const K* keys_in, K* keys_out, std::int64_t n) {
  return time_cub(s, "cub::DeviceRadixSort::SortKeys", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRadixSort::SortKeys(t, b, keys_in, keys_out, n, 0, int(sizeof(K) * 8), st);
  });
}

double cub_sort_pairs_ms(session& s, const std::uint32_t* keys_in, std::uint32_t* keys_out,
                         const std::uint32_t* values_in, std::uint32_t* values_out,
                         std::int64_t n) {
  return time_cub(s, "cub::DeviceRadixSort::SortPairs", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, values_in, values_out, n, 0,
                                           32, st);
  });
}

template double cub_sort_keys_ms<std::uint32_t>(session&, const std::uint32_t*, std::uint32_t*,
                                                std::int64_t);
template double cub_sort_keys_ms<std::uint64_t>(session&, const std::uint64_t*, std::uint64_t*,
                                                std::int64_t);

}  // namespace parprim::bench::yardstick
