// Bad input that used to crash or give a silent wrong answer: sizes whose byte counts wrap,
// allocation sizes near 2^64, unbounded thread counts, and even-bin scales that overflow.
// Each case gets a parprim::error naming the call and the argument; valid neighbours of each
// case still compute the right answer.
#include <limits>

#include "core/context_state.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::expect_error;

class Reliability : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override { PARPRIM_SKIP_IF_NO_BACKEND(GetParam()); }
};

TEST_P(Reliability, BufferWhoseByteCountWrapsIsRefused) {
  context ctx = testing::make_context(GetParam());
  // 2^62 floats are 2^64 bytes: the byte count used to wrap to 0 and the buffer "succeeded".
  expect_error([&] { buffer<float> b(ctx, std::int64_t(1) << 62); }, errc::out_of_memory,
               {"parprim::buffer", "n=4611686018427387904", "more than any memory holds"});
  expect_error([&] { buffer<double> b(ctx, std::int64_t(1) << 61); }, errc::out_of_memory,
               {"parprim::buffer", "n=2305843009213693952"});
  expect_error([&] { buffer<double> b(ctx, std::numeric_limits<std::int64_t>::max()); },
               errc::out_of_memory, {"parprim::buffer"});
}

TEST_P(Reliability, SpanWhoseByteCountWrapsIsRefused) {
  context ctx = testing::make_context(GetParam());
  buffer<float> small(ctx, 16);
  // A span claiming 2^62 floats: validation used to overflow in size_bytes() and the
  // primitive then ran over memory.
  span<const float> huge(small.data(), std::int64_t(1) << 62);
  span<float> huge_out(small.data(), std::int64_t(1) << 62);
  expect_error([&] { transform<float>(ctx, huge, huge_out, unary_op::abs); }, errc::invalid_argument,
               {"parprim::transform", "in.size()=4611686018427387904", "more than any memory holds"});
  expect_error([&] { (void)reduce<float>(ctx, huge); }, errc::invalid_argument,
               {"parprim::reduce", "more than any memory holds"});
  // The largest accepted count is still accepted by the check (the sizes then disagree).
  buffer<float> out(ctx, 16);
  expect_error([&] { transform<float>(ctx, small, out.view().subspan(0, 15), unary_op::abs); },
               errc::invalid_argument, {"in.size()=16 but out.size()=15"});
}

TEST_P(Reliability, AllocationNear2To64IsRefused) {
  context ctx = testing::make_context(GetParam());
  // The size-class rounding used to wrap to a tiny class and hand out a tiny block.
  const std::size_t near_max = std::numeric_limits<std::size_t>::max() - 100;
  expect_error([&] { (void)ctx.allocate(near_max); }, errc::out_of_memory,
               {"parprim::allocate", "more than any memory holds"});
  expect_error([&] { (void)ctx.allocate((std::size_t(1) << 62) + 1); }, errc::out_of_memory,
               {"more than any memory holds"});
  // The context still serves ordinary requests.
  void* p = ctx.allocate(1000);
  ASSERT_NE(p, nullptr);
  ctx.deallocate(p, 1000);
}

TEST(ReliabilityAllocator, SizeClassNeverRoundsDown) {
  for (int log2 = 8; log2 < 64; ++log2)
    for (std::size_t delta : {std::size_t(0), std::size_t(1), std::size_t(255)}) {
      const std::size_t base = std::size_t(1) << log2;
      for (std::size_t bytes : {base - delta, base + delta}) {
        const std::size_t cls = detail::allocation_size_class(bytes);
        ASSERT_GE(cls, bytes) << bytes;
        if (bytes <= detail::max_allocation_bytes) {
          ASSERT_EQ(cls % 256, 0u) << bytes;
          ASSERT_LE(cls - bytes, bytes / 4 + 256) << bytes;  // at most 25% slack
        }
      }
    }
  EXPECT_GE(detail::allocation_size_class(std::numeric_limits<std::size_t>::max()),
            std::numeric_limits<std::size_t>::max());
}

TEST(ReliabilityContext, CpuThreadsAreBounded) {
  // 100000 threads used to overflow the stack inside the OpenMP runtime; 40000 made libgomp
  // end the process.
  expect_error([] { (void)context::cpu(100000); }, errc::invalid_argument,
               {"parprim::context::cpu [cpu]", "threads=100000", "above the limit of 1024"});
  expect_error([] { (void)context::cpu(1025); }, errc::invalid_argument, {"threads=1025"});
  EXPECT_EQ(context::cpu(detail::max_cpu_threads).threads(), 1024);
  // More threads than cores, within the limit, still compute the right answer.
  context ctx = context::cpu(7);
  std::vector<std::int64_t> v(100003);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::int64_t(i) - 5000;
  std::int64_t expected = 0;
  for (auto x : v) expected += x;
  EXPECT_EQ(reduce<std::int64_t>(ctx, span<const std::int64_t>(v)), expected);
}

TEST_P(Reliability, HistogramWithInfiniteBinScaleIsRefused) {
  context ctx = testing::make_context(GetParam());
  auto samples = buffer<float>::from_host(ctx, std::vector<float>{0.0f, 1e-41f, 5e-41f});
  buffer<std::uint64_t> bins(ctx, 1024);
  // 1024 / 1e-40 is above FLT_MAX: every sample used to land in the last bin.
  expect_error([&] { histogram<float>(ctx, samples, bins, 1024, 0.0f, 1e-40f); }, errc::invalid_argument,
               {"parprim::histogram", "num_bins=1024", "is not finite in f32"});
  auto dsamples = buffer<double>::from_host(ctx, std::vector<double>{0.0, 1e-321});
  expect_error([&] { histogram<double>(ctx, dsamples, bins, 1024, 0.0, 1e-320); },
               errc::invalid_argument, {"is not finite in f64"});
  // A narrow range whose scale is finite is fine: 4 / 1e-30 = 4e30.
  buffer<std::uint64_t> four(ctx, 4);
  auto narrow = buffer<float>::from_host(ctx, std::vector<float>{0.0f, 0.3e-30f, 0.6e-30f, 0.9e-30f, 2e-30f});
  histogram<float>(ctx, narrow, four, 4, 0.0f, 1e-30f);
  EXPECT_EQ(four.to_host(), (std::vector<std::uint64_t>{1, 1, 1, 1}));
}

TEST_P(Reliability, SplitWithInfiniteBucketScaleIsRefused) {
  context ctx = testing::make_context(GetParam());
  auto in = buffer<double>::from_host(ctx, std::vector<double>{0.0, 1e-321, 3e-321, 9e-321});
  buffer<double> out(ctx, 4);
  // 4 / 1e-320 overflows a double: every element used to land in the last bucket.
  expect_error([&] { split<double>(ctx, in, out, bucket_fn::even_range(0.0, 1e-320, 4)); },
               errc::invalid_argument, {"parprim::split", "even_range buckets=4", "is not finite"});
  // A finite scale (4 / 1e-300) over the same numbers is accepted: all in bucket 0, in order.
  buffer<std::int64_t> offsets(ctx, 5);
  split<double>(ctx, in, out, bucket_fn::even_range(0.0, 1e-300, 4), offsets);
  EXPECT_EQ(out.to_host(), (std::vector<double>{0.0, 1e-321, 3e-321, 9e-321}));
  EXPECT_EQ(offsets.to_host(), (std::vector<std::int64_t>{0, 4, 4, 4, 4}));
}

INSTANTIATE_TEST_SUITE_P(All, Reliability, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace parprim
