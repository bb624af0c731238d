// Keys-only sorts of 2-byte keys over all 16 bits (radix_sort.cu): a counting sort. With only
// 65536 distinct images, the count of each image gives the sorted keys outright, as the fill
// does for 1-byte keys (radix_sort_histogram.cuh): equal images are identical bits
// (ordered_bits is a bijection), so order among equal keys is moot. One read of the keys and
// one write, where two Onesweep passes read and write them twice after a histogram read
// (u16 keys at 2^28 on the H100: Onesweep 3.21 ms, 0.88x CUB; bench/results/2026-11-22-h100.md).
//
// Kernels, in stream order:
//   1. histogram  65536 counters, 32-bit, split in two halves of 128 KiB of shared memory:
//                 the blocks come in pairs that read the same keys at about the same time
//                 (so that the second read can come from L2), each counting its half
//   2. compact    the non-empty images in order, each with where it starts: one chained scan
//                 (decoupled look-back) over 64 blocks of 1024 images
//   3. fill       each block writes a contiguous range of the output, 8 keys per 16-byte
//                 store, finding the image of each position among the non-empty ones
//
// Why the non-empty images (2026-11-24, H100, bench/results/2026-11-24-h100-counting-sort16.md).
// The scan was one block of 1024 threads, 64 images each: 144 us whatever n, latency-bound,
// most of the whole sort below 2^26 keys (0.19 ms at 2^16, where CUB takes 0.05). The fill
// searched all 65536 starts for each position's image; where keys are sparse (fewer than one
// per image) every position is a new search of 16 dependent loads: 37 us at 2^16 uniform,
// 58 us when most keys are one value and the rest spread. Among the non-empty images each one
// has at least one position, so a block of P positions meets at most P of them (they always
// fit its shared memory) and the next position's image is the current one or the next one.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/kernels/radix_sort_common.cuh"
#include "parprim/cuda/detail/look_back.cuh"
#include "parprim/cuda/detail/tile_status.cuh"

namespace parprim::cuda_kernels::onesweep {

constexpr int wide_images = 1 << 16;
constexpr int wide_half = wide_images / 2;
constexpr int wide_hist_threads = 1024;
constexpr int wide_hist_shared_bytes = wide_half * int(sizeof(unsigned));
constexpr int wide_compact_threads = 256;
constexpr int wide_compact_images = 1024;  // per block: 4 per thread
constexpr int wide_compact_blocks = wide_images / wide_compact_images;
constexpr int wide_fill_threads = 256;
constexpr int wide_fill_part = wide_fill_threads * 8;  // positions staged at once: 8 per thread
// Fill blocks of up to wide_fill_max_parts parts, as many as leave fill_blocks_per_sm blocks
// per multiprocessor. Whole sort in ms on the H100 (uniform keys) for 1 / 4 / 8 parts: 2^16
// 0.024 / 0.033 / 0.045, 2^20 0.031 / 0.031 / 0.035, 2^24 0.090 / 0.079 / 0.080, 2^28 0.943
// / 0.732 / 0.722: one search and stage per part costs little while the grid is small, and
// at 2^28 a block per part is 131072 blocks of searches.
constexpr int wide_fill_max_parts = 8;
constexpr int wide_fill_blocks_per_sm = 2;

// ---- 1. Histogram of the 16-bit images, one half per block ------------------------------------
// Block b counts the images whose top bit is b % 2, reading keys as block pair b / 2 of
// gridDim.x / 2 pairs. Counts are 32-bit in shared memory (a pair sees at most n / pairs keys)
// and 64-bit in `hist`.
__global__ void __launch_bounds__(wide_hist_threads)
    wide_histogram(const std::uint16_t* keys, std::int64_t n, key_params kp,
                   unsigned long long* hist /* [wide_images], zeroed */) {
  extern __shared__ unsigned s_counts[];  // [wide_half]
  for (int i = threadIdx.x; i < wide_half; i += wide_hist_threads) s_counts[i] = 0;
  __syncthreads();
  const unsigned half = blockIdx.x & 1u;
  const std::int64_t pair = blockIdx.x >> 1, pairs = gridDim.x >> 1;
  auto count = [&](std::uint16_t raw) {
    const unsigned image = detail::ordered_bits(raw, kp.kind, kp.descending);
    if ((image >> 15) == half) atomicAdd(&s_counts[image & (wide_half - 1)], 1u);
  };
  const bool aligned = reinterpret_cast<std::uintptr_t>(keys) % sizeof(uint4) == 0;
  const std::int64_t vectors = aligned ? n / 8 : 0;
  const uint4* vkeys = reinterpret_cast<const uint4*>(keys);
  for (std::int64_t v = pair * wide_hist_threads + threadIdx.x; v < vectors;
       v += pairs * wide_hist_threads) {
    const uint4 w = vkeys[v];
    const unsigned words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      count(std::uint16_t(words[j] & 0xffffu));
      count(std::uint16_t(words[j] >> 16));
    }
  }
  for (std::int64_t i = vectors * 8 + pair * wide_hist_threads + threadIdx.x; i < n;
       i += pairs * wide_hist_threads)
    count(keys[i]);
  __syncthreads();
  for (int i = threadIdx.x; i < wide_half; i += wide_hist_threads)
    if (s_counts[i]) atomicAdd(&hist[half * wide_half + i], (unsigned long long)s_counts[i]);
}

// ---- 2. The non-empty images, compacted ------------------------------------------------------
// start[k] and image[k] (raw key bits) for the k-th non-empty image in key order, start[m] = n,
// *m_out = m. Each thread's four counts pack as (count << 17) + (count != 0), so one sum gives
// both where an image starts and how many non-empty images come before it (at most 65536,
// 17 bits; counts then have 45 bits, n < 2^45). Block b of the launch takes the b-th tile that
// its claim counter hands out, so it waits in the look-back only for started blocks.
constexpr int wide_nonempty_bits = 17;
constexpr long long wide_nonempty_mask = (1ll << wide_nonempty_bits) - 1;

__global__ void __launch_bounds__(wide_compact_threads)
    wide_compact(const unsigned long long* __restrict__ hist /* [wide_images] */,
                 cuda_prim::tile_count_status status, unsigned* tile_counter /* zeroed */,
                 long long* __restrict__ start /* [wide_images + 1] */,
                 std::uint16_t* __restrict__ image /* [wide_images] */, int* m_out, std::int64_t n,
                 key_params kp) {
  __shared__ int s_tile;
  __shared__ long long s_warp[wide_compact_threads / 32];
  __shared__ long long s_total, s_prefix;
  if (threadIdx.x == 0) s_tile = int(atomicAdd(tile_counter, 1u));
  __syncthreads();
  const int tile = s_tile;
  const int first = tile * wide_compact_images + threadIdx.x * 4;
  const ulonglong2 lo = reinterpret_cast<const ulonglong2*>(hist + first)[0];
  const ulonglong2 hi = reinterpret_cast<const ulonglong2*>(hist + first)[1];
  const unsigned long long count[4] = {lo.x, lo.y, hi.x, hi.y};
  auto packed = [](unsigned long long c) { return (long long)(c << wide_nonempty_bits) + (c != 0); };
  long long own = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) own += packed(count[j]);
  const long long before_thread = block_exclusive_sum(own, s_warp);
  if (threadIdx.x == wide_compact_threads - 1) s_total = before_thread + own;
  __syncthreads();
  if (threadIdx.x < 32) {
    const long long total = s_total;
    long long before_tile = 0;
    if (tile == 0) {
      if (threadIdx.x == 0) status.publish_inclusive(0, total);
    } else {
      if (threadIdx.x == 0) status.publish_aggregate(tile, total);
      before_tile = cuda_prim::look_back_count<2>(status, tile, 0);  // 64 tiles: one round
      if (threadIdx.x == 0) status.publish_inclusive(tile, before_tile + total);
    }
    if (threadIdx.x == 0) s_prefix = before_tile;
  }
  __syncthreads();
  long long at = s_prefix + before_thread;
#pragma unroll
  for (int j = 0; j < 4; ++j) {
    if (count[j] != 0) {
      const long long k = at & wide_nonempty_mask;
      start[k] = at >> wide_nonempty_bits;
      image[k] = detail::original_bits(std::uint16_t(first + j), kp.kind, kp.descending);
    }
    at += packed(count[j]);
  }
  if (tile == wide_compact_blocks - 1 && threadIdx.x == wide_compact_threads - 1) {
    const int m = int(at & wide_nonempty_mask);
    start[m] = n;
    *m_out = m;
  }
}

// ---- 3. Fill ------------------------------------------------------------------------------------
// The non-empty image k < m holding output position pos (start[k] <= pos < start[k + 1]), by
// one warp: each round the 32 lanes probe 32 evenly spaced starts of the remaining range
// (nondecreasing, so the probes at or below pos are a prefix of the lanes, lane 0's always
// among them): 65536 images take 4 dependent rounds instead of 16 loads.
__device__ __forceinline__ int entry_at_by_warp(const long long* start, int m, std::int64_t pos, int lane) {
  int lo = 0, len = m;  // the answer lies in [lo, lo + len)
  while (len > 1) {
    const int step = (len + 31) / 32;
    const bool at_or_below = lane * step < len && start[lo + lane * step] <= pos;
    const int last = 31 - __clz(__ballot_sync(full_mask, at_or_below));
    lo += last * step;
    len = min(step, len - last * step);
  }
  return lo;
}

struct fill_stage {
  long long start[wide_fill_part + 1];  // of entries lo .. lo + count (the one after the last)
  std::uint16_t image[wide_fill_part];
  int range[2];  // lo and the last entry
};

// Two warps find the entries at `first` and `last`; when there are at most wide_fill_part of
// them (always so for a range of that many positions), the block copies them to the stage.
// Returns how many there are. Contains barriers.
__device__ __forceinline__ int stage_entries(const long long* start, const std::uint16_t* image, int m,
                                             std::int64_t first, std::int64_t last, fill_stage& s) {
  if (threadIdx.x < 64) {
    const int which = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int k = entry_at_by_warp(start, m, which ? last : first, lane);
    if (lane == 0) s.range[which] = k;
  }
  __syncthreads();
  const int lo = s.range[0], count = s.range[1] - lo + 1;
  if (count <= wide_fill_part) {
    for (int i = threadIdx.x; i <= count; i += wide_fill_threads) s.start[i] = start[lo + i];
    for (int i = threadIdx.x; i < count; i += wide_fill_threads) s.image[i] = image[lo + i];
  }
  __syncthreads();
  return count;
}

// Positions p0 .. p0 + 7 (those up to `last`) from the `count` staged entries: one search for
// p0, then each later position is in the same entry or the next (every entry is non-empty).
__device__ __forceinline__ void fill_eight(std::int64_t p0, std::int64_t last, std::int64_t n, int count,
                                           const fill_stage& s, std::uint16_t* keys, bool aligned) {
  int k = 0, hi = count - 1;
  while (k < hi) {
    const int mid = (k + hi + 1) / 2;
    if (s.start[mid] <= p0) k = mid;
    else hi = mid - 1;
  }
  long long next = s.start[k + 1];
  std::uint16_t out[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    if (p0 + j >= next && p0 + j <= last) next = s.start[++k + 1];
    out[j] = s.image[k];
  }
  if (aligned && p0 + 8 <= n) {
    uint4 v;
    v.x = unsigned(out[0]) | unsigned(out[1]) << 16;
    v.y = unsigned(out[2]) | unsigned(out[3]) << 16;
    v.z = unsigned(out[4]) | unsigned(out[5]) << 16;
    v.w = unsigned(out[6]) | unsigned(out[7]) << 16;
    *reinterpret_cast<uint4*>(keys + p0) = v;
  } else {
    for (int j = 0; j < 8 && p0 + j < n; ++j) keys[p0 + j] = out[j];
  }
}

// Block b writes positions [b * parts * wide_fill_part, ...): staged once when its entries fit
// (dense keys), else one part at a time. Consecutive threads take consecutive groups of 8
// positions: each store instruction of a warp covers 512 contiguous bytes.
__global__ void __launch_bounds__(wide_fill_threads)
    wide_fill(const long long* __restrict__ start, const std::uint16_t* __restrict__ image,
              const int* m_ptr, std::int64_t n, int parts, std::uint16_t* keys) {
  __shared__ fill_stage s;
  const int m = *m_ptr;
  const bool aligned = reinterpret_cast<std::uintptr_t>(keys) % sizeof(uint4) == 0;
  const std::int64_t block_first = std::int64_t(blockIdx.x) * wide_fill_part * parts;
  const std::int64_t block_last = min(block_first + std::int64_t(wide_fill_part) * parts, n) - 1;
  const int count = stage_entries(start, image, m, block_first, block_last, s);
  if (count <= wide_fill_part) {
    for (int g = 0; g < parts; ++g) {
      const std::int64_t p0 = block_first + (std::int64_t(g) * wide_fill_threads + threadIdx.x) * 8;
      if (p0 > block_last) break;
      fill_eight(p0, block_last, n, count, s, keys, aligned);
    }
    return;
  }
  for (int g = 0; g < parts; ++g) {
    const std::int64_t first = block_first + std::int64_t(g) * wide_fill_part;
    if (first > block_last) break;
    const std::int64_t last = min(first + wide_fill_part - 1, block_last);
    __syncthreads();  // the previous part is written before its stage is replaced
    const int part_count = stage_entries(start, image, m, first, last, s);
    const std::int64_t p0 = first + std::int64_t(threadIdx.x) * 8;
    if (p0 <= last) fill_eight(p0, last, n, part_count, s, keys, aligned);
  }
}

}  // namespace parprim::cuda_kernels::onesweep
