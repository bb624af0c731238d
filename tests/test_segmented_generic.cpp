// The generic segmented_reduce and segmented scans compiled by the host compiler: every case
// of segmented_generic_cases.hpp on the CPU backend; on a CUDA context the call must throw
// errc::backend_unavailable (the kernel for a caller's operator needs nvcc), never run
// elsewhere. The CUDA backend runs the same cases in tests/cuda/test_segmented_generic_cuda.cu.
#include "segmented_generic_cases.hpp"
#include "segmented_medium_cases.hpp"

namespace parprim {
namespace {

using namespace segmented_generic_cases;

TEST(SegmentedGenericCpu, EveryCase) { every_case(context::cpu(), testing::fresh_seed()); }

TEST(SegmentedGenericCpu, MediumSegmentsAroundThresholds) {
  segmented_medium_cases::every_generic_case(context::cpu(), testing::fresh_seed());
}

TEST(SegmentedGenericCpu, GuessedKernelShapes) {
  segmented_medium_cases::guessed_generic_cases(context::cpu(), testing::fresh_seed());
}

TEST(SegmentedGenericCpu, InPlaceScan) { in_place(context::cpu(), testing::fresh_seed()); }

TEST(SegmentedGenericCpu, FloatsReproducible) {
  floats_reproducible(context::cpu(), testing::fresh_seed());
}

TEST(SegmentedGenericCpu, BadArguments) { bad_arguments(context::cpu()); }

TEST(SegmentedGenericCpu, CudaContextWithoutNvccSaysSo) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  auto in = buffer<mat2>::from_host(ctx, std::vector<mat2>(4, mat2{1, 2, 3, 4}));
  auto off = buffer<std::int64_t>::from_host(ctx, {0, 2, 4});
  buffer<mat2> out(ctx, 2);
  testing::expect_error(
      [&] {
        segmented_reduce(ctx, span<const mat2>(in), span<const std::int64_t>(off),
                         span<mat2>(out), mat2{}, mat_mul{});
      },
      errc::backend_unavailable, {"segmented_reduce", "nvcc", "parprim/cuda/segmented.cuh"});
}

}  // namespace
}  // namespace parprim
