// The generic primitives as a CUDA user sees them: public headers only (parprim/parprim.hpp
// brings in parprim/cuda/*.cuh under nvcc), compiled by nvcc with --extended-lambda. Functors
// and lambdas on the GPU (CUDA cases skip where no GPU answers) and on the CPU.
// (nvcc does not allow extended lambdas inside a test body, a private member function, so
// the lambda calls live in free functions.)
#include "public_api/generic_cases.hpp"

namespace parprim {
namespace {

std::int64_t keep_multiples_of(const context& ctx, span<const int> in, span<int> out, int k) {
  return copy_if(ctx, in, out, [k] __host__ __device__(int v) { return v % k == 0; });
}
std::int64_t split_small(const context& ctx, span<const double> in, span<double> out) {
  return partition(ctx, in, out, [] __host__ __device__(double v) { return v < 0.25; });
}
void affine_map(const context& ctx, span<const float> in, span<double> out) {
  transform(ctx, in, out, [] __host__ __device__(float v) { return double(v) * 3.0 + 1.0; });
}
void digits(const context& ctx, span<const std::int64_t> in, span<std::int64_t> out) {
  inclusive_scan(ctx, in, out,
                 [] __host__ __device__(std::int64_t a, std::int64_t b) { return (a * 10 + b) % 1000003; });
}
std::int64_t sum_of_squares(const context& ctx, span<const int> in) {
  return transform_reduce(ctx, in, std::int64_t(0),
                          [] __host__ __device__(int v) { return std::int64_t(v) * v; },
                          [] __host__ __device__(std::int64_t a, std::int64_t b) { return a + b; });
}

void run_lambda_cases(const context& ctx) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (std::int64_t n : generic_cases::sizes()) {
    auto xi = testing::random_vector<int>(n, seed + 1);
    for (auto& v : xi) v %= 1000;
    auto in = buffer<int>::from_host(ctx, xi);
    buffer<int> out(ctx, n);
    std::vector<int> want;
    for (int v : xi)
      if (v % 3 == 0) want.push_back(v);
    ASSERT_EQ(keep_multiples_of(ctx, in.view(), out.view(), 3), std::int64_t(want.size())) << n;
    auto got = out.to_host();
    EXPECT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << n;
    std::int64_t squares = 0;
    for (int v : xi) squares += std::int64_t(v) * v;
    EXPECT_EQ(sum_of_squares(ctx, in.view()), squares) << n;

    auto xd = testing::random_vector<double>(n, seed + 2);
    auto ind = buffer<double>::from_host(ctx, xd);
    buffer<double> outd(ctx, n);
    std::vector<double> sel, rej;
    for (double v : xd) (v < 0.25 ? sel : rej).push_back(v);
    ASSERT_EQ(split_small(ctx, ind.view(), outd.view()), std::int64_t(sel.size())) << n;
    sel.insert(sel.end(), rej.begin(), rej.end());
    EXPECT_EQ(outd.to_host(), sel) << n;

    auto xf = testing::random_vector<float>(n, seed + 3);
    auto inf = buffer<float>::from_host(ctx, xf);
    affine_map(ctx, inf.view(), outd.view());
    auto mapped = outd.to_host();
    for (std::int64_t i = 0; i < n; ++i)
      ASSERT_EQ(mapped[std::size_t(i)], double(xf[std::size_t(i)]) * 3.0 + 1.0) << i;

    std::vector<std::int64_t> xs(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) xs[std::size_t(i)] = (i * 7 + 3) % 10;
    auto ins = buffer<std::int64_t>::from_host(ctx, xs);
    buffer<std::int64_t> outs(ctx, n);
    digits(ctx, ins.view(), outs.view());
    auto scanned = outs.to_host();
    std::int64_t acc = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      acc = i == 0 ? xs[0] : (acc * 10 + xs[std::size_t(i)]) % 1000003;
      ASSERT_EQ(scanned[std::size_t(i)], acc) << "n=" << n << " i=" << i;
    }
  }
}

TEST(PublicApiNvcc, FunctorsOnGpu) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  generic_cases::run_functor_cases(context::cuda(0));
}

TEST(PublicApiNvcc, FloatOperatorsReproducibleOnGpu) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  generic_cases::run_float_cases(context::cuda(0));
}

TEST(PublicApiNvcc, LambdasOnGpu) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  run_lambda_cases(context::cuda(0));
}

TEST(PublicApiNvcc, LambdasOnCpu) { run_lambda_cases(context::cpu()); }

}  // namespace
}  // namespace parprim
