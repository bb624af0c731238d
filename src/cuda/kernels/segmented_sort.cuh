// Kernel bodies of the segmented sort (dispatch in segmented_sort.cu). U is the raw key word
// (u32 or u64); values, when present, are words of the same width. Keys are compared by their
// ordered image (core/sort_keys.hpp), with the position inside the segment as tie-break: that
// makes every size class stable and gives radix_sort's key order.
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"
#include "cuda/tuning/segmented_sort_tuning.hpp"

namespace parprim::cuda_kernels::segmented_sort {

using tuning = cuda_tuning::segmented_sort_tuning;

// Where the classifying kernel lists the segments it leaves to the block sorts and to the
// radix sort. counts[0]: medium segments, counts[1]: big ones, counts[2]: large ones.
struct segment_lists {
  std::int64_t* medium = nullptr;  // segment numbers, count <= tuning::block_tile
  std::int64_t* big = nullptr;     // segment numbers, count <= tuning::big_tile
  std::int64_t* large = nullptr;   // (begin, count) pairs
  unsigned long long* counts = nullptr;
};

// A segment of at most 32 keys, one per lane (lanes past the end hold the largest image):
// a bitonic network over the lanes on (image, position), 15 exchange steps by shuffles. On
// return lane i holds the i-th smallest pair, so the writes that follow are coalesced.
template <class U>
__device__ void warp_bitonic_sort(U& image, int& position, int lane) {
#pragma unroll
  for (int k = 2; k <= 32; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      const U other_image = __shfl_xor_sync(0xffffffffu, image, j);
      const int other_position = __shfl_xor_sync(0xffffffffu, position, j);
      const bool other_less =
          other_image < image || (other_image == image && other_position < position);
      // The lower lane of a pair keeps the smaller pair where this run ascends.
      const bool keep_smaller = ((lane & j) == 0) == ((lane & k) == 0);
      if (keep_smaller == other_less) {
        image = other_image;
        position = other_position;
      }
    }
  }
}

// Segments of 2 to 32 keys: load, sort across the lanes, write back in place.
template <class U>
__device__ void sort_warp_segment(U* keys, U* values, std::int64_t begin, int count, int lane,
                                  detail::key_kind kind, bool descending) {
  const bool mine = lane < count;
  U image = mine ? detail::ordered_bits(keys[begin + lane], kind, descending) : ~U(0);
  const U value = mine && values ? values[begin + lane] : U(0);
  int position = lane;
  warp_bitonic_sort(image, position, lane);
  const U moved = __shfl_sync(0xffffffffu, value, position);
  __syncwarp();  // every lane's loads are ordered before any lane's stores
  if (!mine) return;
  keys[begin + lane] = detail::original_bits(image, kind, descending);
  if (values) values[begin + lane] = moved;
}

// One warp per segment. Segments of at most 32 keys are sorted by a bitonic network across the
// lanes; those of up to tuning::warp_segment keys by rank: each key's final place is the number
// of keys before it in (image, position) order, found by comparing against every key of the
// segment through shuffles. Larger segments are listed.
template <class U>
__global__ void __launch_bounds__(tuning::classify_threads)
    warp_sort_kernel(U* keys, U* values, const std::int64_t* offsets, std::int64_t segments,
                     detail::key_kind kind, bool descending, segment_lists lists) {
  constexpr int items = tuning::warp_items;
  const std::int64_t segment =
      (std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = int(threadIdx.x % 32);
  if (segment >= segments) return;  // uniform over the warp
  const std::int64_t begin = offsets[segment];
  const std::int64_t count = offsets[segment + 1] - begin;
  if (count <= 1) return;
  if (count > tuning::warp_segment) {
    if (lane != 0) return;
    if (count <= tuning::block_tile) {
      lists.medium[atomicAdd(&lists.counts[0], 1ull)] = segment;
    } else if (count <= tuning::big_tile) {
      lists.big[atomicAdd(&lists.counts[1], 1ull)] = segment;
    } else {
      const unsigned long long at = atomicAdd(&lists.counts[2], 1ull);
      lists.large[2 * at] = begin;
      lists.large[2 * at + 1] = count;
    }
    return;
  }
  if (count <= 32) return sort_warp_segment(keys, values, begin, int(count), lane, kind, descending);
  U raw[items], image[items], value[items];
  int rank[items];
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const int pos = r * 32 + lane;
    const bool mine = pos < count;
    raw[r] = mine ? keys[begin + pos] : U(0);
    value[r] = mine && values ? values[begin + pos] : U(0);
    image[r] = detail::ordered_bits(raw[r], kind, descending);
    rank[r] = 0;
  }
#pragma unroll
  for (int r2 = 0; r2 < items; ++r2) {
    for (int j = 0; j < 32; ++j) {
      const U other = __shfl_sync(0xffffffffu, image[r2], j);
      const int other_pos = r2 * 32 + j;
      if (other_pos >= count) break;  // uniform: the same j on every lane
#pragma unroll
      for (int r = 0; r < items; ++r) {
        const int pos = r * 32 + lane;
        rank[r] += (other < image[r] || (other == image[r] && other_pos < pos)) ? 1 : 0;
      }
    }
  }
  // Every lane's loads are ordered before any lane's stores (the barrier orders memory).
  __syncwarp();
#pragma unroll
  for (int r = 0; r < items; ++r) {
    if (r * 32 + lane >= count) continue;
    keys[begin + rank[r]] = raw[r];
    if (values) values[begin + rank[r]] = value[r];
  }
}

// Images and positions of one tile in shared memory, ordered by (image, position).
template <class U>
__device__ void bitonic_sort_tile(U* image, std::uint16_t* position, int size) {
  for (int k = 2; k <= size; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int t = int(threadIdx.x); t < size / 2; t += blockDim.x) {
        const int i = (t / j) * 2 * j + (t % j);
        const int l = i + j;
        const bool ascending = (i & k) == 0;
        const bool greater = image[i] > image[l] ||
                             (image[i] == image[l] && position[i] > position[l]);
        if (greater == ascending) {
          const U a = image[i];
          image[i] = image[l];
          image[l] = a;
          const std::uint16_t p = position[i];
          position[i] = position[l];
          position[l] = p;
        }
      }
      __syncthreads();
    }
  }
}

// Dynamic shared memory of block_sort_kernel<U, Threads, Tile>.
template <class U>
constexpr int block_sort_shared_bytes(int tile) {
  return tile * int(sizeof(U) + sizeof(std::uint16_t));
}

// One block per listed segment (count <= Tile): a bitonic sort of (image, position) over
// the next power of two, padding with the largest image at positions past the end (they
// sort last, after every real key of that image).
template <class U, int Threads, int Tile>
__global__ void __launch_bounds__(Threads)
    block_sort_kernel(U* keys, U* values, const std::int64_t* offsets,
                      const std::int64_t* listed, detail::key_kind kind, bool descending) {
  static_assert(Tile % Threads == 0 && Tile <= 65536, "positions are 16-bit");
  constexpr int items = Tile / Threads;
  extern __shared__ __align__(16) unsigned char shared[];
  U* image = reinterpret_cast<U*>(shared);
  auto* position = reinterpret_cast<std::uint16_t*>(shared + Tile * sizeof(U));
  const std::int64_t segment = listed[blockIdx.x];
  const std::int64_t begin = offsets[segment];
  const int count = int(offsets[segment + 1] - begin);
  int size = 1;
  while (size < count) size <<= 1;
  for (int i = int(threadIdx.x); i < size; i += blockDim.x) {
    image[i] = i < count ? detail::ordered_bits(keys[begin + i], kind, descending) : ~U(0);
    position[i] = std::uint16_t(i);
  }
  __syncthreads();
  bitonic_sort_tile(image, position, size);
  U moved[items];
  if (values) {
#pragma unroll
    for (int r = 0; r < items; ++r) {
      const int i = r * Threads + int(threadIdx.x);
      if (i < count) moved[r] = values[begin + position[i]];
    }
  }
  __syncthreads();  // every value is read before any is overwritten
#pragma unroll
  for (int r = 0; r < items; ++r) {
    const int i = r * Threads + int(threadIdx.x);
    if (i >= count) continue;
    keys[begin + i] = detail::original_bits(image[i], kind, descending);
    if (values) values[begin + i] = moved[r];
  }
}

}  // namespace parprim::cuda_kernels::segmented_sort
