// The course's 1-bit split radix sort on the GPU: the teaching version, one split per bit.
//
// For each bit, from begin_bit up to end_bit - 1, exactly as in the slides:
//   kernel 1   e[i] = 1 when bit b[i] of key i is 0
//   scan       f = exclusive scan of e (the library's own parprim::exclusive_scan)
//   kernel 2   totalFalses = e[n-1] + f[n-1]; t[i] = i - f[i] + totalFalses;
//              d[i] = b[i] ? t[i] : f[i]; out[d[i]] = in[i] (values alike)
// Each split is stable, so splitting on every bit from the lowest sorts. It moves every key
// once per bit (8 to 64 times) where Onesweep moves it once per 8 bits: the ladder row shows
// what digits and local ranking buy. e and f are 32-bit while n fits, 64-bit beyond.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "core/sort_keys.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/sort_backend.hpp"
#include "cuda/tuning/sort_tuning.hpp"
#include "parprim/scan.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::split_sort_tuning;

// ---- Kernel 1: e = (bit == 0) --------------------------------------------------------------
template <class U, class Off>
__global__ void __launch_bounds__(tuning::threads)
    split_flags(const U* keys, std::int64_t n, detail::key_kind kind, bool descending, int bit,
                Off* e) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    e[i] = detail::key_field(keys[i], kind, descending, bit, 1) == 0 ? Off(1) : Off(0);
}

// ---- Kernel 2: totalFalses, t, d and the scatter -----------------------------------------------
template <class U, class W, bool HasValues, class Off>
__global__ void __launch_bounds__(tuning::threads)
    split_scatter(const U* keys_in, U* keys_out, const W* values_in, W* values_out, const Off* e,
                  const Off* f, std::int64_t n) {
  const Off total_falses = e[n - 1] + f[n - 1];
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const bool b = e[i] == 0;
    const Off t = Off(i) - f[i] + total_falses;  // f[i] <= i: no wrap-around
    const Off d = b ? t : f[i];
    keys_out[d] = keys_in[i];
    if constexpr (HasValues) values_out[d] = values_in[i];
  }
}

template <class U, class W, bool HasValues, class Off>
void split_sort(const context& ctx, const detail::sort_request& r, workspace* ws) {
  const char* who = HasValues ? "radix_sort_pairs" : "radix_sort";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const int sms = ctx.multiprocessors();
  const std::int64_t n = r.n;
  using detail::align_up;
  const std::size_t flag_bytes = align_up(std::size_t(n) * sizeof(Off));
  const std::size_t keys_bytes = align_up(std::size_t(n) * sizeof(U));
  const std::size_t values_bytes = HasValues ? std::size_t(n) * sizeof(W) : 0;
  detail::temp_memory temp(ctx, ws, 2 * flag_bytes + keys_bytes + values_bytes);
  unsigned char* p = temp.as<unsigned char>();
  Off* e = reinterpret_cast<Off*>(p);
  Off* f = reinterpret_cast<Off*>(p + flag_bytes);
  U* src_keys = static_cast<U*>(r.keys);
  U* dst_keys = reinterpret_cast<U*>(p + 2 * flag_bytes);
  W* src_values = static_cast<W*>(r.values);
  W* dst_values = HasValues ? reinterpret_cast<W*>(p + 2 * flag_bytes + keys_bytes) : nullptr;

  const int grid = int(std::min<std::int64_t>(ceil_div(n, tuning::threads),
                                              std::int64_t(sms) * tuning::blocks_per_sm));
  for (int bit = r.begin_bit; bit < r.end_bit; ++bit) {
    split_flags<U, Off><<<grid, tuning::threads, 0, stream>>>(src_keys, n, r.kind, r.descending,
                                                               bit, e);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    exclusive_scan<Off>(ctx, span<const Off>(e, n), span<Off>(f, n), Off(0));
    split_scatter<U, W, HasValues, Off><<<grid, tuning::threads, 0, stream>>>(
        src_keys, dst_keys, src_values, dst_values, e, f, n);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    std::swap(src_keys, dst_keys);
    std::swap(src_values, dst_values);
  }
  // An odd number of bits leaves the result in the temporary copy.
  if (src_keys != static_cast<U*>(r.keys)) {
    PARPRIM_CUDA_CHECK(ctx.name(), who,
                       cudaMemcpyAsync(r.keys, src_keys, std::size_t(n) * sizeof(U),
                                       cudaMemcpyDeviceToDevice, stream));
    if (HasValues)
      PARPRIM_CUDA_CHECK(ctx.name(), who,
                         cudaMemcpyAsync(r.values, src_values, std::size_t(n) * sizeof(W),
                                         cudaMemcpyDeviceToDevice, stream));
  }
}

template <class U, class Off>
void split_by_value(const context& ctx, const detail::sort_request& r, workspace* ws) {
  if (r.value_bytes == 4) split_sort<U, std::uint32_t, true, Off>(ctx, r, ws);
  else if (r.value_bytes == 8) split_sort<U, std::uint64_t, true, Off>(ctx, r, ws);
  else split_sort<U, std::uint32_t, false, Off>(ctx, r, ws);
}

template <class U>
void split_by_offset(const context& ctx, const detail::sort_request& r, workspace* ws) {
  // totalFalses and every t[i] are at most n: 32-bit offsets hold them while n < 2^32.
  if (r.n <= std::int64_t(UINT32_MAX)) split_by_value<U, std::uint32_t>(ctx, r, ws);
  else split_by_value<U, std::uint64_t>(ctx, r, ws);
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

void radix_sort_split_1bit(const context& ctx, const detail::sort_request& r, workspace* ws) {
  switch (r.key_bytes) {
    case 1: return cuda_kernels::split_by_offset<std::uint8_t>(ctx, r, ws);
    case 2: return cuda_kernels::split_by_offset<std::uint16_t>(ctx, r, ws);
    case 4: return cuda_kernels::split_by_offset<std::uint32_t>(ctx, r, ws);
    default: return cuda_kernels::split_by_offset<std::uint64_t>(ctx, r, ws);
  }
}

}  // namespace parprim::cuda_backend
