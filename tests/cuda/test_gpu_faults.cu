// Faults on the GPU (skipped without one): an allocation past the device's memory and
// temporaries of a primitive that do not fit are errc::out_of_memory naming the call and the
// size, the caller's data survives and the context stays usable with nothing leaked; a kernel
// fault is reported by the call that caused it under PARPRIM_DEBUG_SYNC=1.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "core/context_state.hpp"
#include "parprim/buffer.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::expect_error;

std::int64_t free_device_bytes() {
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return -1;
  return std::int64_t(free_bytes);
}

TEST(GpuFaults, AllocationPastDeviceMemoryIsOutOfMemory) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::int64_t total = cuda_devices().at(0).global_memory_bytes;
  const std::int64_t n = total / std::int64_t(sizeof(float)) * 2;  // twice the device's memory
  const std::size_t size_class = detail::allocation_size_class(std::size_t(n) * sizeof(float));
  expect_error([&] { buffer<float> b(ctx, n); }, errc::out_of_memory,
               {"parprim::allocate [cuda:0]", "cudaMalloc of " + std::to_string(size_class) + " bytes failed"});
  // The context is still usable.
  std::vector<std::int32_t> host(100000, 3);
  auto in = buffer<std::int32_t>::from_host(ctx, host);
  EXPECT_EQ(reduce<std::int32_t>(ctx, in), 300000);
}

// Keys that fit, whose sort temporaries (another copy of the keys) do not: the error names
// radix_sort, the keys are as they were, and once memory is back the same context sorts them.
TEST(GpuFaults, SortTemporariesThatDoNotFit) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::int64_t n = std::int64_t(1) << 26;  // 256 MiB of keys
  const auto host = testing::random_vector<std::uint32_t>(n, testing::fresh_seed());
  auto keys = buffer<std::uint32_t>::from_host(ctx, host);
  ctx.synchronize();
  ctx.release_cached_memory();
  const std::int64_t free_before = free_device_bytes();

  // Fill the rest of the device with ballast, in halving chunks down to 1 MiB.
  std::vector<buffer<std::uint8_t>> ballast;
  for (std::int64_t chunk = std::int64_t(1) << 32; chunk >= (std::int64_t(1) << 20); chunk /= 2) {
    for (;;) {
      try {
        ballast.emplace_back(ctx, chunk);
      } catch (const error& e) {
        ASSERT_EQ(e.code(), errc::out_of_memory) << e.what();
        break;
      }
    }
  }
  ASSERT_LT(free_device_bytes(), n * 4) << "the ballast should leave less than the sort's temporaries";
  expect_error([&] { radix_sort<std::uint32_t>(ctx, keys); }, errc::out_of_memory,
               {"parprim::radix_sort [cuda:0]", "cudaMalloc of"});
  EXPECT_EQ(keys.to_host(), host) << "a failed sort changed the caller's keys";

  // Nothing leaked: with the ballast gone and the cache released, the free memory is back.
  ballast.clear();
  ctx.release_cached_memory();
  EXPECT_GE(free_device_bytes(), free_before - (std::int64_t(64) << 20));
  radix_sort<std::uint32_t>(ctx, keys);
  auto sorted = host;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(keys.to_host(), sorted);
}

// A span that claims more elements than its allocation (a lie validation cannot see) makes
// transform read and write far past the buffer: an illegal-address fault. Run in a child
// process (the fault ruins the CUDA context); exit code 0 means the expected report came from
// the expected call.
[[noreturn]] void fault_child(bool debug_sync) {
  if (debug_sync) setenv("PARPRIM_DEBUG_SYNC", "1", 1);  // read once, at the first launch check
  else unsetenv("PARPRIM_DEBUG_SYNC");
  context ctx = context::cuda(0);
  buffer<float> small(ctx, 1024);
  span<float> lie(small.data(), std::int64_t(1) << 34);
  const char* reported_by = "nothing";
  std::string message;
  try {
    transform<float>(ctx, lie.as_const(), lie, unary_op::abs);
    reported_by = "a later call";
    ctx.synchronize();
  } catch (const error& e) {
    message = e.what();
    if (std::string(reported_by) == "nothing") reported_by = "transform";
    if (e.code() != errc::device_error) reported_by = "a wrong error code";
  }
  std::fprintf(stderr, "fault reported by %s: %s\n", reported_by, message.c_str());
  const bool pinned = std::string(reported_by) == "transform" &&
                      message.find("parprim::transform [cuda:0]") != std::string::npos &&
                      message.find("PARPRIM_DEBUG_SYNC") != std::string::npos;
  // Without debug sync the launch check may still catch a fault that was quick enough: only
  // the code and that the report came at all are certain.
  const bool reported = std::string(reported_by) == "a later call" || std::string(reported_by) == "transform";
  std::_Exit((debug_sync ? pinned : reported) ? 0 : 1);
}

TEST(GpuFaults, DebugSyncPinsAKernelFaultToItsCall) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: no CUDA state inherited
  EXPECT_EXIT(fault_child(true), ::testing::ExitedWithCode(0), "fault reported by transform");
  // Without it, the same fault surfaces as a device_error too, usually at the next
  // synchronizing call (parprim::synchronize) rather than at the call that caused it.
  EXPECT_EXIT(fault_child(false), ::testing::ExitedWithCode(0), "fault reported by");
}

}  // namespace
}  // namespace parprim
