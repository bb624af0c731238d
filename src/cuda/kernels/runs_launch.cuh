// Host side of the runs engine (runs.cuh): temporary tile states and the three launches.
#pragma once

#include <cstdint>

#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/runs.cuh"

namespace parprim::cuda_kernels::runs {

template <head_source Heads, class K, class V, class Eq, class Op>
std::int64_t launch(const context& ctx, const detail::runs_job<K, V>& job, Eq, Op op,
                    workspace* ws, const char* who) {
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  device_job<K, V> a = device_view(job);
  if (job.n == 0) {  // offsets covering nothing: every segment is empty
    if (job.by_segment && job.reduced_out && job.segments > 0) {
      fill_kernel<<<unsigned(ceil_div(job.segments, 256)), 256, 0, stream>>>(job.reduced_out,
                                                                              job.segments, job.init);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    }
    return 0;
  }
  const std::int64_t tiles = ceil_div(job.n, tuning::tile);
  const std::size_t state_bytes = detail::align_up(std::size_t(tiles + 1) * sizeof(state<V>));
  const std::size_t first_bytes =
      Heads == head_source::offsets ? detail::align_up(std::size_t(tiles) * 8) : 0;
  detail::temp_memory temp(ctx, ws, state_bytes + first_bytes);
  auto* states = temp.as<state<V>>();
  if constexpr (Heads == head_source::offsets) {
    auto* first = reinterpret_cast<std::int64_t*>(temp.as<unsigned char>() + state_bytes);
    tile_first_segment_kernel<tuning::tile><<<unsigned(ceil_div(tiles, 256)), 256, 0, stream>>>(
        job.offsets, job.segments, tiles, first);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    a.tile_first_segment = first;
  }
  runs_tile_kernel<K, V, Heads><<<unsigned(tiles), tuning::threads, 0, stream>>>(a, op, states,
                                                                                 false);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  scan_tile_states_kernel<<<1, tuning::scan_threads, 0, stream>>>(states, tiles, op);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  if (job.reduced_out || job.scan_out) {
    runs_tile_kernel<K, V, Heads><<<unsigned(tiles), tuning::threads, 0, stream>>>(a, op, states,
                                                                                   true);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }
  return -1;  // the segmented primitives do not ask for the run count
}

}  // namespace parprim::cuda_kernels::runs
