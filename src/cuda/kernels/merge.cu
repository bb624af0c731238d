// CUDA dispatch of merge (kernel bodies in merge.cuh).
#include <string>

#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/merge.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/search_merge_backend.hpp"

namespace parprim::cuda_backend {

namespace {

// One merge: the partition, then one block per output tile of the tuned shape, with the
// resident threads per SM of its key and value widths (merge_tuning::resident_threads).
template <bool WithValues, class U, class W>
void launch_merge(const context& ctx, cuda_kernels::merging::merge_args<U, W> p,
                  const char* who, workspace* ws) {
  using namespace cuda_kernels;
  using tuning = cuda_tuning::merge_tuning;
  using shape = tuning::shape<int(sizeof(U))>;
  constexpr int min_blocks =
      tuning::resident_threads(int(sizeof(U)), WithValues ? int(sizeof(W)) : 0) / shape::threads;
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t tiles = ceil_div(p.na + p.nb, shape::tile);
  detail::temp_memory splits(ctx, ws, detail::align_up(std::size_t(tiles + 1) * 8));
  p.splits = splits.as<std::int64_t>();
  const cuda_prim::partition_launch search =
      cuda_prim::partition_shape(tiles + 1, tuning::partition_threads);
  merging::partition_kernel<U><<<search.blocks, tuning::partition_threads, 0, stream>>>(
      p.a, p.na, p.b, p.nb, shape::tile, tiles, splits.as<std::int64_t>(), p.ord, p.unsorted_a,
      p.unsorted_b, search.by_warp);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  merging::merge_kernel<shape, min_blocks, U, W, WithValues>
      <<<unsigned(tiles), shape::threads, 0, stream>>>(p);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace

template <class U, class W>
void merge(const context& ctx, const U* a, const W* a_values, std::int64_t na, const U* b,
           const W* b_values, std::int64_t nb, U* out, W* out_values, detail::key_order<U> ord,
           const char* who, const char* a_name, const char* b_name, workspace* ws) {
  using namespace cuda_kernels;
  use_device(ctx, who);
  unsigned long long* unsorted_a = cuda_rt::arm_bad_position(ctx, who);
  unsigned long long* unsorted_b = cuda_rt::arm_bad_position(ctx, who);
  if (out_values) {
    const cuda_kernels::merging::merge_args<U, W> p{
        a, a_values, na, b, b_values, nb, out, out_values, nullptr, unsorted_a, unsorted_b, ord};
    launch_merge<true>(ctx, p, who, ws);
  } else {
    const cuda_kernels::merging::merge_args<U, U> p{
        a, nullptr, na, b, nullptr, nb, out, nullptr, nullptr, unsorted_a, unsorted_b, ord};
    launch_merge<false>(ctx, p, who, ws);
  }
  const std::string name = std::string("parprim::") + who + " [" + ctx.name() + "]: ";
  const char* order = ord.descending ? "descending" : "ascending";
  for (int range = 0; range < 2; ++range) {
    const std::string which = range == 0 ? a_name : b_name;
    cuda_rt::defer_bad_position(ctx, range == 0 ? unsorted_a : unsorted_b,
                                [=](std::int64_t pos) {
                                  return error(errc::invalid_argument,
                                               name + which + " is not sorted (" + order +
                                                   "): element " + std::to_string(pos + 1) +
                                                   " comes before element " + std::to_string(pos));
                                });
  }
}

#define PARPRIM_INSTANTIATE_UW(U, W)                                                           \
  template void merge<U, W>(const context&, const U*, const W*, std::int64_t, const U*,        \
                            const W*, std::int64_t, U*, W*, detail::key_order<U>, const char*, \
                            const char*, const char*, workspace*);
#define PARPRIM_INSTANTIATE(U)                                                                  \
  PARPRIM_INSTANTIATE_UW(U, std::uint32_t)                                                      \
  PARPRIM_INSTANTIATE_UW(U, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_UW

}  // namespace parprim::cuda_backend
