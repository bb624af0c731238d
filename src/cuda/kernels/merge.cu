// CUDA dispatch of merge (kernel bodies in merge.cuh).
#include <cstdlib>
#include <string>
#include <type_traits>

#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/merge.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/search_merge_backend.hpp"

namespace parprim::cuda_backend {

namespace {

// One merge: the partition, then one block per output tile of Shape.
template <class Shape, int MinBlocks, bool WithValues, class U, class W>
void launch_merge(const context& ctx, cuda_kernels::merging::merge_args<U, W> p,
                  const char* who, workspace* ws) {
  using namespace cuda_kernels;
  using tuning = cuda_tuning::merge_tuning;
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t tiles = ceil_div(p.na + p.nb, Shape::tile);
  detail::temp_memory splits(ctx, ws, detail::align_up(std::size_t(tiles + 1) * 8));
  p.splits = splits.as<std::int64_t>();
  merging::partition_kernel<U><<<unsigned(ceil_div(tiles + 1, tuning::partition_threads)),
                                 tuning::partition_threads, 0, stream>>>(
      p.a, p.na, p.b, p.nb, Shape::tile, tiles, splits.as<std::int64_t>(), p.ord, p.unsorted_a,
      p.unsorted_b);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  merging::merge_kernel<Shape, MinBlocks, U, W, WithValues>
      <<<unsigned(tiles), Shape::threads, 0, stream>>>(p);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

template <class Shape, class U, class W, bool WithValues>
constexpr int default_min_blocks() {
  return cuda_tuning::merge_tuning::resident_threads(int(sizeof(U)),
                                                     WithValues ? int(sizeof(W)) : 0) /
         Shape::threads;
}

// Tile shapes of the keys-only u32 merge timed against each other on the H100: the variable
// PARPRIM_MERGE_SHAPE picks one (threads x items, @ resident threads per SM); unset, the
// tuning header's shape.
bool launch_merge_shape_sweep(const context& ctx,
                              const cuda_kernels::merging::merge_args<std::uint32_t, std::uint32_t>& p,
                              const char* who, workspace* ws) {
  using cuda_tuning::merge_shape;
  static const std::string shape = [] {
    const char* v = std::getenv("PARPRIM_MERGE_SHAPE");
    return std::string(v ? v : "");
  }();
  if (shape.empty()) return false;
  if (shape == "256x15@1536") launch_merge<merge_shape<256, 15>, 6, false>(ctx, p, who, ws);
  else if (shape == "512x15@2048") launch_merge<merge_shape<512, 15>, 4, false>(ctx, p, who, ws);
  else if (shape == "128x15@2048") launch_merge<merge_shape<128, 15>, 16, false>(ctx, p, who, ws);
  else if (shape == "256x23@1536") launch_merge<merge_shape<256, 23>, 6, false>(ctx, p, who, ws);
  else if (shape == "512x11@2048") launch_merge<merge_shape<512, 11>, 4, false>(ctx, p, who, ws);
  else return false;
  return true;
}

}  // namespace

template <class U, class W>
void merge(const context& ctx, const U* a, const W* a_values, std::int64_t na, const U* b,
           const W* b_values, std::int64_t nb, U* out, W* out_values, detail::key_order<U> ord,
           const char* who, workspace* ws) {
  using namespace cuda_kernels;
  using tuning = cuda_tuning::merge_tuning;
  use_device(ctx, who);
  unsigned long long* unsorted_a = cuda_rt::arm_bad_position(ctx, who);
  unsigned long long* unsorted_b = cuda_rt::arm_bad_position(ctx, who);
  if (out_values) {
    const cuda_kernels::merging::merge_args<U, W> p{
        a, a_values, na, b, b_values, nb, out, out_values, nullptr, unsorted_a, unsorted_b, ord};
    launch_merge<tuning::shape, default_min_blocks<tuning::shape, U, W, true>(), true>(ctx, p, who, ws);
  } else {
    const cuda_kernels::merging::merge_args<U, U> p{
        a, nullptr, na, b, nullptr, nb, out, nullptr, nullptr, unsorted_a, unsorted_b, ord};
    bool swept = false;
    if constexpr (std::is_same_v<U, std::uint32_t>) swept = launch_merge_shape_sweep(ctx, p, who, ws);
    if (!swept)
      launch_merge<tuning::shape, default_min_blocks<tuning::shape, U, U, false>(), false>(ctx, p, who, ws);
  }
  const std::string name = std::string("parprim::") + who + " [" + ctx.name() + "]: ";
  const char* order = ord.descending ? "descending" : "ascending";
  for (int range = 0; range < 2; ++range) {
    const std::string which = range == 0 ? "a" : "b";
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
                            workspace*);
#define PARPRIM_INSTANTIATE(U)                                                                  \
  PARPRIM_INSTANTIATE_UW(U, std::uint32_t)                                                      \
  PARPRIM_INSTANTIATE_UW(U, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_UW

}  // namespace parprim::cuda_backend
