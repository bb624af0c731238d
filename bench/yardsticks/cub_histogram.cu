// Yardstick: CUB DeviceHistogram::HistogramEven. Temporary storage is allocated once outside
// the timed region (CUB's fastest use).
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <limits>

#include "cub_histogram.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

template <class T>
double cub_histogram_even_ms(session& s, const T* samples, std::int64_t n, int num_bins, T lower,
                             T upper, unsigned* counts) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  const char* what = "cub::DeviceHistogram::HistogramEven";
  // 32-bit sample counts where they fit (CUB's usual offset type), 64-bit beyond.
  auto call = [&](void* temp, std::size_t& bytes) {
    if (n <= std::numeric_limits<int>::max())
      return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, counts, num_bins + 1, lower,
                                                 upper, static_cast<int>(n), stream);
    return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, counts, num_bins + 1, lower,
                                               upper, n, stream);
  };
  std::size_t bytes = 0;
  PARPRIM_CUDA_CHECK(s.ctx().name(), what, call(nullptr, bytes));
  buffer<unsigned char> temp(s.ctx(), static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1)));
  void* p = temp.data();
  return s.time_ms([&] { PARPRIM_CUDA_CHECK(s.ctx().name(), what, call(p, bytes)); });
}

template double cub_histogram_even_ms<std::uint32_t>(session&, const std::uint32_t*, std::int64_t,
                                                     int, std::uint32_t, std::uint32_t, unsigned*);
template double cub_histogram_even_ms<float>(session&, const float*, std::int64_t, int, float,
                                             float, unsigned*);

}  // namespace parprim::bench::yardstick
