// reduce and scan beyond 2^31 elements (64-bit offsets), and bitwise reproducibility of float
// results on the GPU, for every algorithm.
//
// The large tests need about 9 GB of device memory and skip when it is not free. Inputs are
// generated and checked on the device (no 8 GB host copies): x[i] = hash(i), and a scan is
// verified through out[i+1] - out[i] == x[i] (u32 arithmetic wraps, which the library
// guarantees), which pins down every element.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "support/test_support.hpp"

namespace parprim {
namespace {

constexpr std::int64_t large_n = (std::int64_t{1} << 31) + 4097;  // past 2^31, ragged last tile

__host__ __device__ std::uint32_t hash32(std::uint64_t i) {
  std::uint64_t z = i + 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>(z ^ (z >> 31));
}

// ---- Device helpers -----------------------------------------------------------------------

__global__ void fill_hash_kernel(std::uint32_t* x, std::int64_t n, std::uint32_t modulus) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    x[i] = modulus ? 1 + hash32(i) % modulus : hash32(i);
}

// Counts elements where the scan of hash32 is wrong.
__global__ void check_scan_kernel(const std::uint32_t* y, std::int64_t n, bool inclusive,
                                  std::uint32_t init, unsigned long long* errors) {
  unsigned long long bad = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t prev = i == 0 ? (inclusive ? 0u : init) : y[i - 1];
    const std::uint32_t step = inclusive ? hash32(i) : (i == 0 ? 0u : hash32(i - 1));
    if (y[i] != static_cast<std::uint32_t>(prev + step)) ++bad;
  }
  if (bad) atomicAdd(errors, bad);
}

// An independent sum: per-thread 64-bit sums, added with integer atomics (order-free).
__global__ void sum_kernel(const std::uint32_t* x, std::int64_t n, unsigned long long* sum) {
  unsigned long long s = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    s += x[i];
  atomicAdd(sum, s);
}

cudaStream_t stream(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

// The caching allocator rounds a request up by as much as 25%; the scans need scratch too.
bool enough_memory(std::size_t bytes) {
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return false;
  return free_bytes > bytes + bytes / 2 + (std::size_t(1) << 30);
}

void fill_hash(const context& ctx, std::uint32_t* x, std::int64_t n, std::uint32_t modulus = 0) {
  fill_hash_kernel<<<4096, 256, 0, stream(ctx)>>>(x, n, modulus);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
}

unsigned long long count_scan_errors(const context& ctx, const std::uint32_t* y, std::int64_t n,
                                     bool inclusive, std::uint32_t init) {
  buffer<unsigned long long> errors(ctx, 1);
  errors.fill_bytes(0);
  check_scan_kernel<<<4096, 256, 0, stream(ctx)>>>(y, n, inclusive, init, errors.data());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  return errors.to_host()[0];
}

// ---- Above 2^31 elements ------------------------------------------------------------------

TEST(CudaLarge, ScanBeyond2To31Elements) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  if (large_n > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N caps sizes";
  if (!enough_memory(large_n * sizeof(std::uint32_t))) GTEST_SKIP() << "not enough device memory";
  context ctx = context::cuda(0);
  buffer<std::uint32_t> x(ctx, large_n);
  const std::uint32_t init = 12345;
  for (scan_algorithm alg : {scan_algorithm::decoupled_lookback, scan_algorithm::hillis_steele,
                             scan_algorithm::blelloch, scan_algorithm::blelloch_conflict_free}) {
    for (bool inclusive : {false, true}) {
      // In place: the only way two copies of 8 GB are not needed.
      fill_hash(ctx, x.data(), large_n);
      if (inclusive) inclusive_scan<std::uint32_t>(ctx, x, x, op::plus, alg);
      else exclusive_scan<std::uint32_t>(ctx, x, x, init, op::plus, alg);
      EXPECT_EQ(count_scan_errors(ctx, x.data(), large_n, inclusive, init), 0u)
          << to_string(alg) << (inclusive ? " inclusive" : " exclusive");
    }
  }
  ctx.synchronize();
}

TEST(CudaLarge, ReduceBeyond2To31Elements) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  if (large_n > testing::max_test_size()) GTEST_SKIP() << "PARPRIM_TEST_MAX_N caps sizes";
  if (!enough_memory(large_n * sizeof(std::uint32_t))) GTEST_SKIP() << "not enough device memory";
  context ctx = context::cuda(0);
  buffer<std::uint32_t> x(ctx, large_n);
  // Values in [1, 10^6], with the unique minimum and maximum placed past 2^31.
  fill_hash(ctx, x.data(), large_n, 1000000);
  const std::uint32_t lo = 0, hi = 2000000;
  ctx.copy_from_host(x.data() + large_n - 3, &lo, sizeof lo);
  ctx.copy_from_host(x.data() + (std::int64_t{1} << 31) + 17, &hi, sizeof hi);
  buffer<unsigned long long> sum(ctx, 1);
  sum.fill_bytes(0);
  sum_kernel<<<4096, 256, 0, stream(ctx)>>>(x.data(), large_n, sum.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  const auto want_sum = static_cast<std::uint32_t>(sum.to_host()[0]);  // u32 sums wrap
  for (reduce_algorithm alg : {reduce_algorithm::production, reduce_algorithm::interleaved,
                               reduce_algorithm::contiguous}) {
    EXPECT_EQ(reduce<std::uint32_t>(ctx, x, op::plus, alg), want_sum) << to_string(alg);
    EXPECT_EQ(reduce<std::uint32_t>(ctx, x, op::min, alg), lo) << to_string(alg);
    EXPECT_EQ(reduce<std::uint32_t>(ctx, x, op::max, alg), hi) << to_string(alg);
  }
}

// ---- Bitwise reproducibility --------------------------------------------------------------

// Runs fn three times: alone, and twice while another stream keeps the GPU busy, so blocks
// start and finish in different orders; returns the three host copies of `out`.
template <class T, class F>
std::vector<std::vector<T>> three_runs(const context& ctx, buffer<T>& out, F&& fn) {
  context other = context::cuda(0);  // its own stream
  buffer<float> noise(other, std::min<std::int64_t>(std::int64_t{1} << 26, 16 * testing::max_test_size()));
  noise.fill_bytes(0);
  std::vector<std::vector<T>> results;
  for (int run = 0; run < 3; ++run) {
    out.fill_bytes(0xA5);
    if (run > 0)
      for (int k = 0; k < 4 * run; ++k) transform<float>(other, noise, noise, unary_op::square);
    fn();
    results.push_back(out.to_host());
  }
  other.synchronize();
  return results;
}

template <class T>
void expect_identical(const std::vector<std::vector<T>>& runs, const std::string& where) {
  for (std::size_t r = 1; r < runs.size(); ++r) {
    ASSERT_EQ(runs[r].size(), runs[0].size());
    EXPECT_EQ(0, std::memcmp(runs[r].data(), runs[0].data(), runs[0].size() * sizeof(T)))
        << where << ": run " << r << " differs from run 0";
  }
}

template <class T>
void check_reproducible(std::uint64_t seed) {
  context ctx = context::cuda(0);
  // Thousands of tiles (fewer under PARPRIM_TEST_MAX_N, for compute-sanitizer runs).
  const std::int64_t n = std::min<std::int64_t>((std::int64_t{1} << 24) + 12345, testing::max_test_size());
  auto x = testing::random_vector<T>(n, seed);
  auto in = buffer<T>::from_host(ctx, x);
  for (reduce_algorithm alg : {reduce_algorithm::production, reduce_algorithm::interleaved,
                               reduce_algorithm::contiguous}) {
    buffer<T> out(ctx, 1);
    auto runs = three_runs<T>(ctx, out, [&] { reduce_into<T>(ctx, in, out, op::plus, alg); });
    expect_identical(runs, std::string("reduce ") + type_name<T>() + " " + to_string(alg));
  }
  for (scan_algorithm alg : {scan_algorithm::decoupled_lookback, scan_algorithm::hillis_steele,
                             scan_algorithm::blelloch, scan_algorithm::blelloch_conflict_free}) {
    for (bool inclusive : {true, false}) {
      buffer<T> out(ctx, n);
      auto runs = three_runs<T>(ctx, out, [&] {
        if (inclusive) inclusive_scan<T>(ctx, in, out, op::plus, alg);
        else exclusive_scan<T>(ctx, in, out, T(0.25), op::plus, alg);
      });
      expect_identical(runs, std::string(inclusive ? "inclusive_scan " : "exclusive_scan ") +
                                 type_name<T>() + " " + to_string(alg));
    }
  }
}

TEST(CudaReproducible, FloatReduceAndScanGiveIdenticalBits) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_reproducible<float>(seed);
  check_reproducible<double>(seed);
}

// The decoupled look-back defines each tile's prefix as the in-order (left) fold of the tile
// totals, whichever predecessor its look-back stopped at. With one nonzero value per 65536
// elements (so no tile holds two, whatever the tuning), every in-tile combination is exact
// and the whole float scan must equal the plain sequential float scan bit for bit; a
// look-back that summed predecessors in timing-dependent (or any other) order would not.
TEST(CudaReproducible, LookbackPrefixIsTheSequentialFoldOfTileTotals) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::int64_t spacing = std::int64_t{1} << 16;
  const std::int64_t n = std::min<std::int64_t>((std::int64_t{1} << 26) + 5, testing::max_test_size());
  const std::uint64_t seed = testing::fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
  std::uniform_int_distribution<int> exponent(-12, 12);
  std::vector<float> x(static_cast<std::size_t>(n), 0.0f);
  for (std::int64_t i = 0; i < n; i += spacing)
    x[i] = std::ldexp(mantissa(g), exponent(g)) * (g() & 1 ? 1.0f : -1.0f);
  auto in = buffer<float>::from_host(ctx, x);
  buffer<float> out(ctx, n);
  for (bool inclusive : {true, false}) {
    const float init = inclusive ? 0.0f : 0.375f;
    std::vector<float> want(x.size());
    float acc = init;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!inclusive) want[i] = acc;
      acc = acc + x[i];
      if (inclusive) want[i] = acc;
    }
    out.fill_bytes(0xA5);
    if (inclusive) inclusive_scan<float>(ctx, in, out);
    else exclusive_scan<float>(ctx, in, out, init);
    auto got = out.to_host();
    std::int64_t bad = 0;
    for (std::int64_t i = 0; i < n; ++i)
      if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0 && bad++ < 3)
        ADD_FAILURE() << (inclusive ? "inclusive" : "exclusive") << " i=" << i << " got " << got[i]
                      << " want " << want[i];
    EXPECT_EQ(bad, 0);
  }
}

}  // namespace
}  // namespace parprim
