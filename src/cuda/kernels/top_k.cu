// CUDA dispatch of the radix select behind top_k (top_k.cuh).
#include <algorithm>

#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/top_k.cuh"
#include "cuda/top_k_backend.hpp"

namespace parprim::cuda_backend {

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest, workspace* ws) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::top_k;
  const char* who = "top_k";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  int sms = 0;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx.device()));
  const std::int64_t tiles = ceil_div(n, tuning::tile);
  const std::size_t state_bytes = detail::align_up(sizeof(select_state<U>));
  const std::size_t hist_bytes = detail::align_up(256 * sizeof(unsigned long long));
  detail::temp_memory temp(ctx, ws, state_bytes + hist_bytes + detail::align_up(std::size_t(tiles) * sizeof(counts)));
  auto* base = temp.as<unsigned char>();
  auto* state = reinterpret_cast<select_state<U>*>(base);
  auto* hist = reinterpret_cast<unsigned long long*>(base + state_bytes);
  auto* tile_counts = reinterpret_cast<counts*>(base + state_bytes + hist_bytes);

  // state = {prefix 0, mask 0, remaining k}; histogram zeroed.
  select_state<U> start{U(0), U(0), static_cast<long long>(k)};
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemcpyAsync(state, &start, sizeof(start), cudaMemcpyHostToDevice, stream));
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(hist, 0, hist_bytes, stream));
  const std::int64_t grid = std::min<std::int64_t>(ceil_div(n, tuning::threads),
                                                   std::int64_t(sms) * tuning::histogram_blocks_per_sm);
  for (int shift = int(sizeof(U)) * 8 - tuning::digit_bits; shift >= 0; shift -= tuning::digit_bits) {
    histogram_kernel<U><<<unsigned(grid), tuning::threads, 0, stream>>>(in, n, kind, largest, shift, state, hist);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    pick_digit_kernel<U><<<1, 256, 0, stream>>>(state, hist, shift);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }
  count_kernel<U><<<unsigned(tiles), tuning::threads, 0, stream>>>(in, n, kind, largest, state, tile_counts);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  scan_counts_kernel<<<1, tuning::scan_threads, 0, stream>>>(tile_counts, tiles);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  place_kernel<U, W><<<unsigned(tiles), tuning::threads, 0, stream>>>(in, values, n, kind, largest, state,
                                                                      tile_counts, out, out_values);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

#define PARPRIM_INSTANTIATE(U, W)                                                             \
  template void top_k<U, W>(const context&, const U*, const W*, std::int64_t, std::int64_t, U*, \
                            W*, detail::key_kind, bool, workspace*);
PARPRIM_INSTANTIATE(std::uint32_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint32_t, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
