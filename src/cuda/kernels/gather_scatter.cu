// gather and scatter on the GPU, single- and multi-pass. The measurements behind the
// multi-pass scatter's cost model are in scatter_calibration.cu.
// This file is the host dispatch; the kernel bodies are in gather_scatter.cuh (gather, plain
// and multi-pass scatter) and gather_scatter_binned.cuh (the binned scatter's sweeps).
//
// Multi-pass scatter (He et al., SC07): pass p writes only the elements whose index lies in
// slice p of the output, so the random writes of a pass land in a region that stays in L2.
// Inputs are read with evict-first (streaming) loads so that they do not push the slice out,
// and a value is loaded only when its index is in the slice. With
// multi_pass_scatter_tuning::binned the input is instead read twice in all (count, bin by
// slice) and the binned pairs are scattered in one launch, slice after slice
// (gather_scatter_binned.cuh).
#include <algorithm>
#include <optional>
#include <string>

#include "core/bad_position.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "core/word_of.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "cuda/kernels/gather_scatter.cuh"
#include "cuda/kernels/gather_scatter_binned.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/tuning/multi_pass_scatter_tuning.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

using namespace cuda_kernels;
using namespace cuda_kernels::gather_scatter;

namespace {

using multi_tuning = cuda_tuning::multi_pass_scatter_tuning;

using detail::word_of;
template <class T>
using word_t = typename word_of<sizeof(T)>::type;

inline std::int64_t blocks_for(std::int64_t n) {
  return ceil_div(n, std::int64_t(tuning::threads) * items);
}

}  // namespace

template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
            bool checked) {
  using V = word_t<T>;
  const std::int64_t n = indices.size();
  if (n == 0) return;
  use_device(ctx, "gather");
  unsigned long long* bad = nullptr;
  if (checked) {
    bad = cuda_rt::arm_bad_position(ctx, "gather");
    const std::string prefix = "parprim::gather [" + ctx.name() + "]: ";
    const std::int64_t size = values.size();
    cuda_rt::defer_bad_position(ctx, bad, [prefix, size](std::int64_t pos) {
      return error(errc::out_of_range, prefix + detail::bad_index_what(pos, "values", size));
    });
  }
  const bool vec = cuda_prim::aligned16(indices.data()) && cuda_prim::aligned16(out.data());
  gather_kernel<V, I><<<static_cast<unsigned>(blocks_for(n)), tuning::threads, 0, stream_of(ctx)>>>(
      reinterpret_cast<const V*>(values.data()), static_cast<std::uint64_t>(values.size()),
      indices.data(), reinterpret_cast<V*>(out.data()), n, vec, checked, bad);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "gather");
}

namespace {

// The binned multi-pass scatter: counters cleared, count, bin, one scatter over the bins
// (which skips bucket k, the bad indices, by its bounds test). Returns false, with nothing
// queued, when the bins' memory cannot be had or there are too many slices.
template <class V, class I>
bool scatter_binned(const context& ctx, const V* values, const I* indices, V* out, std::int64_t n,
                    std::uint64_t size, std::uint64_t slice, bool vec, unsigned long long* bad) {
  slicing sl;
  sl.size = size;
  sl.slice = slice;
  sl.slices = static_cast<int>((size + slice - 1) / slice);
  sl.narrow = size <= 0xFFFFFFFFull;
  const int buckets = sl.slices + 1;
  if (buckets > max_buckets) return false;
  const std::size_t index_bytes = detail::align_up(static_cast<std::size_t>(n) * sizeof(I));
  const std::size_t value_bytes = detail::align_up(static_cast<std::size_t>(n) * sizeof(V));
  const std::size_t counter_bytes = 2 * static_cast<std::size_t>(buckets) * sizeof(unsigned long long);
  std::optional<detail::temp_memory> mem;
  try {
    mem.emplace(ctx, nullptr, index_bytes + value_bytes + counter_bytes);
  } catch (const error&) {
    return false;
  }
  char* p = mem->as<char>();
  I* bin_indices = reinterpret_cast<I*>(p);
  V* bin_values = reinterpret_cast<V*>(p + index_bytes);
  auto* totals = reinterpret_cast<unsigned long long*>(p + index_bytes + value_bytes);
  unsigned long long* fill = totals + buckets;
  cudaStream_t stream = stream_of(ctx);
  PARPRIM_CUDA_CHECK(ctx.name(), "scatter", cudaMemsetAsync(totals, 0, counter_bytes, stream));
  const unsigned blocks = static_cast<unsigned>(blocks_for(n));
  bin_count_kernel<I><<<blocks, tuning::threads, 0, stream>>>(indices, n, sl, vec, totals, bad);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  bin_kernel<V, I><<<blocks, tuning::threads, 0, stream>>>(values, indices, n, sl, vec, totals, fill,
                                                            bin_values, bin_indices);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  // The bins are 256-byte aligned: vector loads throughout.
  scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream>>>(
      bin_values, bin_indices, out, n, size, 0, size, true, false, true, nullptr);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  return true;  // the bins go back to the stream-ordered cache here
}

}  // namespace

template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             int passes, bool checked) {
  using V = word_t<T>;
  const std::int64_t n = values.size();
  if (n == 0) return;
  use_device(ctx, "scatter");
  const std::uint64_t size = static_cast<std::uint64_t>(out.size());
  unsigned long long* bad = nullptr;
  if (checked) {
    bad = cuda_rt::arm_bad_position(ctx, "scatter");
    const std::string prefix = "parprim::scatter [" + ctx.name() + "]: ";
    const std::int64_t out_size = out.size();
    cuda_rt::defer_bad_position(ctx, bad, [prefix, out_size](std::int64_t pos) {
      return error(errc::out_of_range, prefix + detail::bad_index_what(pos, "out", out_size));
    });
  }
  const bool vec = cuda_prim::aligned16(indices.data()) && cuda_prim::aligned16(values.data());
  const unsigned blocks = static_cast<unsigned>(blocks_for(n));
  const V* vin = reinterpret_cast<const V*>(values.data());
  V* vout = reinterpret_cast<V*>(out.data());
  if (passes <= 1 || size == 0) {
    scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream_of(ctx)>>>(
        vin, indices.data(), vout, n, size, 0, size, vec, false, checked, bad);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
    return;
  }
  // Slices of whole 128-byte lines, so that no line is written in two passes.
  const std::uint64_t line = 128 / sizeof(T);
  std::uint64_t slice = (size + passes - 1) / passes;
  slice = (slice + line - 1) / line * line;
  if (multi_tuning::binned &&
      scatter_binned<V, I>(ctx, vin, indices.data(), vout, n, size, slice, vec, bad))
    return;
  for (std::uint64_t begin = 0; begin < size; begin += slice) {
    const std::uint64_t len = std::min(slice, size - begin);
    scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream_of(ctx)>>>(
        vin, indices.data(), vout, n, size, begin, len, vec, true, checked,
        begin == 0 ? bad : nullptr);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  }
}

#define PARPRIM_INSTANTIATE_I(T, I)                                                         \
  template void gather<T, I>(const context&, span<const T>, span<const I>, span<T>, bool);  \
  template void scatter<T, I>(const context&, span<const T>, span<const I>, span<T>, int, bool);
#define PARPRIM_INSTANTIATE(T)           \
  PARPRIM_INSTANTIATE_I(T, std::int32_t) \
  PARPRIM_INSTANTIATE_I(T, std::int64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_I

}  // namespace parprim::cuda_backend
