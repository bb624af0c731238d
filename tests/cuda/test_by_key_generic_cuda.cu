// The generic by-key, unique and run-length entry points compiled by nvcc: every case of
// tests/by_key_generic_cases.hpp on the CUDA backend (the CPU backend runs them in
// tests/test_by_key_generic.cpp), and an extended lambda as the operator.
#include "by_key_generic_cases.hpp"

namespace parprim {
namespace {

using namespace by_key_generic_cases;

TEST(ByKeyGenericCuda, EveryCase) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  every_case(context::cuda(0), testing::fresh_seed());
}

// The stream-ordered forms with the caller's equality and operator: count in device memory.
TEST(ByKeyGenericCuda, IntoFormsLeaveTheCount) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  every_into_case(context::cuda(0), testing::fresh_seed());
}

TEST(ByKeyGenericCuda, TooSmallOutputsHoldTheFirstRuns) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  too_small_outputs(context::cuda(0));
}

// Extended lambdas cannot live in a test body (a private member function): a free function.
// Keys equal when they agree in their low 4 bits; values folded with max by a lambda.
void lambda_case(const context& ctx) {
  const std::vector<std::uint32_t> keys{0x10, 0x20, 0x31, 0x41, 0x05, 0x15, 0x25, 0x06};
  const std::vector<float> values{1, 5, 2, 2, 7, 3, 9, 4};
  auto k = buffer<std::uint32_t>::from_host(ctx, keys);
  auto v = buffer<float>::from_host(ctx, values);
  buffer<std::uint32_t> ko(ctx, 8);
  buffer<float> vo(ctx, 8);
  auto low_nibble = [] __host__ __device__(std::uint32_t a, std::uint32_t b) { return (a & 15u) == (b & 15u); };
  auto larger = [] __host__ __device__(float a, float b) { return a < b ? b : a; };
  ASSERT_EQ(reduce_by_key(ctx, span<const std::uint32_t>(k), span<const float>(v),
                          span<std::uint32_t>(ko), span<float>(vo), larger, low_nibble), 4);
  auto got_k = ko.to_host();
  auto got_v = vo.to_host();
  got_k.resize(4);
  got_v.resize(4);
  EXPECT_EQ(got_k, (std::vector<std::uint32_t>{0x10, 0x31, 0x05, 0x06}));
  EXPECT_EQ(got_v, (std::vector<float>{5, 2, 9, 4}));
}

TEST(ByKeyGenericCuda, ExtendedLambdas) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  lambda_case(context::cuda(0));
}

}  // namespace
}  // namespace parprim
