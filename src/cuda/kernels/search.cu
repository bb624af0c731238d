// CUDA dispatch of lower_bound / upper_bound (kernel bodies in search.cuh).
#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/search.cuh"
#include "cuda/search_merge_backend.hpp"

namespace parprim::cuda_backend {

namespace {

template <class U, bool Upper>
void launch_search(const context& ctx, const U* sorted, std::int64_t n, const U* queries,
                   std::int64_t m, std::int64_t* out, detail::key_order<U> ord, const char* who) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::searching;
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t tiles = ceil_div(m, tuning::tile);
  if (tiles <= std::int64_t(tuning::per_query_max_tiles_per_sm) * ctx.multiprocessors()) {
    per_query_kernel<U, Upper><<<unsigned(ceil_div(m, tuning::threads)), tuning::threads, 0, stream>>>(
        sorted, n, queries, m, out, ord);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  detail::temp_memory ranges(ctx, nullptr, detail::align_up(std::size_t(2 * tiles) * 8));
  range_kernel<U, Upper><<<unsigned(ceil_div(2 * tiles, tuning::threads)), tuning::threads, 0,
                           stream>>>(sorted, n, queries, m, tiles, ranges.as<std::int64_t>(), ord);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  const search_args<U> p{sorted, n, queries, m, ranges.as<std::int64_t>(), out, ord};
  search_kernel<U, Upper><<<unsigned(tiles), tuning::threads, 0, stream>>>(p);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace

template <class U>
void search(const context& ctx, const U* sorted, std::int64_t n, const U* queries,
            std::int64_t m, std::int64_t* out, detail::key_order<U> ord, bool upper) {
  const char* who = upper ? "upper_bound" : "lower_bound";
  cuda_kernels::use_device(ctx, who);
  if (upper) launch_search<U, true>(ctx, sorted, n, queries, m, out, ord, who);
  else launch_search<U, false>(ctx, sorted, n, queries, m, out, ord, who);
}

#define PARPRIM_INSTANTIATE(U)                                                                 \
  template void search<U>(const context&, const U*, std::int64_t, const U*, std::int64_t,      \
                          std::int64_t*, detail::key_order<U>, bool);
PARPRIM_INSTANTIATE(std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
