// morton_encode on the GPU: a grid-stride map, one code per thread (the encoding is a few
// dozen integer operations; the pass is bound by reading 12-24 bytes and writing 4-8 per point).
#include <algorithm>

#include "core/morton_code.hpp"
#include "parprim/cuda/detail/launch.cuh"

namespace parprim::cuda_kernels {
namespace {

constexpr int morton_threads = 256;
constexpr std::int64_t morton_max_blocks = 1 << 16;

template <class T, class C>
__global__ void __launch_bounds__(morton_threads)
    morton_kernel(const T* __restrict__ x, const T* __restrict__ y, const T* __restrict__ z,
                  detail::morton_scale<T> s, C* __restrict__ codes, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    codes[i] = detail::morton_code<C>(x[i], y[i], z[i], s);
}

}  // namespace
}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T, class C>
void morton_encode(const context& ctx, span<const T> x, span<const T> y, span<const T> z,
                   const detail::morton_scale<T>& s, span<C> codes) {
  using namespace cuda_kernels;
  const std::int64_t n = x.size();
  use_device(ctx, "morton_encode");
  const auto blocks = static_cast<unsigned>(std::min(morton_max_blocks, ceil_div(n, morton_threads)));
  morton_kernel<T, C><<<blocks, morton_threads, 0, stream_of(ctx)>>>(x.data(), y.data(), z.data(), s,
                                                                     codes.data(), n);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "morton_encode");
}

#define PARPRIM_INSTANTIATE(T, C)                                                                       \
  template void morton_encode<T, C>(const context&, span<const T>, span<const T>, span<const T>, \
                                    const detail::morton_scale<T>&, span<C>);
PARPRIM_INSTANTIATE(float, std::uint32_t)
PARPRIM_INSTANTIATE(float, std::uint64_t)
PARPRIM_INSTANTIATE(double, std::uint32_t)
PARPRIM_INSTANTIATE(double, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
