// The CUDA side of the generic lower_bound / upper_bound (parprim/search.hpp), for nvcc only:
// one thread per query runs the CPU body's binary search (detail/cpu/search.hpp), so both
// backends give the same positions. The precompiled search (tiles of queries streaming a
// key range through shared memory) works on key images of the six types and does not apply
// to a caller's comparator.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "parprim/cuda/merge_sort.cuh"
#include "parprim/detail/cpu/search.hpp"
#include "parprim/search.hpp"

namespace parprim::cuda_search {

struct search_tuning {
  static constexpr int threads = 256;
  // Grid cap; more queries are taken by a grid-stride loop (132 SMs x 8 blocks of 256 threads
  // fill an H100 several times over).
  static constexpr std::int64_t max_blocks = 132 * 8 * 4;
};

template <bool Upper, class T, class Comp>
__global__ void __launch_bounds__(search_tuning::threads)
    bound_kernel(const T* sorted, std::int64_t n, const T* queries, std::int64_t nq,
                 std::int64_t* out, Comp comp) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t q = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; q < nq; q += stride)
    out[q] = detail::cpu::bound_of<Upper>(sorted, n, queries[q], comp);
}

}  // namespace parprim::cuda_search

namespace parprim::detail {

template <>
struct cuda_body<search_tag, true> {
  template <bool Upper, class T, class Comp>
  static void run(const context& ctx, const char* who, std::bool_constant<Upper>, const T* sorted,
                  std::int64_t n, const T* queries, std::int64_t nq, std::int64_t* out,
                  Comp comp) {
    using tuning = cuda_search::search_tuning;
    const cudaError_t set = cudaSetDevice(ctx.device());
    if (set != cudaSuccess)
      merge_detail::fail(ctx, who, std::string("cudaSetDevice: ") + cudaGetErrorString(set), errc::device_error);
    const std::int64_t blocks = std::min((nq + tuning::threads - 1) / tuning::threads, tuning::max_blocks);
    cuda_search::bound_kernel<Upper><<<unsigned(blocks), tuning::threads, 0,
                                       static_cast<cudaStream_t>(ctx.stream())>>>(
        sorted, n, queries, nq, out, comp);
    cuda_merge::check_launch(ctx, who);
  }
};

}  // namespace parprim::detail
