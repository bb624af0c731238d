// parprim::cuda::transform with a device lambda, on the GPU and on the CPU fallback path.
#include <gtest/gtest.h>

#include "parprim/buffer.hpp"
#include "parprim/cuda/transform.cuh"
#include "support/test_support.hpp"

namespace parprim {
namespace {

TEST(CudaUserTransform, DeviceLambdaMatchesHost) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  for (std::int64_t n : testing::edge_sizes()) {
    auto x = testing::random_vector<float>(n, testing::fresh_seed());
    auto in = buffer<float>::from_host(ctx, x);
    buffer<double> out(ctx, n);
    out.fill_bytes(0xFF);
    parprim::cuda::transform(ctx, in.view(), out.view(),
                             [] __device__(float v) { return double(v) * 3.0 + 1.0; });
    auto got = out.to_host();
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(got[i], double(x[i]) * 3.0 + 1.0) << i;
  }
}

TEST(CudaUserTransform, HostDeviceLambdaOnCpuContext) {
  context ctx = context::cpu();
  std::vector<int> x{1, 2, 3, 4, 5}, y(5, -1);
  parprim::cuda::transform(ctx, span<const int>(x), span<int>(y),
                           [] __host__ __device__(int v) { return v * v; });
  EXPECT_EQ(y, (std::vector<int>{1, 4, 9, 16, 25}));
}

TEST(CudaUserTransform, SizeMismatchIsAnError) {
  context ctx = context::cpu();
  std::vector<int> x(3), y(2);
  EXPECT_THROW(parprim::cuda::transform(ctx, span<const int>(x), span<int>(y),
                                        [] __host__ __device__(int v) { return v; }),
               error);
}

}  // namespace
}  // namespace parprim
