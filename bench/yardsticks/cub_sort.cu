// Yardsticks: CUB DeviceRadixSort::SortKeys / SortPairs (Onesweep in CCCL 3.0) and
// DeviceMergeSort::SortKeysCopy, on the session's stream.
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>

#include "cub_sort.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "time_cub.cuh"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

template <class K>
double cub_sort_keys_ms(session& s, const K* keys_in, K* keys_out, std::int64_t n, int begin_bit,
                        int end_bit) {
  if (end_bit < 0) end_bit = int(sizeof(K) * 8);
  return time_cub(s, "cub::DeviceRadixSort::SortKeys", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRadixSort::SortKeys(t, b, keys_in, keys_out, n, begin_bit, end_bit, st);
  });
}

template <class V>
double cub_sort_pairs_ms(session& s, const std::uint32_t* keys_in, std::uint32_t* keys_out,
                         const V* values_in, V* values_out, std::int64_t n) {
  return time_cub(s, "cub::DeviceRadixSort::SortPairs", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRadixSort::SortPairs(t, b, keys_in, keys_out, values_in, values_out, n, 0,
                                           32, st);
  });
}

template <class T, class Comp>
double merge_sort_ms(session& s, const T* in, T* out, std::int64_t n, Comp comp) {
  return time_cub(s, "cub::DeviceMergeSort::SortKeysCopy", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceMergeSort::SortKeysCopy(t, b, in, out, n, comp, st);
  });
}

double cub_merge_sort_ms(session& s, const std::uint64_t* in, std::uint64_t* out, std::int64_t n) {
  return merge_sort_ms(s, in, out, n, less_than{});
}
double cub_merge_sort_ms(session& s, const record16* in, record16* out, std::int64_t n) {
  return merge_sort_ms(s, in, out, n, record16_less{});
}

template double cub_sort_keys_ms<std::uint8_t>(session&, const std::uint8_t*, std::uint8_t*,
                                             std::int64_t, int, int);
template double cub_sort_keys_ms<std::uint16_t>(session&, const std::uint16_t*, std::uint16_t*,
                                             std::int64_t, int, int);
template double cub_sort_keys_ms<std::uint32_t>(session&, const std::uint32_t*, std::uint32_t*,
                                             std::int64_t, int, int);
template double cub_sort_keys_ms<std::uint64_t>(session&, const std::uint64_t*, std::uint64_t*,
                                             std::int64_t, int, int);
template double cub_sort_pairs_ms<std::uint32_t>(session&, const std::uint32_t*, std::uint32_t*,
                                                 const std::uint32_t*, std::uint32_t*,
                                                 std::int64_t);
template double cub_sort_pairs_ms<std::uint64_t>(session&, const std::uint32_t*, std::uint32_t*,
                                                 const std::uint64_t*, std::uint64_t*,
                                                 std::int64_t);

}  // namespace parprim::bench::yardstick
