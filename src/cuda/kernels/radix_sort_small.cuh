// radix_sort's path for inputs of one tile or less (small_sort_keys): one block sorts them in
// shared memory, digit by digit, with the pass kernel's ranking (count_digits and
// rank_from_counts, radix_sort_pass.cuh), then writes every key and value once. One launch
// against Onesweep's memset, histogram, scan, one kernel per digit and a copy back, which
// left a sort of 64 u32 keys at 0.056 ms on the H100, 3.6x CUB's single-tile sort
// (bench/results/2026-11-25-h100-small-sort.md). A bitonic network over the tile in shared
// memory (the segmented sort's block sort) was tried first: 0.018 ms for 64 keys but 0.077
// for 4096, slower than Onesweep there.
//
// Layout as in the pass kernel, but spread over every warp: with `rows` = ceil(n / (32 warps)),
// item k < rows of lane l of warp w is tile position (w rows + k) 32 + l, so ranking visits
// the keys in position order (stable) and a small input still keeps every warp busy (1024 u32
// keys in 16 rows of 2 of 8 warps took 0.0140 ms, CUB 0.0136). Positions past n hold the
// largest image: they rank after every key. Keys travel with their input position (16 bits),
// which fetches the values once at the end.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/sort_keys.hpp"
#include "cuda/kernels/radix_sort_common.cuh"
#include "cuda/kernels/radix_sort_pass.cuh"

namespace parprim::cuda_kernels::onesweep {

constexpr int small_sort_threads = 512;  // the first radix threads find the digit starts
constexpr int small_sort_items = 8;
constexpr int small_sort_keys = small_sort_threads * small_sort_items;  // positions fit 16 bits

// The warp counters during ranking, the staged keys afterwards in the same bytes, then the
// staged positions: 40 KiB for 8-byte keys.
template <class U>
constexpr int small_sort_staged_bytes() {
  return std::max<int>(small_sort_threads / 32 * radix * sizeof(unsigned), small_sort_keys * sizeof(U));
}
template <class U>
constexpr int small_sort_shared_bytes() {
  return small_sort_staged_bytes<U>() + small_sort_keys * int(sizeof(std::uint16_t));
}

// keys: sorted in place (argsort: scratch that receives the sorted keys, read from
// argsort_keys); values: moved with their keys (argsort: written with the input positions).
template <class U, class W, bool HasValues>
__global__ void __launch_bounds__(small_sort_threads)
    small_sort_kernel(U* keys, W* values, const U* argsort_keys, int n, key_params kp, int begin_bit,
                      int end_bit) {
  constexpr int threads = small_sort_threads, items = small_sort_items;
  constexpr int warps = threads / 32;
  static_assert(threads >= radix, "one thread per digit");
  static_assert(small_sort_shared_bytes<U>() <= 48 * 1024, "no opt-in for more shared memory");
  extern __shared__ __align__(16) unsigned char s_shared[];
  __shared__ unsigned s_warp_totals[warps];
  unsigned* s_counters = reinterpret_cast<unsigned*>(s_shared);
  U* s_keys = reinterpret_cast<U*>(s_shared);
  auto* s_positions = reinterpret_cast<std::uint16_t*>(s_shared + small_sort_staged_bytes<U>());
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int rows = (n + warps * 32 - 1) / (warps * 32);  // <= items
  const int warp_first = warp * rows * 32;
  const U* source = argsort_keys ? argsort_keys : keys;

  U image[items];
  std::uint16_t position[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = warp_first + k * 32 + lane;
    image[k] = k < rows && i < n ? detail::ordered_bits(source[i], kp.kind, kp.descending) : U(~U(0));
    position[k] = std::uint16_t(i);
  }
  for (int shift = begin_bit; shift < end_bit; shift += tuning::radix_bits) {
    const int width = end_bit - shift < tuning::radix_bits ? end_bit - shift : tuning::radix_bits;
    const unsigned digit_mask = (1u << width) - 1u;
    auto digit = [&](U im) { return unsigned(im >> shift) & digit_mask; };
    for (int i = tid; i < warps * radix; i += threads) s_counters[i] = 0;
    __syncthreads();
    unsigned* warp_counters = s_counters + warp * radix;
    count_digits(image, digit, warp_counters, rows);
    __syncthreads();
    // Thread d < radix: where digit d starts, then each warp's first position for it.
    unsigned digit_count = 0;
    if (tid < radix)
      for (int w = 0; w < warps; ++w) digit_count += s_counters[w * radix + tid];
    const unsigned digit_start = block_exclusive_sum(digit_count, s_warp_totals);
    if (tid < radix) warp_digit_starts<warps>(s_counters, tid, digit_start);
    __syncthreads();
    unsigned rank[items];
    rank_from_counts(image, digit, warp_counters, lane, rank, rows);
    __syncthreads();  // the counters are read; their bytes take the staged keys
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (k >= rows) break;
      s_keys[rank[k]] = image[k];
      s_positions[rank[k]] = position[k];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (k >= rows) break;
      image[k] = s_keys[warp_first + k * 32 + lane];
      position[k] = s_positions[warp_first + k * 32 + lane];
    }
    __syncthreads();  // read before the next digit's counters overwrite them
  }

  W moved[HasValues ? items : 1];
  if constexpr (HasValues) {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (k < rows && warp_first + k * 32 + lane < n) moved[k] = argsort_keys ? W(position[k]) : values[position[k]];
    __syncthreads();  // every value is read before any is overwritten
  }
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = warp_first + k * 32 + lane;
    if (k >= rows || i >= n) continue;
    keys[i] = detail::original_bits(image[k], kp.kind, kp.descending);
    if constexpr (HasValues) values[i] = moved[k];
  }
}

}  // namespace parprim::cuda_kernels::onesweep
