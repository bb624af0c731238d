// unique, unique_by_key, unique_count and run_length_encode on CUDA (nvcc only): copy_if's
// single-pass compaction (detail/select_lookback.cuh, launched by lookback_pass_with_scratch in
// parprim/cuda/partition.cuh) selecting the run heads, for any key and equality; by_key.cuh
// dispatches the heads and lengths kinds here.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/partition.cuh"
#include "parprim/cuda/tuning/by_key_tuning.hpp"
#include "parprim/detail/runs.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda_kernels::by_key {

using parprim::detail::runs_io;

// unique, unique_by_key, unique_count: copy_if's single-pass compaction (one 64-bit count
// look-back, 32 KiB tiles of keys held in registers) selecting the run heads; returns the
// run count, read back to the host, or -1 where io.count_out receives it (the last tile
// stores it there: no copy, no wait). io.n > 0.
template <class K, class V, class Eq>
std::int64_t unique_heads(const context& ctx, const runs_io<K, V>& io, Eq eq, workspace* ws,
                   const char* who) {
  using lt = cuda_tuning::heads_tuning<int(sizeof(K))>;
  const std::size_t bytes = lookback_scratch_bytes<lt, K>(io.n);
  parprim::detail::temp_memory scratch(ctx, ws, bytes + sizeof(std::int64_t));
  std::int64_t* run_count =
      io.count_out ? io.count_out
                   : reinterpret_cast<std::int64_t*>(scratch.as<unsigned char>() + bytes);
  lookback_pass_with_scratch<lt, false>(ctx, stream_of(ctx), span<const K>(io.keys, io.n),
                                        span<K>(io.keys_out, io.capacity),
                                        run_heads<V, Eq>{eq, io.values, io.values_out},
                                        run_count, scratch.get(), who);
  if (io.count_out) return -1;
  std::int64_t runs = 0;
  ctx.copy_to_host(&runs, run_count, sizeof(runs));
  return runs;
}

// run_length_encode: the same compaction of the run heads, which also writes each run's
// length (write_run_lengths in detail/select_lookback.cuh), then one thread per tile fixes the
// lengths of the runs that leave their tile (fix_run_lengths_kernel). Lengths travel in
// io.values_out. Returns the run count as unique_heads() does. io.n > 0.
template <class K, class Eq>
std::int64_t unique_lengths(const context& ctx, const runs_io<K, std::int64_t>& io, Eq eq,
                            workspace* ws, const char* who) {
  using lt = cuda_tuning::heads_tuning<int(sizeof(K))>;
  using sh = select_shape<K, lt::threads, lt::items>;
  const std::int64_t tiles = ceil_div(io.n, sh::tile);
  const std::size_t bytes = lookback_scratch_bytes<lt, K>(io.n);
  const std::size_t head_bytes =
      parprim::detail::align_up(std::size_t(tiles) * sizeof(tile_first_head));
  parprim::detail::temp_memory scratch(ctx, ws, bytes + head_bytes + sizeof(std::int64_t));
  auto* first_heads = reinterpret_cast<tile_first_head*>(scratch.as<unsigned char>() + bytes);
  unsigned char* const heads_end = scratch.as<unsigned char>() + bytes + head_bytes;
  std::int64_t* run_count =
      io.count_out ? io.count_out : reinterpret_cast<std::int64_t*>(heads_end);
  const cudaStream_t stream = stream_of(ctx);
  lookback_pass_with_scratch<lt, false>(ctx, stream, span<const K>(io.keys, io.n),
                                        span<K>(io.keys_out, io.capacity),
                                        run_lengths<Eq>{eq, io.values_out, first_heads},
                                        run_count, scratch.get(), who);
  if (tiles > 1) {  // one tile: every run ends inside it
    constexpr int threads = lt::fixup_threads;
    fix_run_lengths_kernel<threads><<<unsigned(ceil_div(tiles, threads)), threads, 0, stream>>>(
        first_heads, unsigned(tiles), io.n, io.capacity, io.values_out);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }
  if (io.count_out) return -1;
  std::int64_t runs = 0;
  ctx.copy_to_host(&runs, run_count, sizeof(runs));
  return runs;
}

}  // namespace parprim::cuda_kernels::by_key
