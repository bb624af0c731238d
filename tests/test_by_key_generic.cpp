// The generic by-key, unique and run-length entry points compiled by the host compiler: every
// case of by_key_generic_cases.hpp on the CPU backend; on a CUDA context the call must throw
// errc::backend_unavailable (the kernel for a caller's operator needs nvcc), never run
// elsewhere. The CUDA backend runs the same cases in tests/cuda/test_by_key_generic_cuda.cu.
#include "by_key_generic_cases.hpp"

namespace parprim {
namespace {

using namespace by_key_generic_cases;

TEST(ByKeyGenericCpu, EveryCase) { every_case(context::cpu(), testing::fresh_seed()); }

TEST(ByKeyGenericCpu, IntoFormsLeaveTheCount) {
  every_into_case(context::cpu(), testing::fresh_seed());
}

TEST(ByKeyGenericCpu, TooSmallOutputsHoldTheFirstRuns) { too_small_outputs(context::cpu()); }

TEST(ByKeyGenericCpu, CudaContextWithoutNvccSaysSo) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  auto k = buffer<group_key>::from_host(ctx, {{1, 0}, {1, 1}});
  auto v = buffer<affine>::from_host(ctx, {{1, 2}, {3, 4}});
  buffer<group_key> ko(ctx, 2);
  buffer<affine> vo(ctx, 2);
  testing::expect_error(
      [&] {
        reduce_by_key(ctx, span<const group_key>(k), span<const affine>(v), span<group_key>(ko),
                      span<affine>(vo), compose{}, same_group{});
      },
      errc::backend_unavailable, {"reduce_by_key", "nvcc"});
  testing::expect_error([&] { unique_count(ctx, span<const group_key>(k), same_group{}); },
                        errc::backend_unavailable, {"unique_count", "nvcc"});
  buffer<std::int64_t> count(ctx, 1);
  testing::expect_error(
      [&] {
        unique_count_into(ctx, span<const group_key>(k), span<std::int64_t>(count), same_group{});
      },
      errc::backend_unavailable, {"unique_count_into", "nvcc"});
}

}  // namespace
}  // namespace parprim
