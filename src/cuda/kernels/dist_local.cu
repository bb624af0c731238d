// CUDA side of the distributed algorithms' element-wise steps (core/dist_local.hpp): a
// grid-stride prefix combine, a position count, one binary search per splitter candidate,
// a merge-path merge of two sorted runs (with their values), and an event that makes one
// stream wait for another.
#include <algorithm>
#include <cstring>

#include "core/dist_local.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

constexpr int dist_threads = 256;
// Enough blocks to fill an H100/H200 several times over for a grid-stride loop.
constexpr std::int64_t dist_max_blocks = 132 * 16;

unsigned grid_for(std::int64_t n) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, std::min(dist_max_blocks, ceil_div(n, dist_threads))));
}

template <class T, class Op>
__global__ void apply_prefix_kernel(T* data, std::int64_t n, T prefix, Op f) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[i] = f(prefix, data[i]);
}

__global__ void iota_kernel(std::int64_t* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = i;
}

// counts[j] = the number of keys whose field is <= bounds[j] (keys sorted by that field).
template <class U>
__global__ void count_at_most_kernel(const U* keys, std::int64_t n, detail::key_order order,
                                     const std::uint64_t* bounds, std::int64_t* counts, int queries) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= queries) return;
  const std::uint64_t bound = bounds[j];
  std::int64_t lo = 0, hi = n;  // first position whose field exceeds bound lies in [lo, hi]
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (detail::order_field(keys[mid], order) <= bound) lo = mid + 1;
    else hi = mid;
  }
  counts[j] = lo;
}

// Outputs per thread of the merge: the merge-path search (log2 n steps) is paid once per 8.
constexpr int merge_items_per_thread = 8;

template <class U, class W>
__global__ void merge_runs_kernel(const U* keys, std::int64_t mid, std::int64_t n, U* out,
                                  const W* values_in, W* values_out, detail::key_order order) {
  const std::int64_t d =
      (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) * merge_items_per_thread;
  if (d < n)
    detail::merge_stretch(keys, mid, n, d, merge_items_per_thread, out, values_in, values_out,
                          order);
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o) {
  using namespace cuda_kernels;
  use_device(ctx, "dist::apply_prefix");
  detail::with_op<T>(o, [&](auto f) {
    apply_prefix_kernel<<<grid_for(data.size()), dist_threads, 0, stream_of(ctx)>>>(
        data.data(), data.size(), prefix, f);
  });
  PARPRIM_LAUNCH_CHECK(ctx.state(), "dist::apply_prefix");
}

void iota(const context& ctx, span<std::int64_t> out) {
  using namespace cuda_kernels;
  use_device(ctx, "dist::iota");
  iota_kernel<<<grid_for(out.size()), dist_threads, 0, stream_of(ctx)>>>(out.data(), out.size());
  PARPRIM_LAUNCH_CHECK(ctx.state(), "dist::iota");
}

template <class K>
void count_at_most(const context& ctx, span<const K> sorted, detail::key_order order,
                   const std::vector<std::uint64_t>& bounds, std::vector<std::int64_t>& counts) {
  using namespace cuda_kernels;
  using U = detail::key_word_t<K>;
  const char* who = "dist::count_at_most";
  use_device(ctx, who);
  const int q = static_cast<int>(bounds.size());
  const std::size_t bytes = bounds.size() * sizeof(std::uint64_t);
  // One allocation for the bounds and the counts (both 8 bytes per query).
  auto* scratch = static_cast<std::uint64_t*>(ctx.allocate(2 * bytes));
  try {
    ctx.copy_from_host(scratch, bounds.data(), bytes);
    auto* dev_counts = reinterpret_cast<std::int64_t*>(scratch + bounds.size());
    count_at_most_kernel<<<static_cast<unsigned>(ceil_div(q, dist_threads)), dist_threads, 0,
                           stream_of(ctx)>>>(reinterpret_cast<const U*>(sorted.data()),
                                             sorted.size(), order, scratch, dev_counts, q);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    ctx.copy_to_host(counts.data(), dev_counts, bytes);
  } catch (...) {
    ctx.deallocate(scratch, 2 * bytes);
    throw;
  }
  ctx.deallocate(scratch, 2 * bytes);
}

template <class K>
void merge_runs(const context& ctx, span<const K> keys, std::int64_t mid, span<K> out,
                const void* values_in, void* values_out, std::size_t value_bytes,
                detail::key_order order) {
  using namespace cuda_kernels;
  using U = detail::key_word_t<K>;
  const char* who = "dist::merge_runs";
  use_device(ctx, who);
  const std::int64_t threads = ceil_div(keys.size(), merge_items_per_thread);
  const auto blocks = static_cast<unsigned>(ceil_div(threads, dist_threads));
  auto launch = [&](auto* vin, auto* vout) {
    merge_runs_kernel<<<blocks, dist_threads, 0, stream_of(ctx)>>>(
        reinterpret_cast<const U*>(keys.data()), mid, keys.size(), reinterpret_cast<U*>(out.data()),
        vin, vout, order);
  };
  // Values move as 4- or 8-byte words: 4 kernels serve every key and value type.
  if (value_bytes == 8)
    launch(static_cast<const std::uint64_t*>(values_in), static_cast<std::uint64_t*>(values_out));
  else if (value_bytes == 4)
    launch(static_cast<const std::uint32_t*>(values_in), static_cast<std::uint32_t*>(values_out));
  else
    launch(static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr));
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

void stream_wait(const context& waiter, const context& signaler) {
  using namespace cuda_kernels;
  const char* who = "dist::stream_wait";
  use_device(signaler, who);
  cudaEvent_t done = nullptr;
  PARPRIM_CUDA_CHECK(signaler.name(), who, cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  // Destroying a recorded event that a stream still waits on is allowed: CUDA releases it
  // once the wait is satisfied.
  const cudaError_t recorded = cudaEventRecord(done, stream_of(signaler));
  const cudaError_t waited =
      recorded == cudaSuccess ? cudaStreamWaitEvent(stream_of(waiter), done, 0) : recorded;
  cudaEventDestroy(done);
  cuda_rt::check(waited, signaler.name(), who, "cudaEventRecord, cudaStreamWaitEvent");
}

#define PARPRIM_INSTANTIATE(T)                                                            \
  template void apply_prefix<T>(const context&, span<T>, T, op);                          \
  template void count_at_most<T>(const context&, span<const T>, detail::key_order,        \
                                 const std::vector<std::uint64_t>&, std::vector<std::int64_t>&); \
  template void merge_runs<T>(const context&, span<const T>, std::int64_t, span<T>,          \
                              const void*, void*, std::size_t, detail::key_order);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
