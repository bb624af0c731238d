// Every bad input the reduce/scan/transform front ends reject: a parprim::error whose message
// names the function, the backend and the argument, and nothing written.
#include "support/test_support.hpp"

namespace parprim {
namespace {

using ::testing::HasSubstr;
using testing::expect_error;

class Errors : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override { PARPRIM_SKIP_IF_NO_BACKEND(GetParam()); }
};

TEST_P(Errors, SizeMismatch) {
  context ctx = testing::make_context(GetParam());
  buffer<float> in(ctx, 100), out(ctx, 99);
  out.fill_bytes(0x11);
  std::string name = "[" + ctx.name() + "]";
  expect_error([&] { exclusive_scan<float>(ctx, in, out); }, errc::invalid_argument,
               {"parprim::exclusive_scan", name, "in.size()=100 but out.size()=99"});
  expect_error([&] { inclusive_scan<float>(ctx, in, out); }, errc::invalid_argument,
               {"parprim::inclusive_scan", "in.size()=100 but out.size()=99"});
  expect_error([&] { transform<float>(ctx, in, out, unary_op::abs); }, errc::invalid_argument,
               {"parprim::transform", "in.size()=100 but out.size()=99"});
  // Nothing was written.
  for (float v : out.to_host()) {
    unsigned bits;
    std::memcpy(&bits, &v, 4);
    ASSERT_EQ(bits, 0x11111111u);
  }
}

TEST_P(Errors, NullDataWithElements) {
  context ctx = testing::make_context(GetParam());
  span<const std::int32_t> null_in(nullptr, 10);
  buffer<std::int32_t> out(ctx, 10);
  expect_error([&] { (void)reduce<std::int32_t>(ctx, null_in); }, errc::invalid_argument,
               {"parprim::reduce", "in.data() is null but in.size()=10"});
  expect_error([&] { inclusive_scan<std::int32_t>(ctx, null_in, out); }, errc::invalid_argument,
               {"in.data() is null"});
}

TEST_P(Errors, NegativeSize) {
  context ctx = testing::make_context(GetParam());
  buffer<double> b(ctx, 4);
  span<const double> bad(b.data(), -4);
  expect_error([&] { (void)reduce<double>(ctx, bad); }, errc::invalid_argument,
               {"in.size()=-4 is negative"});
  expect_error([&] { buffer<double> x(ctx, -1); }, errc::invalid_argument, {"n=-1 is negative"});
}

TEST_P(Errors, PartialOverlap) {
  context ctx = testing::make_context(GetParam());
  buffer<std::uint32_t> b(ctx, 100);
  auto v = b.view();
  expect_error([&] { inclusive_scan<std::uint32_t>(ctx, v.subspan(0, 50).as_const(), v.subspan(10, 50)); },
               errc::invalid_argument, {"in and out overlap without being the same range"});
  buffer<std::uint32_t> one(ctx, 1);
  expect_error([&] { reduce_into<std::uint32_t>(ctx, v.as_const(), v.subspan(3, 1)); },
               errc::invalid_argument, {"parprim::reduce_into", "in and out overlap"});
}

TEST_P(Errors, BadOptions) {
  context ctx = testing::make_context(GetParam());
  buffer<float> in(ctx, 8), out(ctx, 8);
  expect_error([&] { (void)reduce<float>(ctx, in, static_cast<op>(7)); }, errc::invalid_argument,
               {"op=7 is not a known option"});
  expect_error(
      [&] { inclusive_scan<float>(ctx, in, out, op::plus, static_cast<scan_algorithm>(-1)); },
      errc::invalid_argument, {"algorithm=-1 is not a known option"});
  expect_error([&] { transform<float>(ctx, in, out, static_cast<unary_op>(42)); },
               errc::invalid_argument, {"f=42 is not a known option"});
  buffer<float> two(ctx, 2);
  expect_error([&] { reduce_into<float>(ctx, in, two); }, errc::invalid_argument,
               {"out.size()=2 but must be 1"});
}

TEST_P(Errors, WorkspaceFromAnotherContext) {
  context ctx = testing::make_context(GetParam());
  context other = context::cpu();
  workspace ws(other);
  buffer<float> in(ctx, 8);
  expect_error([&] { (void)reduce<float>(ctx, in, op::plus, reduce_algorithm::production, &ws); },
               errc::invalid_argument, {"workspace belongs to another context"});
}

TEST_P(Errors, BackendMismatch) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "needs a GPU to make device memory";
  context gpu = context::cuda(0);
  context cpu = context::cpu();
  buffer<float> device_data(gpu, 16);
  std::vector<float> host(16);
  // Device memory handed to the CPU backend, and host memory handed to the CUDA backend.
  expect_error([&] { (void)reduce<float>(cpu, device_data.view()); }, errc::invalid_argument,
               {"parprim::reduce [cpu]", "cpu backend cannot access"});
  expect_error([&] { (void)reduce<float>(gpu, span<const float>(host)); }, errc::invalid_argument,
               {"parprim::reduce [cuda:0]", "cuda backend cannot access"});
}

INSTANTIATE_TEST_SUITE_P(All, Errors, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(ContextErrors, CudaWithoutDevice) {
  if (testing::cuda_usable()) {
    EXPECT_THROW(context::cuda(1000), error);
    GTEST_SKIP() << "a GPU is present: the no-device message cannot be shown";
  }
  expect_error([] { (void)context::cuda(0); }, errc::backend_unavailable,
               {"parprim::context::cuda [cuda:0]"});
  EXPECT_EQ(context::best_available().kind(), backend::cpu);
}

TEST(ContextErrors, NegativeThreads) {
  expect_error([] { (void)context::cpu(-2); }, errc::invalid_argument, {"threads=-2 is negative"});
}

}  // namespace
}  // namespace parprim
