// The warp and block building blocks of src/cuda/primitives, tested directly against the
// sequential oracle: warp_reduce, warp_scan, block_reduce and block_scan on fresh random
// inputs, for every op and for integer (exact) and float (tolerance) types, at block sizes of
// one warp, a typical 256 threads and the maximum 1024.
#include <cuda_runtime.h>

#include <cstring>

#include "parprim/detail/op_functors.hpp"
#include "parprim/cuda/detail/block_reduce.cuh"
#include "parprim/cuda/detail/block_scan.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/detail/warp_reduce.cuh"
#include "parprim/cuda/detail/warp_scan.cuh"
#include "reference/reduce_scan_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;
using testing::random_vector;

// ---- Kernels under test ------------------------------------------------------------------

// One warp per 32 inputs: every lane writes its reduction, inclusive, exclusive and total.
template <class T, class Op>
__global__ void warp_primitives_kernel(const T* in, T* reduced, T* inclusive, T* exclusive, T* total) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  Op op;
  const T v = in[i];
  reduced[i] = cuda_prim::warp_reduce(v, op);
  const cuda_prim::warp_scan_result<T> r = cuda_prim::warp_scan(v, op);
  inclusive[i] = r.inclusive;
  exclusive[i] = r.exclusive;
  total[i] = r.total;
}

// One block per Threads inputs: thread 0 writes the block reduction; every thread its
// inclusive and exclusive scan values and the block total.
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads) block_primitives_kernel(const T* in, T* reduced, T* inclusive, T* exclusive, T* total) {
  using reduce_t = cuda_prim::block_reduce<T, Op, Threads>;
  using scan_t = cuda_prim::block_scan<T, Op, Threads>;
  __shared__ typename reduce_t::storage s_reduce;
  __shared__ typename scan_t::storage s_scan;
  const int i = blockIdx.x * Threads + threadIdx.x;
  Op op;
  const T v = in[i];
  const T r = reduce_t::reduce(s_reduce, v, op);
  if (threadIdx.x == 0) reduced[blockIdx.x] = r;
  T inc, exc, tot;
  scan_t::scan(s_scan, v, op, inc, exc, tot);
  inclusive[i] = inc;
  exclusive[i] = exc;
  total[i] = tot;
}

// Copies through 16-byte vectors.
template <class T>
__global__ void vector_copy_kernel(const T* in, T* out, int nvec) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  constexpr int vec = cuda_prim::vec16<T>::size;
  if (v < nvec) cuda_prim::store_vec16(out + v * vec, cuda_prim::load_vec16(in + v * vec));
}

// ---- Oracles and comparison ----------------------------------------------------------------

template <class T>
bool close(T got, reference::acc_t<T> want, op o, double abs_sum, std::int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    if (o != op::plus) return got == static_cast<T>(want);
    return std::abs(double(got) - double(want)) <= testing::float_tolerance<T>(n) * abs_sum + 1e-30;
  } else {
    return got == want;
  }
}

// Checks results for groups of `group` consecutive inputs (a warp or a block).
template <class T>
void check_groups(const std::vector<T>& x, int group, op o, const std::vector<T>& reduced,
                  bool reduced_per_element, const std::vector<T>& inclusive,
                  const std::vector<T>& exclusive, const std::vector<T>& total,
                  const std::string& where) {
  const T identity = static_cast<T>(reference::identity<reference::acc_t<T>>(o));
  int failures = 0;
  for (std::size_t g0 = 0; g0 < x.size(); g0 += group) {
    const auto inc = reference::scan(x.data() + g0, group, o, true, T{});
    const auto sum = reference::reduce(x.data() + g0, group, o);
    double abs_sum = 0;
    for (int k = 0; k < group; ++k) abs_sum += std::abs(double(x[g0 + k]));
    auto fail = [&](const char* what, std::size_t i) {
      if (failures++ < 5) ADD_FAILURE() << where << ": " << what << " wrong at element " << i;
    };
    if (reduced_per_element) {
      for (int k = 0; k < group; ++k) {
        if (!close(reduced[g0 + k], sum, o, abs_sum, group)) fail("reduce", g0 + k);
        // Every lane must hold the same bits.
        if (std::memcmp(&reduced[g0 + k], &reduced[g0], sizeof(T)) != 0) fail("reduce (lanes differ)", g0 + k);
      }
    } else if (!close(reduced[g0 / group], sum, o, abs_sum, group)) {
      fail("reduce", g0);
    }
    for (int k = 0; k < group; ++k) {
      const std::size_t i = g0 + k;
      if (!close(inclusive[i], inc[k], o, abs_sum, group)) fail("inclusive scan", i);
      if (k == 0) {
        if (std::memcmp(&exclusive[i], &identity, sizeof(T)) != 0) fail("exclusive scan (first)", i);
      } else if (!close(exclusive[i], inc[k - 1], o, abs_sum, group)) {
        fail("exclusive scan", i);
      }
      if (!close(total[i], sum, o, abs_sum, group)) fail("total", i);
    }
  }
  EXPECT_EQ(failures, 0) << where;
}

template <class T>
struct device_outputs {
  buffer<T> reduced, inclusive, exclusive, total;
  device_outputs(const context& ctx, std::int64_t n)
      : reduced(ctx, n), inclusive(ctx, n), exclusive(ctx, n), total(ctx, n) {
    for (auto* b : {&reduced, &inclusive, &exclusive, &total}) b->fill_bytes(0xA5);  // poison
  }
};

template <class T, class Op>
void check_warp(const context& ctx, op o, std::uint64_t seed) {
  const int n = 128 * 37;  // 37 blocks of 4 warps (the grid below covers every element)
  auto x = random_vector<T>(n, seed);
  auto in = buffer<T>::from_host(ctx, x);
  device_outputs<T> d(ctx, n);
  warp_primitives_kernel<T, Op><<<n / 128, 128, 0, static_cast<cudaStream_t>(ctx.stream())>>>(
      in.data(), d.reduced.data(), d.inclusive.data(), d.exclusive.data(), d.total.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  check_groups(x, 32, o, d.reduced.to_host(), true, d.inclusive.to_host(), d.exclusive.to_host(),
               d.total.to_host(), std::string("warp ") + type_name<T>() + " " + to_string(o));
}

template <class T, class Op, int Threads>
void check_block(const context& ctx, op o, std::uint64_t seed) {
  const int blocks = 7;
  const int n = Threads * blocks;
  auto x = random_vector<T>(n, seed);
  auto in = buffer<T>::from_host(ctx, x);
  device_outputs<T> d(ctx, n);
  block_primitives_kernel<T, Op, Threads><<<blocks, Threads, 0, static_cast<cudaStream_t>(ctx.stream())>>>(
      in.data(), d.reduced.data(), d.inclusive.data(), d.exclusive.data(), d.total.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);
  check_groups(x, Threads, o, d.reduced.to_host(), false, d.inclusive.to_host(),
               d.exclusive.to_host(), d.total.to_host(),
               std::string("block<") + std::to_string(Threads) + "> " + type_name<T>() + " " + to_string(o));
}

template <class T>
void check_all_ops(const context& ctx, std::uint64_t seed) {
  for (op o : {op::plus, op::min, op::max}) {
    detail::with_op<T>(o, [&](auto f) {
      using Op = decltype(f);
      check_warp<T, Op>(ctx, o, seed);
      check_block<T, Op, 32>(ctx, o, seed + 1);
      check_block<T, Op, 256>(ctx, o, seed + 2);
      check_block<T, Op, 1024>(ctx, o, seed + 3);
    });
  }
}

TEST(CudaPrimitives, WarpAndBlockReduceAndScan) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_all_ops<std::int32_t>(ctx, seed);
  check_all_ops<std::uint64_t>(ctx, seed);
  check_all_ops<float>(ctx, seed);
  check_all_ops<double>(ctx, seed);
}

TEST(CudaPrimitives, VectorLoadsAndStoresKeepEveryElement) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const int nvec = 1000;
    const int n = nvec * cuda_prim::vec16<T>::size;
    auto x = random_vector<T>(n, fresh_seed());
    auto in = buffer<T>::from_host(ctx, x);
    buffer<T> out(ctx, n);
    out.fill_bytes(0xA5);
    ASSERT_TRUE(cuda_prim::aligned16(in.data()) && cuda_prim::aligned16(out.data()));
    ASSERT_FALSE(cuda_prim::aligned16(in.data() + 1));
    vector_copy_kernel<T><<<(nvec + 255) / 256, 256, 0, static_cast<cudaStream_t>(ctx.stream())>>>(
        in.data(), out.data(), nvec);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);
    auto y = out.to_host();
    EXPECT_EQ(0, std::memcmp(x.data(), y.data(), n * sizeof(T))) << type_name<T>();
  };
  run(std::int32_t{});
  run(double{});
}

}  // namespace
}  // namespace parprim
