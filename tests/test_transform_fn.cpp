// transform_fn: any host callable on the CPU backend; the CUDA context is refused with a
// message that points at parprim/cuda/transform.cuh.
#include "parprim/transform_fn.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

TEST(TransformFn, LambdaOverEdgeSizes) {
  context ctx = context::cpu();
  for (std::int64_t n : testing::edge_sizes()) {
    auto x = testing::random_vector<std::int64_t>(n, testing::fresh_seed());
    std::vector<double> y(static_cast<std::size_t>(n), -1.0);
    transform_fn(ctx, span<const std::int64_t>(x), span<double>(y),
                 [](std::int64_t v) { return double(v % 1000) * 0.5; });
    for (std::int64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], double(x[i] % 1000) * 0.5) << i;
  }
}

TEST(TransformFn, RejectsMismatchAndCudaContext) {
  std::vector<int> x(4), y(3);
  EXPECT_THROW(transform_fn(context::cpu(), span<const int>(x), span<int>(y), [](int v) { return v; }),
               error);
  if (testing::cuda_usable()) {
    try {
      transform_fn(context::cuda(0), span<const int>(x), span<int>(x), [](int v) { return v; });
      ADD_FAILURE() << "no error";
    } catch (const error& e) {
      EXPECT_THAT(e.what(), ::testing::HasSubstr("parprim/cuda/transform.cuh"));
    }
  }
}

}  // namespace
}  // namespace parprim
