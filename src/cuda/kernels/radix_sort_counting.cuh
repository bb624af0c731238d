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
//   2. scan       where each image starts (one block)
//   3. fill       each block writes a contiguous range of the output, 8 keys per 16-byte
//                 store, finding the image of each position by searching the starts
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/kernels/radix_sort_common.cuh"

namespace parprim::cuda_kernels::onesweep {

constexpr int wide_images = 1 << 16;
constexpr int wide_half = wide_images / 2;
constexpr int wide_hist_threads = 1024;
constexpr int wide_hist_shared_bytes = wide_half * int(sizeof(unsigned));
constexpr int wide_scan_threads = 1024;
constexpr int wide_fill_threads = 256;
constexpr int wide_fill_groups = 4;  // 8-key groups per thread: 8192 keys per block

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

// ---- 2. Where each image starts: start[i] for i < wide_images, start[wide_images] = n -------
__global__ void __launch_bounds__(wide_scan_threads)
    wide_scan(const unsigned long long* hist, long long* start, std::int64_t n) {
  constexpr int per_thread = wide_images / wide_scan_threads;
  __shared__ long long warp_totals[wide_scan_threads / 32];
  const int first = threadIdx.x * per_thread;
  long long own = 0;
  for (int i = 0; i < per_thread; ++i) own += (long long)hist[first + i];
  long long at = block_exclusive_sum(own, warp_totals);
  for (int i = 0; i < per_thread; ++i) {
    start[first + i] = at;
    at += (long long)hist[first + i];
  }
  if (threadIdx.x == 0) start[wide_images] = n;
}

// The image at output position `pos` (0 <= pos < n), by one warp: the last i with
// start[i] <= pos. Each round, the 32 lanes probe 32 evenly spaced starts of the remaining
// range (nondecreasing, so the probes at or below pos are a prefix of the lanes, lane 0's
// always among them): 65536 images take 4 dependent rounds instead of 16 loads.
__device__ __forceinline__ int image_at_by_warp(const long long* start, std::int64_t pos, int lane) {
  int lo = 0, len = wide_images;  // the answer lies in [lo, lo + len)
  while (len > 1) {
    const int step = (len + 31) / 32;
    const int probe = lo + lane * step;
    const bool at_or_below = lane * step < len && start[probe] <= pos;
    const int last = 31 - __clz(__ballot_sync(full_mask, at_or_below));
    lo += last * step;
    len = min(step, len - last * step);
  }
  return lo;
}

// ---- 3. Fill: block b writes positions [b * block_keys, (b + 1) * block_keys) -----------------
// Two warps find the images at the block's first and last positions; when few images lie
// between (dense keys), their starts are staged in shared memory, so each thread's search for
// its 8 keys runs there.
constexpr int wide_fill_stage = 1024;  // starts staged per block

__global__ void __launch_bounds__(wide_fill_threads)
    wide_fill(const long long* start /* [wide_images + 1] */, std::int64_t n, key_params kp,
              std::uint16_t* keys) {
  constexpr std::int64_t block_keys = std::int64_t(wide_fill_threads) * wide_fill_groups * 8;
  __shared__ int s_range[2];  // the images at the block's first and last positions
  __shared__ long long s_start[wide_fill_stage];
  const std::int64_t block_first = std::int64_t(blockIdx.x) * block_keys;
  const std::int64_t block_last = min(block_first + block_keys, n) - 1;
  if (threadIdx.x < 64) {
    const int which = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int image = image_at_by_warp(start, which ? block_last : block_first, lane);
    if (lane == 0) s_range[which] = image;
  }
  __syncthreads();
  const int lo = s_range[0], hi = s_range[1];
  const bool staged = hi + 2 - lo <= wide_fill_stage;  // starts lo .. hi + 1
  if (staged)
    for (int i = threadIdx.x; i < hi + 2 - lo; i += wide_fill_threads) s_start[i] = start[lo + i];
  __syncthreads();
  auto start_of = [&](int image) { return staged ? s_start[image - lo] : start[image]; };
  // The last image i in [a, b] with start_of(i) <= pos, given start_of(a) <= pos.
  auto image_at = [&](int a, int b, std::int64_t pos) {
    while (a < b) {
      const int mid = (a + b + 1) / 2;
      if (start_of(mid) <= pos) a = mid;
      else b = mid - 1;
    }
    return a;
  };
  const bool aligned = reinterpret_cast<std::uintptr_t>(keys) % sizeof(uint4) == 0;
  // Consecutive threads take consecutive groups of 8 keys: each store instruction of a warp
  // covers 512 contiguous bytes.
  for (int g = 0; g < wide_fill_groups; ++g) {
    const std::int64_t first = block_first + (std::int64_t(g) * wide_fill_threads + threadIdx.x) * 8;
    if (first > block_last) break;
    int image = image_at(lo, hi, first);
    long long next = start_of(image + 1);
    std::uint16_t out[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      if (first + j >= next && first + j <= block_last) {  // a later image: search past it
        image = image_at(image + 1, hi, first + j);
        next = start_of(image + 1);
      }
      out[j] = detail::original_bits(std::uint16_t(image), kp.kind, kp.descending);
    }
    if (aligned && first + 8 <= n) {
      uint4 v;
      v.x = unsigned(out[0]) | unsigned(out[1]) << 16;
      v.y = unsigned(out[2]) | unsigned(out[3]) << 16;
      v.z = unsigned(out[4]) | unsigned(out[5]) << 16;
      v.w = unsigned(out[6]) | unsigned(out[7]) << 16;
      *reinterpret_cast<uint4*>(keys + first) = v;
    } else {
      for (int j = 0; j < 8 && first + j < n; ++j) keys[first + j] = out[j];
    }
  }
}

}  // namespace parprim::cuda_kernels::onesweep
