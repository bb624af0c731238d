// The generic by-key, unique and run-length entry points compiled by nvcc: every case of
// tests/by_key_generic_cases.hpp on the CUDA backend (the CPU backend runs them in
// tests/test_by_key_generic.cpp), and an extended lambda as the operator.
#include "by_key_generic_cases.hpp"
#include "by_key_inputs.hpp"
#include "segmented_generic_cases.hpp"

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

// 16-byte values (mat2 products over wrapping u32: exact, associative, not commutative) by u32
// keys: one element around the reductions' 128 x 9 tiles and the scans' 256 x 5, and past
// the pipelined kernels' 128 tiles, on a 16-byte boundary (pipelined) and one element off it
// (one block per tile), against the sequential loop.
using segmented_generic_cases::mat2;
using segmented_generic_cases::mat_mul;

void check_mat2_runs(const context& ctx, std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  const auto keys = by_key_inputs::make_keys<std::uint32_t>(n, mean_run, seed);
  const auto values = segmented_generic_cases::make_values(n, seed + 1);
  const mat2 init{1, 0, 0, 1};
  std::vector<std::uint32_t> want_keys;
  std::vector<mat2> want_folds, want_inclusive(values.size()), want_exclusive(values.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const bool head = i == 0 || keys[i - 1] != keys[i];
    want_exclusive[i] = head ? init : mat_mul{}(want_exclusive[i - 1], values[i - 1]);
    if (head) {
      want_keys.push_back(keys[i]);
      want_folds.push_back(values[i]);
    } else {
      want_folds.back() = mat_mul{}(want_folds.back(), values[i]);
    }
    want_inclusive[i] = want_folds.back();
  }
  const by_key_inputs::twin<std::uint32_t> k(ctx, keys);
  const by_key_inputs::twin<mat2> v(ctx, values);
  for (bool off : {false, true}) {
    const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run) +
                              " offset=" + std::to_string(int(off));
    const span<const std::uint32_t> ks = k.at(off);
    const span<const mat2> vs = v.at(off);
    buffer<std::uint32_t> keys_out(ctx, n);
    buffer<mat2> folds(ctx, n), inclusive(ctx, n), exclusive(ctx, n);
    for (auto* b : {&folds, &inclusive, &exclusive}) b->fill_bytes(0xA5);
    const std::int64_t runs = reduce_by_key(ctx, ks, vs, span<std::uint32_t>(keys_out), span<mat2>(folds), mat_mul{});
    inclusive_scan_by_key(ctx, ks, vs, span<mat2>(inclusive), mat_mul{});
    exclusive_scan_by_key(ctx, ks, vs, span<mat2>(exclusive), init, mat_mul{});
    ASSERT_EQ(runs, std::int64_t(want_keys.size())) << where;
    auto got_keys = keys_out.to_host();
    auto got_folds = folds.to_host();
    got_keys.resize(std::size_t(runs));
    got_folds.resize(std::size_t(runs));
    EXPECT_EQ(got_keys, want_keys) << where;
    EXPECT_TRUE(got_folds == want_folds) << where << ": reduce_by_key";
    EXPECT_TRUE(inclusive.to_host() == want_inclusive) << where << ": inclusive_scan_by_key";
    EXPECT_TRUE(exclusive.to_host() == want_exclusive) << where << ": exclusive_scan_by_key";
  }
}

TEST(ByKeyGenericCuda, SixteenByteValues) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const context ctx = context::cuda(0);
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  constexpr std::int64_t reduce_tile = by_key_inputs::cuda_tile<16, true>;
  constexpr std::int64_t scan_tile = by_key_inputs::cuda_tile<16>;
  for (std::int64_t n : {reduce_tile - 1, reduce_tile, reduce_tile + 1, scan_tile - 1, scan_tile,
                         scan_tile + 1, 2 * reduce_tile + 1, 1100 * scan_tile + 17}) {
    if (n > testing::max_test_size()) continue;
    for (std::int64_t mean_run : {by_key_inputs::distinct_neighbours, std::int64_t(8),
                                  std::int64_t(9000), std::int64_t(0)})
      check_mat2_runs(ctx, n, mean_run, seed + std::uint64_t(n));
  }
}

}  // namespace
}  // namespace parprim
