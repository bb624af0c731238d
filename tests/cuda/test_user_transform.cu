// parprim::cuda::transform with a device lambda, on the GPU and on the CPU fallback path.
// (nvcc does not allow extended lambdas inside a test body, a private member function, so
// each call lives in a free function.)
#include <gtest/gtest.h>

#include "parprim/buffer.hpp"
#include "parprim/cuda/transform.cuh"
#include "support/test_support.hpp"

namespace parprim {
namespace {

void affine_on_device(const context& ctx, span<const float> in, span<double> out) {
  parprim::cuda::transform(ctx, in, out, [] __device__(float v) { return double(v) * 3.0 + 1.0; });
}

void square_anywhere(const context& ctx, span<const int> in, span<int> out) {
  parprim::cuda::transform(ctx, in, out, [] __host__ __device__(int v) { return v * v; });
}

TEST(CudaUserTransform, DeviceLambdaMatchesHost) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  for (std::int64_t n : testing::edge_sizes()) {
    auto x = testing::random_vector<float>(n, testing::fresh_seed());
    auto in = buffer<float>::from_host(ctx, x);
    buffer<double> out(ctx, n);
    out.fill_bytes(0xFF);
    affine_on_device(ctx, in.view(), out.view());
    auto got = out.to_host();
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], double(x[i]) * 3.0 + 1.0) << i;
  }
}

TEST(CudaUserTransform, HostDeviceLambdaOnCpuContext) {
  std::vector<int> x{1, 2, 3, 4, 5}, y(5, -1);
  square_anywhere(context::cpu(), span<const int>(x), span<int>(y));
  EXPECT_EQ(y, (std::vector<int>{1, 4, 9, 16, 25}));
}

TEST(CudaUserTransform, SizeMismatchIsAnError) {
  std::vector<int> x(3), y(2);
  EXPECT_THROW(square_anywhere(context::cpu(), span<const int>(x), span<int>(y)), error);
}

}  // namespace
}  // namespace parprim
