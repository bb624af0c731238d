// Tile status words and the look-back of the single-pass compaction kernels (decoupled
// look-back, Merrill & Garland, NVR-2016-002, applied to selection counts).
//
// A tile status is a 2-bit state over a 62-bit count in one 64-bit word: one relaxed load or
// store is single-copy atomic, so the state is never seen without its count. States:
//   0          not published yet
//   aggregate  the count is the tile's own number of selected elements
//   inclusive  the count is the number of selected elements up to the end of the tile
// Counts are sums, so a tile may overwrite its aggregate with its inclusive prefix: a reader
// that walks back adds aggregates until it meets an inclusive prefix, whichever it sees.
// The words must be zero before the kernel starts (cudaMemsetAsync by the host).
#pragma once

#include <cstdint>


namespace parprim::cuda_kernels {

// Arguments of the look-back compaction kernel (select_lookback.cuh).
template <class T, class Pred>
struct select_args {
  const T* in;
  std::int64_t n;
  T* out;
  Pred pred;
  unsigned long long* status;      // [tiles], zeroed
  unsigned* tile_counter;          // zeroed
  std::int64_t* count_out;         // device: the total, written by the last tile (or null)
  unsigned tiles;
  bool vectorized;                 // in is 16-byte aligned
};

namespace select_status {

constexpr unsigned full_mask = 0xffffffffu;
constexpr unsigned long long state_shift = 62;
constexpr unsigned long long aggregate = 1ull << state_shift;
constexpr unsigned long long inclusive = 2ull << state_shift;
constexpr unsigned long long count_bits = (1ull << state_shift) - 1;

__device__ __forceinline__ unsigned long long load(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ bool published(unsigned long long w) { return (w >> state_shift) != 0; }
__device__ __forceinline__ bool is_inclusive(unsigned long long w) {
  return (w & ~count_bits) == inclusive;
}
__device__ __forceinline__ long long count_of(unsigned long long w) {
  return static_cast<long long>(w & count_bits);
}

__device__ __forceinline__ long long warp_sum_all(long long v) {
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(full_mask, v, m);
  return v;
}

// Selected elements in tiles [0, tile), computed by the 32 lanes of one warp (every lane
// returns it). Each round inspects a window of 32 * PerLane tiles just below the previous one:
// window position q = lane * PerLane + k is tile (top - q), so q = 0 is the nearest tile. The
// nearest inclusive prefix in the window ends the walk; otherwise the window's aggregates are
// added and the walk goes on below it.
//
// Why PerLane > 1. A tile can only publish its inclusive prefix after its own look-back, so
// the front of published inclusive prefixes advances by at most one window per L2 round trip
// (several hundred ns). With 32-tile windows that front, not DRAM bandwidth, caps the kernel
// at 32 tiles per round trip; a wider window lifts the cap at the price of more loads per
// round (cheap: they are independent and issued together).
template <int PerLane>
__device__ __forceinline__ long long look_back(const unsigned long long* status, long long tile,
                                               unsigned sleep_ns) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  long long sum = 0;
  for (long long top = tile - 1;; top -= 32 * PerLane) {
    unsigned long long w[PerLane];
    // Issue every load of the window before waiting on any of them.
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      const long long t = top - (lane * PerLane + k);
      w[k] = t >= 0 ? load(status + t) : inclusive;  // before tile 0: an inclusive 0
    }
    // Predecessors are running or done (tile ids follow block start order), so each of them
    // publishes its aggregate soon: wait for it.
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      const long long t = top - (lane * PerLane + k);
      while (!published(w[k])) {
        if (sleep_ns != 0) __nanosleep(sleep_ns);
        w[k] = load(status + t);
      }
    }
    int first = PerLane;  // this lane's nearest inclusive prefix (smallest k), if any
#pragma unroll
    for (int k = PerLane - 1; k >= 0; --k)
      if (is_inclusive(w[k])) first = k;
    const unsigned lanes = __ballot_sync(full_mask, first < PerLane);
    const int nearest = lanes ? __ffs(lanes) - 1 : 32;  // lowest lane = nearest tiles
    long long v = 0;
#pragma unroll
    for (int k = 0; k < PerLane; ++k)
      if (lane < nearest || (lane == nearest && k <= first)) v += count_of(w[k]);
    sum += warp_sum_all(v);
    if (lanes) return sum;
  }
}

}  // namespace select_status
}  // namespace parprim::cuda_kernels
