// reduce_by_key, unique_count and segmented_reduce beyond 2^31 elements (64-bit positions,
// run indices and tile counts in the runs engine; positions in the warp- and block-per-segment reduces). Inputs are generated and checked on the
// device: key[i] = i / 5, value[i] = 1 + i % 3, so run r holds elements 5r .. 5r + 4 and its
// sum is known in closed form. Needs about 22 GB of device memory and skips otherwise.
#include <cuda_runtime.h>

#include <algorithm>

#include "support/test_support.hpp"

namespace parprim {
namespace {

constexpr std::int64_t large_n = (std::int64_t{1} << 31) + 4099;
constexpr std::int64_t run_length = 5;

__global__ void fill_kernel(std::uint32_t* keys, std::uint32_t* values, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    keys[i] = static_cast<std::uint32_t>(i / run_length);
    values[i] = static_cast<std::uint32_t>(1 + i % 3);
  }
}

__device__ std::uint32_t run_sum(std::int64_t r, std::int64_t n) {
  std::uint32_t s = 0;
  for (std::int64_t i = r * run_length; i < n && i < (r + 1) * run_length; ++i) s += 1 + i % 3;
  return s;
}

__global__ void check_kernel(const std::uint32_t* keys_out, const std::uint32_t* sums,
                             std::int64_t runs, std::int64_t n, unsigned long long* errors) {
  unsigned long long bad = 0;
  for (std::int64_t r = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; r < runs;
       r += std::int64_t(gridDim.x) * blockDim.x)
    if (keys_out[r] != static_cast<std::uint32_t>(r) || sums[r] != run_sum(r, n)) ++bad;
  if (bad) atomicAdd(errors, bad);
}

__global__ void offsets_kernel(std::int64_t* offsets, std::int64_t segments, std::int64_t n,
                               std::int64_t length = run_length) {
  for (std::int64_t s = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; s <= segments;
       s += std::int64_t(gridDim.x) * blockDim.x)
    offsets[s] = s * length < n ? s * length : n;
}

// Segments of `length` (the last one shorter): each sum recomputed from value[i] = 1 + i % 3.
__global__ void check_segments_kernel(const std::uint32_t* sums, std::int64_t segments,
                                      std::int64_t n, std::int64_t length,
                                      unsigned long long* errors) {
  unsigned long long bad = 0;
  for (std::int64_t s = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; s < segments;
       s += std::int64_t(gridDim.x) * blockDim.x) {
    std::uint32_t want = 0;
    for (std::int64_t i = s * length; i < n && i < (s + 1) * length; ++i) want += 1 + i % 3;
    if (sums[s] != want) ++bad;
  }
  if (bad) atomicAdd(errors, bad);
}

bool enough_memory(std::size_t bytes) {
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return false;
  return free_bytes > bytes + (std::size_t(1) << 30);
}

TEST(CudaRunsLarge, ReduceByKeyUniqueCountSegmentedReduceBeyond2To31) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  if (large_n > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N caps sizes";
  const std::int64_t runs = (large_n + run_length - 1) / run_length;
  const std::size_t bytes = std::size_t(large_n) * 8 + std::size_t(runs) * 16;
  if (!enough_memory(bytes)) GTEST_SKIP() << "not enough device memory";
  context ctx = context::cuda(0);
  auto stream = static_cast<cudaStream_t>(ctx.stream());
  buffer<std::uint32_t> keys(ctx, large_n), values(ctx, large_n);
  fill_kernel<<<4096, 256, 0, stream>>>(keys.data(), values.data(), large_n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);

  EXPECT_EQ(unique_count<std::uint32_t>(ctx, keys), runs);

  buffer<std::uint32_t> keys_out(ctx, runs), sums(ctx, runs);
  ASSERT_EQ((reduce_by_key<std::uint32_t, std::uint32_t>(ctx, keys, values, keys_out, sums)), runs);
  buffer<unsigned long long> errors(ctx, 1);
  errors.fill_bytes(0);
  check_kernel<<<4096, 256, 0, stream>>>(keys_out.data(), sums.data(), runs, large_n, errors.data());
  EXPECT_EQ(errors.to_host()[0], 0ull) << "reduce_by_key";

  // The same runs as segments by offsets.
  keys_out.fill_bytes(0);
  buffer<std::int64_t> offsets(ctx, runs + 1);
  offsets_kernel<<<4096, 256, 0, stream>>>(offsets.data(), runs, large_n);
  segmented_reduce<std::uint32_t>(ctx, values, offsets, sums);
  // keys_out must hold r for the check: rebuild it with unique.
  ASSERT_EQ(unique<std::uint32_t>(ctx, keys, keys_out), runs);
  errors.fill_bytes(0);
  check_kernel<<<4096, 256, 0, stream>>>(keys_out.data(), sums.data(), runs, large_n, errors.data());
  EXPECT_EQ(errors.to_host()[0], 0ull) << "segmented_reduce / unique";

  // Segments of 4096 (one block per segment) and of 256 (one warp per segment), reading past
  // 2^31.
  for (std::int64_t medium : {4096, 256}) {
    const std::int64_t segments = (large_n + medium - 1) / medium;
    offsets_kernel<<<4096, 256, 0, stream>>>(offsets.data(), segments, large_n, medium);
    segmented_reduce<std::uint32_t>(ctx, values,
                                    span<const std::int64_t>(offsets.data(), segments + 1),
                                    span<std::uint32_t>(sums.data(), segments));
    errors.fill_bytes(0);
    check_segments_kernel<<<4096, 256, 0, stream>>>(sums.data(), segments, large_n, medium,
                                                    errors.data());
    EXPECT_EQ(errors.to_host()[0], 0ull) << "segmented_reduce of segments of " << medium;
  }
}

// run_length_encode past 2^32 positions: key[i] = i / rle_run, so one run straddles 2^32 and
// every placeholder start the fix-up subtracts is above 2^32 from there on (64-bit lengths and
// positions). Needs about 17 GB of device memory and skips otherwise.
constexpr std::int64_t rle_n = (std::int64_t{1} << 32) + 4099;
constexpr std::int64_t rle_run = 1'000'003;  // spans 123 tiles of 8192 keys

__global__ void fill_rle_kernel(std::uint32_t* keys, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    keys[i] = static_cast<std::uint32_t>(i / rle_run);
}

TEST(CudaRunsLarge, RunLengthEncodeBeyond2To32) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  if (rle_n > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N caps sizes";
  const std::int64_t runs = (rle_n + rle_run - 1) / rle_run;
  if (!enough_memory(std::size_t(rle_n) * 4 + std::size_t(runs) * 12))
    GTEST_SKIP() << "not enough device memory";
  context ctx = context::cuda(0);
  buffer<std::uint32_t> keys(ctx, rle_n);
  fill_rle_kernel<<<4096, 256, 0, static_cast<cudaStream_t>(ctx.stream())>>>(keys.data(), rle_n);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  buffer<std::uint32_t> unique_out(ctx, runs);
  buffer<std::int64_t> lengths(ctx, runs);
  ASSERT_EQ(run_length_encode<std::uint32_t>(ctx, keys, unique_out, lengths), runs);
  const auto got_keys = unique_out.to_host();
  const auto got_lengths = lengths.to_host();
  for (std::int64_t r = 0; r < runs; ++r) {
    ASSERT_EQ(got_keys[r], std::uint32_t(r)) << "run " << r;
    ASSERT_EQ(got_lengths[r], std::min(rle_run, rle_n - r * rle_run)) << "run " << r;
  }
}

}  // namespace
}  // namespace parprim
