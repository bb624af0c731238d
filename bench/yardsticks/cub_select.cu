// Yardstick: CUB DeviceSelect::If (stream compaction) and DevicePartition::If (selected
// first in order, rejected after them in reverse order) on the session's stream.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>

#include "cub_select.hpp"
#include "cuda/check.hpp"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

namespace {
struct less_than {
  std::uint32_t pivot;
  __device__ bool operator()(std::uint32_t x) const { return x < pivot; }
};

template <class Call>
double time_cub(session& s, const char* what, Call call) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  std::size_t bytes = 0;
  PARPRIM_CUDA_CHECK(s.ctx().name(), what, call(nullptr, bytes, stream));
  buffer<unsigned char> temp(s.ctx(), static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1)));
  void* p = temp.data();
  return s.time_ms([&] { PARPRIM_CUDA_CHECK(s.ctx().name(), what, call(p, bytes, stream)); });
}
}  // namespace

double cub_select_if_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                        std::int64_t* count, std::int64_t n, std::uint32_t pivot) {
  return time_cub(s, "cub::DeviceSelect::If", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DeviceSelect::If(t, b, in, out, count, n, less_than{pivot}, st);
  });
}

double cub_partition_if_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                           std::int64_t* count, std::int64_t n, std::uint32_t pivot) {
  return time_cub(s, "cub::DevicePartition::If", [&](void* t, std::size_t& b, cudaStream_t st) {
    return cub::DevicePartition::If(t, b, in, out, count, n, less_than{pivot}, st);
  });
}

}  // namespace parprim::bench::yardstick
