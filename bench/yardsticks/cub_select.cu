// Yardstick: CUB DeviceSelect::If (stream compaction) and DevicePartition::If (selected
// first in order, rejected after them in reverse order) on the session's stream.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>

#include "cub_select.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "time_cub.cuh"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

namespace {
struct less_than {
  std::uint32_t pivot;
  __device__ bool operator()(std::uint32_t x) const { return x < pivot; }
};
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
