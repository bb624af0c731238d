// Yardsticks: the naive gather and scatter, one thread per element.
#include "naive_gather_scatter.hpp"

#include <cuda_runtime.h>

#include "parprim/cuda/detail/check.hpp"

namespace parprim::bench::yardstick {

namespace {
template <class T, class I>
__global__ void naive_gather(const T* values, const I* indices, T* out, std::int64_t n) {
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = values[indices[i]];
}

template <class T, class I>
__global__ void naive_scatter(const T* values, const I* indices, T* out, std::int64_t n) {
  std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[indices[i]] = values[i];
}

unsigned blocks_of(std::int64_t n) { return static_cast<unsigned>((n + 255) / 256); }
}  // namespace

template <class T, class I>
double naive_gather_ms(session& s, const T* values, const I* indices, T* out, std::int64_t n) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  return s.time_ms([&] {
    naive_gather<T, I><<<blocks_of(n), 256, 0, stream>>>(values, indices, out, n);
    PARPRIM_CUDA_CHECK(s.ctx().name(), "naive_gather", cudaGetLastError());
  });
}

template <class T, class I>
double naive_scatter_ms(session& s, const T* values, const I* indices, T* out, std::int64_t n) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  return s.time_ms([&] {
    naive_scatter<T, I><<<blocks_of(n), 256, 0, stream>>>(values, indices, out, n);
    PARPRIM_CUDA_CHECK(s.ctx().name(), "naive_scatter", cudaGetLastError());
  });
}

#define PARPRIM_YARDSTICK(T, I)                                                              \
  template double naive_gather_ms<T, I>(session&, const T*, const I*, T*, std::int64_t);     \
  template double naive_scatter_ms<T, I>(session&, const T*, const I*, T*, std::int64_t);
PARPRIM_YARDSTICK(std::uint32_t, std::int32_t)
PARPRIM_YARDSTICK(std::uint64_t, std::int64_t)
#undef PARPRIM_YARDSTICK

}  // namespace parprim::bench::yardstick
