// transform with any device callable (nvcc only): out[i] = f(in[i]).
//
//   parprim::cuda::transform(ctx, in, out, [] __device__ (float x) { return x * x + 1; });
//
// On a CUDA context this launches a grid-stride kernel on ctx.stream() and returns without
// synchronizing; on a CPU context it runs the callable on the host (it must then be
// __host__ __device__). Launch errors are raised as parprim::error. Lambdas need nvcc's
// --extended-lambda flag.
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda {

namespace detail {
template <class T, class U, class F>
__global__ void transform_kernel(const T* __restrict__ x, U* __restrict__ y, std::int64_t n, F f) {
  std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    y[i] = f(x[i]);
}
}  // namespace detail

template <class T, class U, class F>
void transform(const context& ctx, span<const T> in, span<U> out, F f) {
  auto fail = [&](const std::string& what, errc code = errc::invalid_argument) {
    throw error(code, "parprim::cuda::transform [" + ctx.name() + "]: " + what);
  };
  if (in.size() != out.size())
    fail("in.size()=" + std::to_string(in.size()) + " but out.size()=" + std::to_string(out.size()));
  if (in.size() < 0) fail("in.size()=" + std::to_string(in.size()) + " is negative");
  if (in.size() == 0) return;
  if (in.data() == nullptr || out.data() == nullptr) fail("null data with in.size() > 0");
  if (!ctx.can_access(in.data())) fail("in points to memory the backend cannot access");
  if (!ctx.can_access(out.data())) fail("out points to memory the backend cannot access");
  if (ctx.kind() == backend::cpu) {
    for (std::int64_t i = 0; i < in.size(); ++i) out.data()[i] = f(in.data()[i]);
    return;
  }
  // Enough blocks to fill the GPU several times over; the grid-stride loop covers any n.
  constexpr int threads = 256;
  std::int64_t blocks = (in.size() + threads - 1) / threads;
  if (blocks > 65536) blocks = 65536;
  detail::transform_kernel<<<static_cast<unsigned>(blocks), threads, 0,
                             static_cast<cudaStream_t>(ctx.stream())>>>(in.data(), out.data(),
                                                                        in.size(), f);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    fail(std::string("kernel launch failed: ") + cudaGetErrorString(e), errc::device_error);
}

}  // namespace parprim::cuda
