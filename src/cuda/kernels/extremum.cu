// argmin / argmax on the GPU: the two passes of extremum.cuh, stream-ordered.
#include <algorithm>

#include "cuda/extremum_backend.hpp"
#include "cuda/kernels/extremum.cuh"
#include "cuda/tuning/extremum_tuning.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

namespace {
using cuda_kernels::ceil_div;
using cuda_kernels::stream_of;
using cuda_kernels::use_device;

template <class T, bool Largest>
void search(const context& ctx, span<const T> in, T* value_out, std::int64_t* index_out,
            workspace* ws, const char* who) {
  namespace k = cuda_kernels::extremum;
  using tuning = cuda_tuning::extremum_tuning;
  constexpr std::int64_t step =
      std::int64_t(tuning::threads) * cuda_prim::unit_size<T> * tuning::vectors_per_thread;
  const std::int64_t n = in.size();
  const std::int64_t per_device = std::int64_t(ctx.multiprocessors()) * tuning::blocks_per_sm;
  const std::int64_t wanted = std::clamp<std::int64_t>(per_device, 1, tuning::max_blocks);
  const std::int64_t per_block = ceil_div(ceil_div(n, wanted), step) * step;
  const int blocks = int(ceil_div(n, per_block));
  const std::size_t partial_bytes = blocks > 1 ? blocks * sizeof(k::candidate<T>) : 0;
  detail::temp_memory partial(ctx, ws, detail::align_up(partial_bytes));
  const bool vectorized = cuda_prim::vector_unit<T> && cuda_prim::aligned16(in.data());
  const cudaStream_t stream = stream_of(ctx);
  k::search_blocks_kernel<T, Largest, tuning::threads, tuning::vectors_per_thread>
      <<<blocks, tuning::threads, 0, stream>>>(in.data(), n, per_block, vectorized,
                                               partial.as<k::candidate<T>>(), value_out, index_out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  if (blocks == 1) return;
  k::pick_winner_kernel<T, Largest, tuning::final_threads><<<1, tuning::final_threads, 0, stream>>>(
      partial.as<k::candidate<T>>(), blocks, value_out, index_out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}
}  // namespace

template <class T>
void find_extremum(const context& ctx, span<const T> in, bool largest, T* value_out,
                   std::int64_t* index_out, workspace* ws) {
  const char* who = largest ? "argmax" : "argmin";
  use_device(ctx, who);
  if (largest)
    search<T, true>(ctx, in, value_out, index_out, ws, who);
  else
    search<T, false>(ctx, in, value_out, index_out, ws, who);
}

#define PARPRIM_INSTANTIATE(T)                                                           \
  template void find_extremum<T>(const context&, span<const T>, bool, T*, std::int64_t*, \
                                 workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
