// Onesweep's host side (radix_sort.cu): temporary memory, then the kernels of
// radix_sort_histogram.cuh and radix_sort_pass.cuh (or the counting sort) in stream order.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/error.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/kernels/radix_sort_counting.cuh"
#include "cuda/kernels/radix_sort_histogram.cuh"
#include "cuda/kernels/radix_sort_pass.cuh"
#include "cuda/kernels/radix_sort_small.cuh"
#include "cuda/tuning/sort_tuning.hpp"

namespace parprim::cuda_kernels::onesweep {

// ---- Host side ----------------------------------------------------------------------------------
// Keys-only, 2-byte keys, all 16 bits: histogram of the 65536 images, the non-empty ones with
// their starts, fill.
inline void counting_sort_16(const context& ctx, const detail::sort_request& r, workspace* ws) {
  const char* who = "radix_sort";
  cudaStream_t stream = stream_of(ctx);
  const int sms = ctx.multiprocessors();
  const std::int64_t n = r.n;
  using detail::align_up;
  // Zeroed by one memset: the histogram, the compaction's tile status and its tile counter.
  const std::size_t hist_bytes = align_up(std::size_t(wide_images) * sizeof(unsigned long long));
  const std::size_t status_bytes = cuda_prim::tile_count_status::bytes(wide_compact_blocks);
  const std::size_t counter_bytes = align_up(sizeof(unsigned));
  const std::size_t zeroed_bytes = hist_bytes + status_bytes + counter_bytes;
  const std::size_t start_bytes = align_up(std::size_t(wide_images + 1) * sizeof(long long));
  const std::size_t image_bytes = align_up(std::size_t(wide_images) * sizeof(std::uint16_t));
  detail::temp_memory temp(ctx, ws, zeroed_bytes + start_bytes + image_bytes + align_up(sizeof(int)));
  unsigned char* base = temp.as<unsigned char>();
  auto* hist = reinterpret_cast<unsigned long long*>(base);
  const auto status = cuda_prim::tile_count_status::bind(base + hist_bytes, wide_compact_blocks);
  auto* tile_counter = reinterpret_cast<unsigned*>(base + hist_bytes + status_bytes);
  auto* start = reinterpret_cast<long long*>(base + zeroed_bytes);
  auto* image = reinterpret_cast<std::uint16_t*>(base + zeroed_bytes + start_bytes);
  auto* nonempty = reinterpret_cast<int*>(base + zeroed_bytes + start_bytes + image_bytes);
  auto* keys = static_cast<std::uint16_t*>(r.keys);
  const key_params kp{r.kind, r.descending};
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(base, 0, zeroed_bytes, stream));

  // One 128 KiB block per SM, in pairs that read the same keys.
  const std::int64_t pairs = std::max<std::int64_t>(
      1, std::min<std::int64_t>(sms / 2, ceil_div(n, std::int64_t(8) * wide_hist_threads)));
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaFuncSetAttribute(wide_histogram, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          wide_hist_shared_bytes));
  wide_histogram<<<unsigned(2 * pairs), wide_hist_threads, wide_hist_shared_bytes, stream>>>(
      keys, n, kp, hist);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  wide_compact<<<wide_compact_blocks, wide_compact_threads, 0, stream>>>(hist, status, tile_counter,
                                                                         start, image, nonempty, n, kp);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  const int parts = int(std::clamp<std::int64_t>(
      n / (std::int64_t(wide_fill_part) * sms * wide_fill_blocks_per_sm), 1, wide_fill_max_parts));
  const std::int64_t block_keys = std::int64_t(wide_fill_part) * parts;
  wide_fill<<<unsigned(ceil_div(n, block_keys)), wide_fill_threads, 0, stream>>>(start, image, nonempty,
                                                                                n, parts, keys);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// tiles_per_segment: 0 for the largest segments the look-back words allow; tests ask for
// smaller ones to reach the multi-segment path with small inputs.
template <class U, class W, bool HasValues>
void onesweep_sort(const context& ctx, const detail::sort_request& r, workspace* ws,
                   std::int64_t tiles_per_segment) {
  using Tile = default_tile<U, W, HasValues>;
  using shape = pass_shape<U, W, HasValues, Tile>;
  const char* who = HasValues ? "radix_sort_pairs" : "radix_sort";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  if (r.n <= small_sort_keys) {
    small_sort_kernel<U, W, HasValues><<<1, small_sort_threads, small_sort_shared_bytes<U>(), stream>>>(
        static_cast<U*>(r.keys), static_cast<W*>(r.values), static_cast<const U*>(r.argsort_keys), int(r.n),
        key_params{r.kind, r.descending}, r.begin_bit, r.end_bit);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  if constexpr (sizeof(U) == 2 && !HasValues) {
    if (r.begin_bit == 0 && r.end_bit == 16) return counting_sort_16(ctx, r, ws);
  }
  const int sms = ctx.multiprocessors();

  const std::int64_t n = r.n;
  const int passes = (r.end_bit - r.begin_bit + tuning::radix_bits - 1) / tuning::radix_bits;
  const std::int64_t tiles = ceil_div(n, shape::tile);
  const std::int64_t longest = max_chain_keys / shape::tile;
  const std::int64_t segment_tiles =
      tiles_per_segment > 0 ? std::min(tiles_per_segment, longest) : longest;
  const std::int64_t segments = ceil_div(tiles, segment_tiles);

  // Temporary memory: the ping-pong copies, then the zeroed region (control, histograms,
  // segment starts, look-back words) cleared by one memset.
  using detail::align_up;
  const std::size_t keys_bytes = align_up(std::size_t(n) * sizeof(U));
  const std::size_t values_bytes =
      HasValues ? align_up(std::size_t(n) * sizeof(W)) + tuning::temp_values_skew : 0;
  const std::size_t control_bytes = align_up(sizeof(onesweep_control));
  const std::size_t hist_bytes = align_up(std::size_t(max_passes) * radix * sizeof(unsigned long long));
  const std::size_t base_bytes = align_up(std::size_t(segments) * max_passes * radix * sizeof(long long));
  const std::size_t lookback_bytes = align_up(std::size_t(tiles) * radix * sizeof(unsigned));
  const std::size_t zeroed = control_bytes + hist_bytes + base_bytes + lookback_bytes;
  detail::temp_memory temp(ctx, ws, keys_bytes + values_bytes + zeroed);
  unsigned char* p = temp.as<unsigned char>();

  pass_args<U, W> a{};
  a.keys[0] = static_cast<U*>(r.keys);
  a.keys[1] = reinterpret_cast<U*>(p);
  if constexpr (HasValues) {
    a.values[0] = static_cast<W*>(r.values);
    a.values[1] = reinterpret_cast<W*>(p + keys_bytes + tuning::temp_values_skew);
  }
  unsigned char* z = p + keys_bytes + values_bytes;
  a.control = reinterpret_cast<onesweep_control*>(z);
  auto* hist = reinterpret_cast<unsigned long long*>(z + control_bytes);
  a.segment_base = reinterpret_cast<long long*>(z + control_bytes + hist_bytes);
  a.lookback = reinterpret_cast<unsigned*>(z + control_bytes + hist_bytes + base_bytes);
  a.argsort_keys = static_cast<const U*>(r.argsort_keys);
  a.n = n;
  a.kp = key_params{r.kind, r.descending};
  a.tiles_per_segment = unsigned(segment_tiles);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(z, 0, zeroed, stream));

  // 1. Histograms.
  using hist_layout = histogram_layout<U>;
  constexpr std::int64_t hist_tile = hist_layout::threads * tuning::histogram_items;
  const int hist_grid = int(std::min<std::int64_t>(ceil_div(n, hist_tile),
                                                   std::int64_t(sms)));  // one block per SM (its 128 KiB)
  if constexpr (hist_layout::shared_bytes > 48 * 1024)
    PARPRIM_CUDA_CHECK(ctx.name(), who,
                       cudaFuncSetAttribute(onesweep_histogram<U>,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            hist_layout::shared_bytes));
  onesweep_histogram<U><<<hist_grid, hist_layout::threads, hist_layout::shared_bytes, stream>>>(
      a.argsort_keys ? a.argsort_keys : a.keys[0], n, a.kp, r.begin_bit, r.end_bit, passes, hist);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  // 2. Digit starts, skips, parity.
  onesweep_scan<<<1, radix, 0, stream>>>(hist, a.segment_base, a.control, passes, n);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  if constexpr (sizeof(U) == 1 && !HasValues) {
    if (r.begin_bit == 0 && r.end_bit == 8) {  // the counts alone give the sorted keys
      const std::int64_t fill_tile = std::int64_t(radix) * fill_bytes;
      const int fill_grid = int(std::min<std::int64_t>(ceil_div(n, fill_tile), std::int64_t(sms) * 8));
      onesweep_fill<<<fill_grid, radix, 0, stream>>>(a.segment_base, n, a.kp, a.keys[0]);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
      return;
    }
  }
  // 3. One kernel per digit and segment; a skipped pass returns at once.
  auto* pass_kernel = onesweep_pass<U, W, HasValues, Tile>;
  constexpr int pass_bytes = pass_shared_bytes<U, W, HasValues, Tile>();
  // Static plus dynamic shared memory above 48 KiB needs the kernel's opt-in.
  constexpr int pass_static_bytes = pass_static_shared_bytes<HasValues, Tile>();
  if (pass_bytes + pass_static_bytes > 48 * 1024) {
    PARPRIM_CUDA_CHECK(ctx.name(), who,
                       cudaFuncSetAttribute(pass_kernel,
                                            cudaFuncAttributeMaxDynamicSharedMemorySize, pass_bytes));
  }
  for (int pass = 0; pass < passes; ++pass) {
    a.shift = r.begin_bit + pass * tuning::radix_bits;
    a.width = std::min(tuning::radix_bits, r.end_bit - a.shift);
    for (std::int64_t s = 0; s < segments; ++s) {
      const unsigned grid = unsigned(std::min(segment_tiles, tiles - s * segment_tiles));
      pass_kernel<<<grid, shape::threads, pass_bytes, stream>>>(a, pass);
      PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    }
  }
  // 4. Copy back when the result is in the temporary buffer.
  const int grid = int(std::min<std::int64_t>(ceil_div(n, 256), std::int64_t(sms) * 8));
  onesweep_copy_back<U, W, HasValues><<<grid, 256, 0, stream>>>(a.control, passes, a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace parprim::cuda_kernels::onesweep
