// The generic primitives as a CUDA user sees them: public headers only (parprim/parprim.hpp
// brings in parprim/cuda/*.cuh under nvcc), compiled by nvcc with --extended-lambda. Functors
// and lambdas on the GPU (CUDA cases skip where no GPU answers) and on the CPU.
// (nvcc does not allow extended lambdas inside a test body, a private member function, so
// the lambda calls live in free functions.)
#include "public_api/comparator_cases.hpp"
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
void concat_digits(const context& ctx, span<const generic_cases::digits> in,
                   span<generic_cases::digits> out) {
  inclusive_scan(ctx, in, out, [] __host__ __device__(const generic_cases::digits& a,
                                                      const generic_cases::digits& b) {
    return generic_cases::concat(a, b);
  });
}
std::int64_t sum_of_squares(const context& ctx, span<const int> in) {
  return transform_reduce(ctx, in, std::int64_t(0),
                          [] __host__ __device__(int v) { return std::int64_t(v) * v; },
                          [] __host__ __device__(std::int64_t a, std::int64_t b) { return a + b; });
}

// Descending merge and search of floats with lambdas.
void merge_descending(const context& ctx, span<const float> a, span<const float> b, span<float> out) {
  merge(ctx, a, b, out, [] __host__ __device__(float x, float y) { return y < x; });
}
void lower_bound_descending(const context& ctx, span<const float> sorted, span<const float> q,
                            span<std::int64_t> out) {
  lower_bound(ctx, sorted, q, out, [] __host__ __device__(float x, float y) { return y < x; });
}

void run_merge_lambda_cases(const context& ctx) {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const auto desc = [](float x, float y) { return y < x; };
  for (std::int64_t n : generic_cases::sizes()) {
    auto a = testing::random_vector<float>(n, seed + 1);
    auto b = testing::random_vector<float>(n / 2 + 1, seed + 2);
    for (auto& v : b) v = float(int(v * 8.0f)) / 8.0f;  // ties with each other
    std::sort(a.begin(), a.end(), desc);
    std::sort(b.begin(), b.end(), desc);
    std::vector<float> want(a.size() + b.size());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(), desc);
    auto da = buffer<float>::from_host(ctx, a), db = buffer<float>::from_host(ctx, b);
    buffer<float> out(ctx, std::int64_t(want.size()));
    merge_descending(ctx, da.view(), db.view(), out.view());
    EXPECT_EQ(out.to_host(), want) << n;
    buffer<std::int64_t> pos(ctx, std::int64_t(b.size()));
    lower_bound_descending(ctx, da.view(), db.view(), pos.view());
    auto got = pos.to_host();
    for (std::size_t i = 0; i < b.size(); ++i)
      ASSERT_EQ(got[i], std::lower_bound(a.begin(), a.end(), b[i], desc) - a.begin()) << n << " " << i;
  }
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

    std::vector<generic_cases::digits> xs(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) xs[std::size_t(i)] = {std::uint32_t((i * 7 + 3) % 10), 10u};
    auto ins = buffer<generic_cases::digits>::from_host(ctx, xs);
    buffer<generic_cases::digits> outs(ctx, n);
    concat_digits(ctx, ins.view(), outs.view());
    auto scanned = outs.to_host();
    generic_cases::digits acc{0, 1};
    for (std::int64_t i = 0; i < n; ++i) {
      acc = generic_cases::concat(acc, xs[std::size_t(i)]);
      ASSERT_EQ(scanned[std::size_t(i)].value, acc.value) << "n=" << n << " i=" << i;
      ASSERT_EQ(scanned[std::size_t(i)].scale, acc.scale) << "n=" << n << " i=" << i;
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

TEST(PublicApiNvcc, MergeAndSearchOnGpu) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  generic_cases::run_merge_search_cases(context::cuda(0));
}

TEST(PublicApiNvcc, MergeLambdasOnGpu) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  run_merge_lambda_cases(context::cuda(0));
}

TEST(PublicApiNvcc, MergeLambdasOnCpu) { run_merge_lambda_cases(context::cpu()); }

// Unsorted inputs are not detected on CUDA (parprim/merge.hpp): the call completes, and
// nothing past the output is written.
TEST(PublicApiNvcc, MergeUnsortedInputStaysInsideOutputOnGpu) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t na = 40000, nb = 30001, guard = 4096;
  auto a = buffer<float>::from_host(ctx, testing::random_vector<float>(na, seed));
  auto b = buffer<float>::from_host(ctx, testing::random_vector<float>(nb, seed + 1));
  buffer<float> out(ctx, na + nb + guard);
  out.fill_bytes(0x5A);
  merge_descending(ctx, a.view(), b.view(), out.view().subspan(0, na + nb));
  ctx.synchronize();
  const auto got = out.to_host();
  float marker;
  std::memset(&marker, 0x5A, sizeof marker);
  for (std::int64_t i = na + nb; i < na + nb + guard; ++i)
    ASSERT_TRUE(generic_cases::same_bits(got[std::size_t(i)], marker)) << i;
}

}  // namespace
}  // namespace parprim
