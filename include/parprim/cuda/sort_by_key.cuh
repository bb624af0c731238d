// The CUDA side of radix_sort_by_key (parprim/sort_by_key.hpp), for nvcc only: one kernel
// writes the images, the indices and a copy of the elements; the precompiled Onesweep sorts
// images with indices; a second kernel gathers the elements by the sorted indices.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "parprim/sort_by_key.hpp"

namespace parprim::cuda_sort_by_key {

constexpr int threads = 256;
constexpr int blocks_per_sm = 8;  // grid-stride loops over a few waves of the GPU

template <class T, class I, class Index, class KeyOf>
__global__ void __launch_bounds__(threads)
    extract(const T* data, std::int64_t n, KeyOf key_of, I* images, Index* index, T* copy) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const T x = data[i];
    images[i] = key_of(x);
    index[i] = Index(i);
    copy[i] = x;
  }
}

template <class T, class Index>
__global__ void __launch_bounds__(threads)
    gather(const T* copy, const Index* index, std::int64_t n, T* data) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    data[i] = copy[index[i]];
}

template <class T, class I, class Index, class KeyOf>
void sort(const context& ctx, T* data, std::int64_t n, KeyOf key_of, sort_order order, workspace* ws) {
  const char* who = "radix_sort_by_key";
  auto check = [&](cudaError_t e, const char* what) {
    if (e != cudaSuccess)
      merge_detail::fail(ctx, who, std::string(what) + ": " + cudaGetErrorString(e), errc::device_error);
  };
  check(cudaSetDevice(ctx.device()), "cudaSetDevice");
  const int sms = ctx.multiprocessors();
  cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  sort_by_key_detail::layout<T, I, Index> at(n);
  detail::temp_memory temp(ctx, ws, at.total);  // the sort below leases above it
  I* images = reinterpret_cast<I*>(temp.as<unsigned char>() + at.images);
  Index* index = reinterpret_cast<Index*>(temp.as<unsigned char>() + at.indices);
  T* copy = reinterpret_cast<T*>(temp.as<unsigned char>() + at.copy);
  const std::int64_t wanted = (n + threads - 1) / threads;
  const unsigned grid = unsigned(wanted < std::int64_t(sms) * blocks_per_sm ? wanted : std::int64_t(sms) * blocks_per_sm);
  extract<T, I, Index><<<grid, threads, 0, stream>>>(data, n, key_of, images, index, copy);
  check(cudaGetLastError(), "kernel launch");
  radix_sort_pairs<I, Index>(ctx, span<I>(images, n), span<Index>(index, n), order, 0, -1,
                             sort_algorithm::onesweep, ws);
  gather<T, Index><<<grid, threads, 0, stream>>>(copy, index, n, data);
  check(cudaGetLastError(), "kernel launch");
}

}  // namespace parprim::cuda_sort_by_key

namespace parprim::detail {

template <>
struct cuda_body<sort_by_key_tag, true> {
  template <class T, class KeyOf>
  static void run(const context& ctx, const char*, std::true_type, T* data, std::int64_t n,
                  KeyOf key_of, sort_order order, workspace* ws) {
    using I = std::decay_t<decltype(key_of(std::declval<const T&>()))>;
    if (n <= std::int64_t(UINT32_MAX)) cuda_sort_by_key::sort<T, I, std::uint32_t>(ctx, data, n, key_of, order, ws);
    else cuda_sort_by_key::sort<T, I, std::uint64_t>(ctx, data, n, key_of, order, ws);
  }
};

}  // namespace parprim::detail
