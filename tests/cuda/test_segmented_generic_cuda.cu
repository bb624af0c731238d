// The generic segmented_reduce and segmented scans compiled by nvcc: every case of
// tests/segmented_generic_cases.hpp on the CUDA backend (the CPU backend runs them in
// tests/test_segmented_generic.cpp), and an extended lambda as the operator.
#include "segmented_generic_cases.hpp"
#include "segmented_medium_cases.hpp"

namespace parprim {
namespace {

using namespace segmented_generic_cases;

TEST(SegmentedGenericCuda, EveryCase) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  every_case(context::cuda(0), testing::fresh_seed());
}

// Short-to-medium segments: one warp or one block per segment, three load paths, on both
// sides of each threshold.
TEST(SegmentedGenericCuda, MediumSegmentsAroundThresholds) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  segmented_medium_cases::every_generic_case(context::cuda(0), testing::fresh_seed());
}

// The warp or block kernel of a caller's operator queued behind the offsets check on the
// host's guess: bad offsets on shapes guessed right write nothing, misguessed shapes match
// the oracle.
TEST(SegmentedGenericCuda, GuessedKernelShapes) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  segmented_medium_cases::guessed_generic_cases(context::cuda(0), testing::fresh_seed());
}

TEST(SegmentedGenericCuda, InPlaceScan) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  in_place(context::cuda(0), testing::fresh_seed());
}

TEST(SegmentedGenericCuda, FloatsReproducible) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  floats_reproducible(context::cuda(0), testing::fresh_seed());
}

TEST(SegmentedGenericCuda, BadArguments) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  bad_arguments(context::cuda(0));
}

// Extended lambdas cannot live in a test body (a private member function): a free function.
// The largest value of each segment by a lambda, and its running maximum by flags.
void lambda_case(const context& ctx) {
  const std::vector<float> values{1, 5, 2, 2, 7, 3, 9, 4};
  const std::vector<std::int64_t> offsets{0, 3, 3, 6, 8};
  const std::vector<std::uint8_t> flags{1, 0, 0, 1, 0, 0, 1, 0};
  auto v = buffer<float>::from_host(ctx, values);
  auto o = buffer<std::int64_t>::from_host(ctx, offsets);
  auto f = buffer<std::uint8_t>::from_host(ctx, flags);
  buffer<float> red(ctx, 4), scan(ctx, 8);
  auto larger = [] __host__ __device__(float a, float b) { return a < b ? b : a; };
  segmented_reduce(ctx, span<const float>(v), span<const std::int64_t>(o), span<float>(red), -1.0f,
                   larger);
  segmented_inclusive_scan_by_flags(ctx, span<const float>(v), span<const std::uint8_t>(f),
                                    span<float>(scan), larger);
  EXPECT_EQ(red.to_host(), (std::vector<float>{5, -1, 7, 9}));
  EXPECT_EQ(scan.to_host(), (std::vector<float>{1, 5, 5, 2, 7, 7, 9, 9}));
}

TEST(SegmentedGenericCuda, ExtendedLambdas) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  lambda_case(context::cuda(0));
}

}  // namespace
}  // namespace parprim
