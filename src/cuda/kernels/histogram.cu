// histogram with even bins on the GPU.
//
// Up to histogram_shared_bins bins: a persistent grid where every block counts into
// privatized counters in shared memory, laid out [bin][copy] with `copies` copies (a power of
// two, 32 for 256 bins or fewer). Thread t counts into copy t % copies, so the 32 lanes of a
// warp use distinct copies: with 32 copies a warp's increments fall into 32 distinct banks
// whatever the samples are (bank = (bin * 32 + lane) % 32 = lane), and even all-equal
// samples do not serialize on one counter. Samples arrive in 16-byte vector loads, several
// per thread before any is counted. At the end each block adds its copies together and
// flushes every non-zero bin with one global atomic.
//
// More bins: warp-aggregated global atomics (lanes that hit the same bin elect one lane to
// add their count), so skewed data costs one atomic per warp instead of 32.
#include <algorithm>

#include "core/histogram_bins.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "cuda/tuning/gather_scatter_tuning.hpp"
#include "parprim/histogram.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::histogram_tuning;
using cuda_prim::vec16;

template <class T>
__global__ void __launch_bounds__(tuning::threads)
    histogram_shared_kernel(const T* __restrict__ samples, std::int64_t n, std::int64_t head,
                            std::int64_t nvec, detail::even_bins<T> bin_of, int copies_log2,
                            unsigned long long* __restrict__ bins_out) {
  extern __shared__ std::uint32_t counters[];  // [bin][copy]
  const std::uint32_t bins = bin_of.bins;
  const std::uint32_t copy_mask = (1u << copies_log2) - 1;
  const std::uint32_t total = bins << copies_log2;

  // Phase 1: zero the block's privatized counters.
  for (std::uint32_t i = threadIdx.x; i < total; i += blockDim.x) counters[i] = 0;
  __syncthreads();

  // Phase 2: count. Vector body in grid-stride steps, then the scalar head and tail.
  const std::uint32_t slot = threadIdx.x & copy_mask;
  auto count = [&](T s) {
    const std::uint32_t b = bin_of(s);
    if (b != detail::no_bin) atomicAdd(&counters[(b << copies_log2) | slot], 1u);
  };
  constexpr int vec = vec16<T>::size;
  constexpr int per = tuning::vectors_per_step;
  const std::int64_t gid = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  const T* body = samples + head;
  for (std::int64_t v0 = gid; v0 < nvec; v0 += per * stride) {
    vec16<T> x[per];
#pragma unroll
    for (int u = 0; u < per; ++u)
      if (v0 + u * stride < nvec) x[u] = cuda_prim::load_vec16(body + (v0 + u * stride) * vec);
#pragma unroll
    for (int u = 0; u < per; ++u)
      if (v0 + u * stride < nvec) {
#pragma unroll
        for (int j = 0; j < vec; ++j) count(x[u].v[j]);
      }
  }
  const std::int64_t tail_begin = head + nvec * vec;
  const std::int64_t scalars = head + (n - tail_begin);
  for (std::int64_t s = gid; s < scalars; s += stride) count(samples[s < head ? s : tail_begin + (s - head)]);
  __syncthreads();

  // Phase 3: add the copies of each bin (starting at a different copy in each lane, so a
  // warp's reads spread over the banks) and flush the non-zero sums.
  for (std::uint32_t b = threadIdx.x; b < bins; b += blockDim.x) {
    std::uint32_t sum = 0;
    for (std::uint32_t c = 0; c <= copy_mask; ++c) sum += counters[(b << copies_log2) | ((c + b) & copy_mask)];
    if (sum != 0) atomicAdd(bins_out + b, static_cast<unsigned long long>(sum));
  }
}

template <class T>
__global__ void __launch_bounds__(tuning::global_threads)
    histogram_global_kernel(const T* __restrict__ samples, std::int64_t n, detail::even_bins<T> bin_of,
                            unsigned long long* __restrict__ bins_out) {
  const int lane = threadIdx.x & 31;
  const std::int64_t warp = (static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const std::int64_t warps = (static_cast<std::int64_t>(gridDim.x) * blockDim.x) >> 5;
  // Whole warps iterate together (the loop bound is the same for all lanes), as the match
  // below needs every lane.
  for (std::int64_t start = warp * 32; start < n; start += warps * 32) {
    const std::int64_t i = start + lane;
    const std::uint32_t b = i < n ? bin_of(samples[i]) : detail::no_bin;
    const unsigned peers = __match_any_sync(0xFFFFFFFFu, b);
    if (b != detail::no_bin && lane == __ffs(peers) - 1)
      atomicAdd(bins_out + b, static_cast<unsigned long long>(__popc(peers)));
  }
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

using namespace cuda_kernels;

template <class T>
void histogram(const context& ctx, span<const T> samples, span<std::uint64_t> bins_out,
               std::int64_t num_bins, T lower, T upper) {
  const char* who = "histogram";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t n = samples.size();
  const auto bin_of = detail::make_even_bins(lower, upper, num_bins);
  auto* out = reinterpret_cast<unsigned long long*>(bins_out.data());
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(out, 0, bins_out.size_bytes(), stream));
  const int sms = ctx.multiprocessors();

  if (num_bins > histogram_shared_bins) {
    const std::int64_t blocks = std::min<std::int64_t>(
        std::int64_t(sms) * (2048 / tuning::global_threads), ceil_div(n, tuning::global_threads));
    histogram_global_kernel<T><<<static_cast<unsigned>(blocks), tuning::global_threads, 0, stream>>>(
        samples.data(), n, bin_of, out);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }

  // Copies: the most (a power of two, at most one per lane) that fit the counter budget.
  int copies_log2 = 0;
  while ((1 << (copies_log2 + 1)) <= tuning::max_copies &&
         num_bins * (std::int64_t(1) << (copies_log2 + 1)) <= tuning::shared_counters)
    ++copies_log2;
  const std::size_t smem = static_cast<std::size_t>(num_bins << copies_log2) * sizeof(std::uint32_t);

  // Head up to the first 16-byte boundary, vector body, scalar tail.
  constexpr int vec = cuda_prim::vec16<T>::size;
  const std::uintptr_t mis = reinterpret_cast<std::uintptr_t>(samples.data()) & 15u;
  std::int64_t head = n, nvec = 0;
  if (mis % sizeof(T) == 0) {
    head = std::min<std::int64_t>(n, static_cast<std::int64_t>((16 - mis) % 16 / sizeof(T)));
    nvec = (n - head) / vec;
  }

  // A persistent grid: as many blocks as fit at once, fewer for small inputs, and enough
  // that no block counts 2^31 samples (its u32 counters cannot overflow).
  int per_sm = 0;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &per_sm, histogram_shared_kernel<T>, tuning::threads, smem));
  const std::int64_t per_block_step = std::int64_t(tuning::threads) * vec * tuning::vectors_per_step;
  std::int64_t blocks = std::min<std::int64_t>(std::int64_t(sms) * std::max(per_sm, 1),
                                               ceil_div(n, per_block_step));
  blocks = std::max<std::int64_t>({blocks, ceil_div(n, std::int64_t(1) << 31), 1});
  histogram_shared_kernel<T><<<static_cast<unsigned>(blocks), tuning::threads, smem, stream>>>(
      samples.data(), n, head, nvec, bin_of, copies_log2, out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void histogram<T>(const context&, span<const T>, span<std::uint64_t>, std::int64_t, \
                             T, T);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
