// The CUDA body of copy_if, partition and unstable_partition (nvcc only), for any element
// type and predicate: the launches of the single-pass look-back compaction and reversed
// partition (detail/select_lookback.cuh) and of the count/place stable partition
// (detail/partition_count_place.cuh). The precompiled entry points
// (src/cuda/kernels/partition.cu) are this code instantiated for the library's predicate
// descriptions. Stream-ordered: the count is left in device memory.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/partition_count_place.cuh"
#include "parprim/cuda/detail/select_lookback.cuh"
#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/cuda/tuning/partition_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/select_mode.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda_kernels {

// Scratch of lookback_pass: the tile status words, then the tile counter.
template <class Tuning, class T>
std::size_t lookback_scratch_bytes(std::int64_t n) {
  using shape = select_shape<T, Tuning::threads, Tuning::items>;
  return detail::align_up(cuda_prim::tile_count_status::bytes(ceil_div(n, shape::tile))) + 256;
}

// copy_if, unique or the reversed partition: one look-back pass over in (n > 0) in the
// launch shape of Tuning; selected elements go to out below out.size() (the compaction) and
// the last tile writes the count (where count_device is set). `scratch` holds
// lookback_scratch_bytes, zeroed here.
template <class Tuning, bool Partition, class T, class Pred>
void lookback_pass_with_scratch(const context& ctx, cudaStream_t stream, span<const T> in,
                                span<T> out, Pred pred, std::int64_t* count_device,
                                void* scratch, const char* who) {
  using shape = select_shape<T, Tuning::threads, Tuning::items>;
  const std::int64_t tiles = ceil_div(in.size(), shape::tile);
  const std::size_t bytes = lookback_scratch_bytes<Tuning, T>(in.size());
  auto* const counter =  // the last 256 bytes
      reinterpret_cast<unsigned*>(static_cast<unsigned char*>(scratch) + bytes - 256);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(scratch, 0, bytes, stream));
  // Every member named: a caller's predicate (a lambda) has no default constructor.
  const select_args<T, Pred> a{in.data(),
                               in.size(),
                               out.data(),
                               out.size(),
                               pred,
                               cuda_prim::tile_count_status::bind(scratch, tiles),
                               counter,
                               count_device,
                               unsigned(tiles),
                               cuda_prim::aligned16(in.data())};
  select_lookback_kernel<T, Pred, shape, Tuning::min_blocks, Tuning::lookback_per_lane, Partition>
      <<<a.tiles, Tuning::threads, 0, stream>>>(a, Tuning::spin_sleep_ns);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// copy_if or the reversed partition in their own launch shapes, scratch from ws (or the
// context's allocator).
template <bool Partition, class T, class Pred>
void lookback_pass(const context& ctx, cudaStream_t stream, span<const T> in, span<T> out,
                   Pred pred, std::int64_t* count_device, workspace* ws, const char* who) {
  using lt = std::conditional_t<Partition, cuda_tuning::unstable_partition_tuning<sizeof(T)>,
                                cuda_tuning::select_lookback_tuning<sizeof(T)>>;
  detail::temp_memory scratch(ctx, ws, lookback_scratch_bytes<lt, T>(in.size()));
  lookback_pass_with_scratch<lt, Partition>(ctx, stream, in, out, pred, count_device,
                                            scratch.get(), who);
}

// Stable partition: count pass, place pass, over G chunks of whole tiles.
template <class T, class Pred>
void count_place(const context& ctx, cudaStream_t stream, span<const T> in, span<T> out,
                 Pred pred, std::int64_t* count_device, workspace* ws, const char* who) {
  using pt = cuda_tuning::partition_tuning<sizeof(T)>;
  using shape = select_shape<T, pt::threads, pt::items>;
  const int sms = ctx.multiprocessors();
  const std::int64_t tiles = ceil_div(in.size(), shape::tile);
  const std::int64_t capacity = std::max<std::int64_t>(1, std::int64_t(sms) * pt::blocks_per_sm);
  const std::int64_t chunk = ceil_div(tiles, std::min(tiles, capacity)) * shape::tile;
  const std::int64_t chunks = ceil_div(in.size(), chunk);  // every chunk non-empty
  detail::temp_memory counts(ctx, ws, detail::align_up(std::size_t(chunks) * 8));
  const place_args<T, Pred> a{in.data(),  in.size(),    out.data(),
                              pred,       chunk,        int(chunks),
                              counts.as<unsigned long long>(), count_device,
                              cuda_prim::aligned16(in.data())};
  partition_count_kernel<T, Pred, shape><<<unsigned(chunks), shape::threads, 0, stream>>>(
      a, counts.as<unsigned long long>());
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  partition_place_kernel<T, Pred, shape, pt::blocks_per_sm>
      <<<unsigned(chunks), shape::threads, 0, stream>>>(a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// Selected elements to out[0..count) in order, the rejected ones after them as `mode` says
// (parprim/detail/select_mode.hpp). The count goes to count_device[0]. n == 0 writes 0.
template <class T, class Pred>
void select(const context& ctx, span<const T> in, span<T> out, Pred pred,
            detail::select_mode mode, std::int64_t* count_device, workspace* ws,
            const char* who) {
  use_device(ctx, who);
  const cudaStream_t stream = stream_of(ctx);
  if (in.size() == 0) {
    PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(count_device, 0, sizeof(std::int64_t), stream));
    return;
  }
  switch (mode) {
    case detail::select_mode::compact:
      return lookback_pass<false>(ctx, stream, in, out, pred, count_device, ws, who);
    case detail::select_mode::stable_partition:
      return count_place(ctx, stream, in, out, pred, count_device, ws, who);
    case detail::select_mode::reversed_partition:
      return lookback_pass<true>(ctx, stream, in, out, pred, count_device, ws, who);
  }
}

}  // namespace parprim::cuda_kernels

namespace parprim::detail {

template <>
struct cuda_body<select_tag, true> {
  template <class T, class Pred>
  static void run(const context& ctx, const char* function, span<const T> in, span<T> out,
                  Pred pred, select_mode mode, std::int64_t* count_device, workspace* ws) {
    cuda_kernels::select(ctx, in, out, pred, mode, count_device, ws, function);
  }
};

}  // namespace parprim::detail
