// The generic primitives as a user without nvcc sees them: public headers only, compiled by
// the host compiler. CPU contexts run the generic bodies; a CUDA context must refuse a
// caller's operator with a message saying to compile with nvcc.
#include "public_api/generic_cases.hpp"

namespace parprim {
namespace {

TEST(PublicApiHost, FunctorsMatchSequentialFolds) {
  generic_cases::run_functor_cases(context::cpu());
}

TEST(PublicApiHost, FloatOperatorsReproducible) {
  generic_cases::run_float_cases(context::cpu());
}

TEST(PublicApiHost, LambdasOnCpu) {
  std::vector<int> x{5, -3, 8, 0, -1, 7}, y(6), z(6);
  context ctx = context::cpu();
  std::int64_t kept = copy_if(ctx, span<const int>(x), span<int>(y), [](int v) { return v > 0; });
  EXPECT_EQ(kept, 3);
  EXPECT_EQ(std::vector<int>(y.begin(), y.begin() + 3), (std::vector<int>{5, 8, 7}));
  transform(ctx, span<const int>(x), span<int>(z), [](int v) { return v * v; });
  EXPECT_EQ(z, (std::vector<int>{25, 9, 64, 0, 1, 49}));
  // Non-commutative: string-like concatenation of digits, base 10.
  std::vector<std::int64_t> d{1, 2, 3, 4}, e(4);
  inclusive_scan(ctx, span<const std::int64_t>(d), span<std::int64_t>(e),
                 [](std::int64_t a, std::int64_t b) { return a * 10 + b; });
  EXPECT_EQ(e, (std::vector<std::int64_t>{1, 12, 123, 1234}));
}

TEST(PublicApiHost, CudaContextNeedsNvcc) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  buffer<float> in(ctx, 16);
  in.fill_bytes(0);
  try {
    reduce(ctx, in.view(), 0.0f, generic_cases::float_plus{});
    FAIL() << "a caller's operator on a CUDA context compiled without nvcc must throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("nvcc"));
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim::transform_reduce [cuda:0]"));
  }
  buffer<float> out(ctx, 16);
  EXPECT_THROW(inclusive_scan(ctx, in.view(), out.view(), generic_cases::float_plus{}), error);
  EXPECT_THROW(copy_if(ctx, in.view(), out.view(), [](float v) { return v > 0; }), error);
  EXPECT_THROW(transform(ctx, in.view(), out.view(), [](float v) { return v; }), error);
}

}  // namespace
}  // namespace parprim
