// The block-wide select of segmented_top_k_tiles.cuh (which says how and why): a block's
// list of the best k candidates in shared memory, and a tile of its range merged into it by
// histogram rounds over the candidates' bits and a warp sort of at most select_buffer of them.
#pragma once

#include <cstdint>

#include "cuda/kernels/segmented_top_k.cuh"

namespace parprim::cuda_kernels::segmented_top_k::tiles {

constexpr int select_buffer = 64;  // the candidates warp 0 sorts: two per lane

// Rows of a tile per thread: 16 scores of 4 bytes, 8 of 8, in registers.
template <class U>
constexpr int tile_rows = sizeof(U) == 4 ? 16 : 8;
template <class U>
constexpr std::int64_t tile_elements = std::int64_t(tile_rows<U>) * select_threads;

template <class U>
__device__ __forceinline__ int highest_set_bit(U x) {
  if constexpr (sizeof(U) == 4) return 31 - __clz(x);
  else return 63 - __clzll(static_cast<long long>(x));
}

// A block's shared state: the list of the best k so far (best first), the candidates for the
// sort, the histogram, and the scratch of the block-wide sums.
template <class U>
struct select_shared {
  static constexpr int rows = tile_rows<U> + 1;  // row 0: the list
  U list_score[select_max_k];
  std::int64_t list_pos[select_max_k];
  U buffer_score[select_buffer];
  std::int64_t buffer_pos[select_buffer];
  int histogram[256];
  int rank_base[rows][select_warps];
  U warp_min[select_warps];
  U warp_max[select_warps];
  int warp_count[select_warps];
  int held, buffered;
  int digit, digit_above, digit_count;
};

// The sum of every thread's `count`. Called by the whole block.
template <class U>
__device__ __forceinline__ int block_sum(int count, select_shared<U>& sh) {
  __syncthreads();  // the last sum's readers are done
  count = __reduce_add_sync(all_lanes, count);
  if ((threadIdx.x & 31) == 0) sh.warp_count[threadIdx.x / 32] = count;
  __syncthreads();
  int total = 0;
#pragma unroll
  for (int w = 0; w < select_warps; ++w) total += sh.warp_count[w];
  return total;
}

// The smallest and largest of every thread's (lo, hi). Called by the whole block.
template <class U>
__device__ __forceinline__ void block_min_max(U& lo, U& hi, select_shared<U>& sh) {
#pragma unroll
  for (int stride = 16; stride > 0; stride >>= 1) {
    lo = min(lo, __shfl_xor_sync(all_lanes, lo, stride));
    hi = max(hi, __shfl_xor_sync(all_lanes, hi, stride));
  }
  __syncthreads();
  if ((threadIdx.x & 31) == 0) {
    sh.warp_min[threadIdx.x / 32] = lo;
    sh.warp_max[threadIdx.x / 32] = hi;
  }
  __syncthreads();
#pragma unroll
  for (int w = 0; w < select_warps; ++w) {
    lo = min(lo, sh.warp_min[w]);
    hi = max(hi, sh.warp_max[w]);
  }
}

// Warp 0: the digit (histogram bin) that holds the need-th highest candidate, with the counts
// above it and in it. Lane L reads bins 255 - 8L down to 248 - 8L.
template <class U>
__device__ __forceinline__ void find_digit(select_shared<U>& sh, int need) {
  const int lane = int(threadIdx.x & 31);
  int count[8], total = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) total += count[j] = sh.histogram[255 - 8 * lane - j];
  int before = total;  // inclusive scan over the lanes, then exclusive
#pragma unroll
  for (int stride = 1; stride < 32; stride <<= 1) {
    const int other = __shfl_up_sync(all_lanes, before, stride);
    if (lane >= stride) before += other;
  }
  before -= total;
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    if (before < need && before + count[j] >= need) {
      sh.digit = 255 - 8 * lane - j;
      sh.digit_above = before;
      sh.digit_count = count[j];
    }
    before += count[j];
  }
}

// The candidates (bits of `in_x`, row 0 the list) to take when every live one has score t:
// those above t, and the first `need` live ones in tile order, which is position order.
template <class U>
__device__ __forceinline__ unsigned take_ties(const U (&s)[select_shared<U>::rows], unsigned in_x,
                                              unsigned live, U t, int need, select_shared<U>& sh) {
  constexpr int rows = select_shared<U>::rows;
  constexpr int entries = rows * select_warps, per_lane = (entries + 31) / 32;
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x & 31);
  const unsigned below = (1u << lane) - 1;
  __syncthreads();  // rank_base's last readers are done
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    const unsigned flags = __ballot_sync(all_lanes, (live >> r) & 1);
    if (lane == 0) sh.rank_base[r][warp] = __popc(flags);
  }
  __syncthreads();
  if (warp == 0) {  // exclusive scan of the counts in (row, warp) order
    int* base = &sh.rank_base[0][0];
    int local[per_lane], sum = 0;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) {
      const int e = lane * per_lane + j;
      local[j] = e < entries ? base[e] : 0;
      sum += local[j];
    }
    int before = sum;
#pragma unroll
    for (int stride = 1; stride < 32; stride <<= 1) {
      const int other = __shfl_up_sync(all_lanes, before, stride);
      if (lane >= stride) before += other;
    }
    before -= sum;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) {
      const int e = lane * per_lane + j;
      if (e < entries) base[e] = before;
      before += local[j];
    }
  }
  __syncthreads();
  unsigned take = 0;
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    const unsigned flags = __ballot_sync(all_lanes, (live >> r) & 1);
    const bool first = ((live >> r) & 1) && sh.rank_base[r][warp] + __popc(flags & below) < need;
    if (((in_x >> r) & 1) && (s[r] > t || first)) take |= 1u << r;
  }
  return take;
}

// The candidates to sort when there are more than select_buffer: rounds of a radix select
// over the live ones (the k-th is among them; `above` are ahead of them all) until the ones at
// or above a digit's lowest score fit, or every live one has the same score.
template <class U>
__device__ __forceinline__ unsigned narrow(const U (&s)[select_shared<U>::rows], unsigned in_x, int k,
                                           select_shared<U>& sh) {
  constexpr int rows = select_shared<U>::rows, bits = int(sizeof(U)) * 8;
  unsigned live = in_x;
  int above = 0;
  for (;;) {
    U lo = ~U(0), hi = 0;
#pragma unroll
    for (int r = 0; r < rows; ++r)
      if ((live >> r) & 1) lo = min(lo, s[r]), hi = max(hi, s[r]);
    block_min_max(lo, hi, sh);
    if (lo == hi) return take_ties(s, in_x, live, lo, k - above, sh);
    const int top = highest_set_bit(U(lo ^ hi)), shift = top >= 7 ? top - 7 : 0;
    sh.histogram[threadIdx.x] = 0;  // find_digit read it before block_min_max's barriers
    __syncthreads();
#pragma unroll
    for (int r = 0; r < rows; ++r)
      if ((live >> r) & 1) atomicAdd(&sh.histogram[int(s[r] >> shift) & 255], 1);
    __syncthreads();
    if (threadIdx.x < 32) find_digit(sh, k - above);
    __syncthreads();
    const int digit = sh.digit, in_digit = sh.digit_count;
    above += sh.digit_above;
#pragma unroll
    for (int r = 0; r < rows; ++r)
      if ((int(s[r] >> shift) & 255) != digit) live &= ~(1u << r);
    if (above + in_digit <= select_buffer) {
      const U shared_bits = shift + 8 < bits ? U(lo >> (shift + 8) << (shift + 8)) : U(0);
      const U bound = shared_bits | U(U(digit) << shift);
      unsigned take = 0;
#pragma unroll
      for (int r = 0; r < rows; ++r)
        if (((in_x >> r) & 1) && s[r] >= bound) take |= 1u << r;
      return take;
    }
  }
}

// Warp 0: the buffer's candidates sorted best first, the first min(k, count) the new list.
template <class U>
__device__ __forceinline__ void sort_buffer(int k, select_shared<U>& sh) {
  const int lane = int(threadIdx.x & 31), count = sh.buffered;
  U a = lane < count ? sh.buffer_score[lane] : U(0);
  std::int64_t a_pos = lane < count ? sh.buffer_pos[lane] : behind_all;
  if (count <= 32) {
#pragma unroll
    for (int size = 2; size <= 32; size <<= 1)
#pragma unroll
      for (int stride = size / 2; stride > 0; stride >>= 1) warp_list<U>::exchange(a, a_pos, stride, (lane & size) == 0);
  } else {  // 64 entries: b holds entry lane + 32
    U b = lane + 32 < count ? sh.buffer_score[lane + 32] : U(0);
    std::int64_t b_pos = lane + 32 < count ? sh.buffer_pos[lane + 32] : behind_all;
#pragma unroll
    for (int size = 2; size <= 32; size <<= 1)
#pragma unroll
      for (int stride = size / 2; stride > 0; stride >>= 1) {
        warp_list<U>::exchange(a, a_pos, stride, (lane & size) == 0);
        warp_list<U>::exchange(b, b_pos, stride, ((lane + 32) & size) == 0);
      }
    if (ahead(b, b_pos, a, a_pos)) {  // size 64, stride 32: within the lane
      const U t = a;
      const std::int64_t t_pos = a_pos;
      a = b, a_pos = b_pos, b = t, b_pos = t_pos;
    }
#pragma unroll
    for (int stride = 16; stride > 0; stride >>= 1) warp_list<U>::exchange(a, a_pos, stride, true);
  }
  const int held = count < k ? count : k;
  if (lane < held) {
    sh.list_score[lane] = a;
    sh.list_pos[lane] = a_pos;
  }
  if (lane == 0) sh.held = held;
}

// One tile of `src` from element `base` merged into the block's list. Called by the whole block.
template <class Source, class U>
__device__ __forceinline__ void merge_tile(const Source& src, std::int64_t base, int k, select_shared<U>& sh) {
  constexpr int rows = select_shared<U>::rows;
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x & 31);
  const int held = sh.held;
  const bool full = held == k;
  const U kth = full ? sh.list_score[k - 1] : U(0);
  const std::int64_t kth_pos = full ? sh.list_pos[k - 1] : 0;
  U s[rows];
  unsigned in_x = 0;
  int entering = 0;
  s[0] = U(0);
  if (warp == 0 && lane < held) s[0] = sh.list_score[lane], in_x = 1;
#pragma unroll
  for (int r = 1; r < rows; ++r) {
    const std::int64_t j = base + std::int64_t(r - 1) * select_threads + threadIdx.x;
    U score = 0;
    bool enters = src.score(j, score);
    s[r] = score;
    if (enters && full) enters = score > kth || (score == kth && src.position(j) < kth_pos);
    if (enters) in_x |= 1u << r, ++entering;
  }
  const int count = block_sum(entering, sh);
  if (count == 0) return;
  const unsigned take = held + count > select_buffer ? narrow(s, in_x, k, sh) : in_x;
  if (threadIdx.x == 0) sh.buffered = 0;
  __syncthreads();
  const unsigned below = (1u << lane) - 1;
#pragma unroll
  for (int r = 0; r < rows; ++r) {
    const unsigned flags = __ballot_sync(all_lanes, (take >> r) & 1);
    if (flags == 0) continue;
    int at = 0;
    if (lane == 0) at = atomicAdd(&sh.buffered, __popc(flags));
    at = __shfl_sync(all_lanes, at, 0) + __popc(flags & below);
    if ((take >> r) & 1) {
      sh.buffer_score[at] = s[r];
      sh.buffer_pos[at] =
          r == 0 ? sh.list_pos[lane] : src.position(base + std::int64_t(r - 1) * select_threads + threadIdx.x);
    }
  }
  __syncthreads();
  if (warp == 0) sort_buffer(k, sh);
  __syncthreads();
}

// The best min(k, candidates) of `src` in the block's list, best first. Called by the whole block.
template <class Source, class U>
__device__ __forceinline__ void block_select(const Source& src, int k, select_shared<U>& sh) {
  __syncthreads();  // the last list's readers are done
  if (threadIdx.x == 0) sh.held = 0;
  __syncthreads();
  for (std::int64_t base = 0; base < src.size(); base += tile_elements<U>) merge_tile(src, base, k, sh);
}

}  // namespace parprim::cuda_kernels::segmented_top_k::tiles
