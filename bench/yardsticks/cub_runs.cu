// Yardsticks: CUB DeviceReduce::ReduceByKey, DeviceScan::InclusiveSumByKey and
// ExclusiveSumByKey, DeviceSelect::Unique and UniqueByKey, DeviceRunLengthEncode::Encode,
// DeviceSegmentedReduce::Sum, thrust::merge / merge_by_key / lower_bound / upper_bound, and
// DeviceRadixSort (keys, and pairs) for sort-then-slice top-k, on the session's stream.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/merge.h>

#include <cuda/std/functional>

#include "cub_runs.hpp"
#include "time_cub.cuh"

namespace parprim::bench::yardstick {

double cub_reduce_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                            std::uint32_t* keys_out, float* values_out, std::int64_t* runs,
                            std::int64_t n) {
  return time_cub(s, "cub::DeviceReduce::ReduceByKey", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceReduce::ReduceByKey(t, b, keys, keys_out, values, values_out, runs,
                                          ::cuda::std::plus<float>{}, n, st);
  });
}

double cub_inclusive_sum_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                                   float* out, std::int64_t n) {
  return time_cub(s, "cub::DeviceScan::InclusiveSumByKey", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceScan::InclusiveSumByKey(t, b, keys, values, out, n,
                                              ::cuda::std::equal_to<std::uint32_t>{}, st);
  });
}

double cub_exclusive_sum_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                                   float* out, std::int64_t n) {
  return time_cub(s, "cub::DeviceScan::ExclusiveSumByKey", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceScan::ExclusiveSumByKey(t, b, keys, values, out, n,
                                              ::cuda::std::equal_to<std::uint32_t>{}, st);
  });
}

double cub_unique_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                     std::int64_t* count, std::int64_t n) {
  return time_cub(s, "cub::DeviceSelect::Unique", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceSelect::Unique(t, b, in, out, count, n, st);
  });
}

double cub_unique_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                            std::uint32_t* keys_out, float* values_out, std::int64_t* count,
                            std::int64_t n) {
  return time_cub(s, "cub::DeviceSelect::UniqueByKey", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceSelect::UniqueByKey(t, b, keys, values, keys_out, values_out, count, n,
                                          ::cuda::std::equal_to<std::uint32_t>{}, st);
  });
}

double cub_run_length_encode_ms(session& s, const std::uint32_t* in, std::uint32_t* unique_out,
                                std::int64_t* lengths, std::int64_t* runs, std::int64_t n) {
  return time_cub(s, "cub::DeviceRunLengthEncode::Encode", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRunLengthEncode::Encode(t, b, in, unique_out, lengths, runs, n, st);
  });
}

double cub_segmented_sum_ms(session& s, const float* in, float* out,
                            const std::int64_t* offsets, std::int64_t segments) {
  return time_cub(s, "cub::DeviceSegmentedReduce::Sum", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceSegmentedReduce::Sum(t, b, in, out, segments, offsets, offsets + 1, st);
  });
}

double thrust_merge_ms(session& s, const std::uint32_t* a, std::int64_t na,
                       const std::uint32_t* b, std::int64_t nb, std::uint32_t* out) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  return s.time_ms([&] { thrust::merge(thrust::cuda::par.on(stream), a, a + na, b, b + nb, out); });
}

double thrust_merge_by_key_ms(session& s, const std::uint32_t* a_keys, const std::uint32_t* a_values,
                              std::int64_t na, const std::uint32_t* b_keys,
                              const std::uint32_t* b_values, std::int64_t nb, std::uint32_t* keys_out,
                              std::uint32_t* values_out) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  return s.time_ms([&] {
    thrust::merge_by_key(thrust::cuda::par.on(stream), a_keys, a_keys + na, b_keys, b_keys + nb, a_values,
                         b_values, keys_out, values_out);
  });
}

double thrust_bound_ms(session& s, bool upper, const std::uint32_t* sorted, std::int64_t n,
                       const std::uint32_t* queries, std::int64_t m, std::int64_t* out) {
  auto policy = thrust::cuda::par.on(static_cast<cudaStream_t>(s.ctx().stream()));
  if (upper)
    return s.time_ms([&] { thrust::upper_bound(policy, sorted, sorted + n, queries, queries + m, out); });
  return s.time_ms([&] { thrust::lower_bound(policy, sorted, sorted + n, queries, queries + m, out); });
}

double cub_sort_then_slice_ms(session& s, const float* in, float* sorted, std::int64_t n) {
  return time_cub(s, "cub::DeviceRadixSort::SortKeysDescending", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRadixSort::SortKeysDescending(t, b, in, sorted, n, 0, 32, st);
  });
}

double cub_sort_pairs_then_slice_ms(session& s, const float* keys, const std::uint32_t* values,
                                    float* sorted_keys, std::uint32_t* sorted_values, std::int64_t n) {
  return time_cub(s, "cub::DeviceRadixSort::SortPairsDescending", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceRadixSort::SortPairsDescending(t, b, keys, sorted_keys, values, sorted_values, n, 0, 32, st);
  });
}

}  // namespace parprim::bench::yardstick
