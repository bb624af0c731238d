// Yardsticks: CUB DeviceReduce::Sum, ArgMin/ArgMax, DeviceScan::ExclusiveSum/InclusiveSum and Thrust's
// exclusive_scan, on the session's stream. CUB's temporary storage is allocated once outside
// the timed region (its fastest use); Thrust allocates per call, as its users see it.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include "cub_reduce_scan.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "time_cub.cuh"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

template <class T>
double cub_reduce_sum_ms(session& s, const T* in, T* out, std::int64_t n) {
  return time_cub(s, "cub::DeviceReduce::Sum", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceReduce::Sum(t, b, in, out, n, st);
  });
}

template <class T>
double cub_exclusive_sum_ms(session& s, const T* in, T* out, std::int64_t n) {
  return time_cub(s, "cub::DeviceScan::ExclusiveSum", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceScan::ExclusiveSum(t, b, in, out, n, st);
  });
}

template <class T>
double cub_inclusive_sum_ms(session& s, const T* in, T* out, std::int64_t n) {
  return time_cub(s, "cub::DeviceScan::InclusiveSum", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceScan::InclusiveSum(t, b, in, out, n, st);
  });
}

template <class T>
double cub_arg_extremum_ms(session& s, const T* in, T* value_out, std::int64_t* index_out,
                           std::int64_t n, bool largest) {
  if (largest)
    return time_cub(s, "cub::DeviceReduce::ArgMax", [&](void* t, std::size_t& b, cudaStream_t st) {
      return cub::DeviceReduce::ArgMax(t, b, in, value_out, index_out, n, st);
    });
  return time_cub(s, "cub::DeviceReduce::ArgMin", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceReduce::ArgMin(t, b, in, value_out, index_out, n, st);
  });
}

template <class T>
double thrust_exclusive_scan_ms(session& s, const T* in, T* out, std::int64_t n) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  return s.time_ms([&] { thrust::exclusive_scan(thrust::cuda::par_nosync.on(stream), in, in + n, out); });
}

#define PARPRIM_YARDSTICK(T)                                                          \
  template double cub_reduce_sum_ms<T>(session&, const T*, T*, std::int64_t);         \
  template double cub_exclusive_sum_ms<T>(session&, const T*, T*, std::int64_t);      \
  template double cub_inclusive_sum_ms<T>(session&, const T*, T*, std::int64_t);      \
  template double thrust_exclusive_scan_ms<T>(session&, const T*, T*, std::int64_t);
PARPRIM_YARDSTICK(std::uint32_t)
PARPRIM_YARDSTICK(float)
PARPRIM_YARDSTICK(std::uint64_t)
PARPRIM_YARDSTICK(double)
#undef PARPRIM_YARDSTICK
template double cub_arg_extremum_ms<float>(session&, const float*, float*, std::int64_t*,
                                           std::int64_t, bool);
template double cub_arg_extremum_ms<double>(session&, const double*, double*, std::int64_t*,
                                            std::int64_t, bool);

}  // namespace parprim::bench::yardstick
