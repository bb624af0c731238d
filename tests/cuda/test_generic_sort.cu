// merge_sort / merge_sort_pairs and radix_sort_by_key compiled by nvcc: the GPU paths on every
// case of tests/merge_sort_cases.hpp and tests/sort_by_key_cases.hpp (the CPU backend runs
// them in tests/test_merge_sort.cpp and tests/test_sort_by_key.cpp).
#include "merge_sort_cases.hpp"
#include "sort_by_key_cases.hpp"

namespace parprim {
namespace {

TEST(MergeSortCuda, EveryCase) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  merge_sort_cases::every_case(context::cuda(0), testing::fresh_seed());
}

TEST(MergeSortCuda, OrderedInputs) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  merge_sort_cases::ordered_inputs(context::cuda(0));
}

// A device lambda as the comparator (nvcc --extended-lambda), descending by the low 8 bits.
// Extended lambdas cannot live in a test body (a private member function): free functions.
void lambda_comparator_case() {
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 g(seed);
  std::vector<std::uint32_t> v(std::min<std::int64_t>(200'003, testing::max_test_size()));
  for (auto& x : v) x = std::uint32_t(g());
  auto low_byte_desc = [] __host__ __device__(std::uint32_t a, std::uint32_t b) { return (a & 255u) > (b & 255u); };
  merge_sort_cases::check_keys(context::cuda(0), v, low_byte_desc, "lambda");
}

TEST(MergeSortCuda, ExtendedLambdaComparator) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  lambda_comparator_case();
}

TEST(SortByKeyCuda, EveryCase) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  sort_by_key_cases::every_case(context::cuda(0), testing::fresh_seed());
}

// A device lambda as the extractor: a signed field through its order-preserving image.
void lambda_extractor_case() {
  auto recs = merge_sort_cases::make_records(std::min<std::int64_t>(60'013, testing::max_test_size()),
                                             testing::fresh_seed(), 1000);
  auto signed_image = [] __host__ __device__(const merge_sort_cases::record& r) {
    return std::uint32_t(std::int32_t(r.key) - 500) ^ 0x80000000u;
  };
  sort_by_key_cases::check(context::cuda(0), recs, signed_image, sort_order::ascending, "lambda");
}

TEST(SortByKeyCuda, ExtendedLambdaSignedField) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  lambda_extractor_case();
}

}  // namespace
}  // namespace parprim
