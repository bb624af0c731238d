// Onesweep's shared pieces: the tile shape of each instantiation, the control block the scan
// kernel fills, and the decoupled look-back with its segment chaining (radix_sort.cu).
//
// Look-back words pack a 2-bit state and a 30-bit count: 0 not ready, 1 aggregate (the
// tile's own count), 2 + parity inclusive (count up to and including the tile). One buffer
// serves every pass without clearing: consecutive executed passes have opposite parities, so
// the inclusive words left by the previous pass read as "not ready".
//
// Segments. A 30-bit count caps a look-back chain below 2^30 keys, so the tiles are cut into
// segments of `tiles_per_segment` tiles, each with its own chain, and each pass is launched
// once per segment. Where digit d starts in segment s of a pass's input depends on how many
// keys of digit d the earlier segments of that input hold; the input of pass p > 0 is the
// output of pass p - 1, a permutation of the caller's keys, so those counts are not known
// upfront. The last tile of segment s knows them after its look-back (its inclusive count
// plus the segment's own start) and writes the start of segment s + 1, which the next
// launch reads: segment_base[s][pass][d] is written by the scan kernel for s = 0 and by
// segment s - 1 otherwise.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "core/sort_keys.hpp"
#include "cuda/tuning/sort_tuning.hpp"

namespace parprim::cuda_kernels::onesweep {

using tuning = cuda_tuning::onesweep_tuning;
constexpr int radix = tuning::radix;
constexpr int max_passes = 8;  // 64-bit keys
constexpr unsigned full_mask = 0xffffffffu;
constexpr unsigned count_mask = (1u << 30) - 1;
constexpr unsigned state_aggregate = 1u;
constexpr std::int64_t max_chain_keys = (std::int64_t(1) << 30) - 1;

// The tuned tile of each (key, value) width: 8-byte keys or values take the wide tile
// (registers, shared memory); 1- and 2-byte keys take the 4-byte tiles, except 1-byte keys
// alone (they spill at the 4-byte keys' tile).
template <class U, class W, bool HasValues>
using default_tile = std::conditional_t<
    sizeof(U) == 8 || (HasValues && sizeof(W) == 8), tuning::wide_tile,
    std::conditional_t<HasValues, tuning::pairs_tile,
                       std::conditional_t<sizeof(U) == 1, tuning::byte_keys_tile, tuning::keys_tile>>>;

// The tile of one pass-kernel instantiation (Tile: a cuda_tuning::onesweep_tile).
template <class U, class W, bool HasValues, class Tile>
struct pass_shape {
  static constexpr int threads = Tile::threads;
  static constexpr int items = Tile::items;
  static constexpr int min_blocks = Tile::min_blocks;
  static constexpr int tile = Tile::keys;
  static_assert(threads >= radix && threads % 32 == 0,
                "the look-back and the tile counts take one thread per digit");
  static_assert(tile < (1 << 16), "tile-local ranks");
  static_assert(std::int64_t(tile) <= max_chain_keys, "a segment holds at least one tile");
};

// Decided on the device by the scan kernel; read by the passes and the copy back.
struct onesweep_control {
  unsigned tile_counter[max_passes];  // dynamic tile numbering, one counter per pass
  int skip[max_passes];               // 1: every key has the same digit in this pass
  int source[max_passes + 1];         // buffer each pass reads; [passes]: where the result is
  int first_pass;                     // the first pass not skipped; passes when all are
};

// How the pass kernel ranks a tile's keys (counted ranking, CUB's early counts): the warps
// first count their digits with shared atomics that return nothing, the tile publishes its
// counts to the look-back and turns the per-warp counts into tile positions, and only then do
// the warps walk their keys: the lanes of a digit read the warp's next position for it and the
// leader advances it with a plain store (the counter is the warp's own, so no atomic is
// needed). Successor tiles find the counts while this tile is still ranking. Measured on the
// H100 against CUB in the same run (parprim bench sort, 2^27 / 2^28 keys), ours/CUB:
//   counts first   u32 0.97x/0.97x, u32/u32 pairs 1.00x/1.01x, u64 0.93x/0.93x;
//   ranking first  (the leader's shared atomic returns every member's base, counts published
//                  after the whole walk) u32 0.88x/0.87x, pairs 0.97x/0.97x, u64 0.87x/0.88x;
//   peers by atomic-OR lane masks instead of ballots (CUB's WARP_MATCH_ATOMIC_OR)
//                  u32 0.90x/0.90x, pairs 0.98x/0.99x, u64 0.89x/0.89x
// (bench/results/2026-11-21-h100-experiments.md).

struct key_params {
  detail::key_kind kind;
  bool descending;
};

__device__ __forceinline__ unsigned load_relaxed(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Exclusive sum over the block of one value per thread (threads past the digits pass 0).
// Contains barriers: every thread calls it.
template <class T>
__device__ __forceinline__ T block_exclusive_sum(T v, T* warp_totals /* blockDim.x / 32 */) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  T inclusive = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    T below = __shfl_up_sync(full_mask, inclusive, d);
    if (lane >= d) inclusive += below;
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  T before = 0;
  for (int w = 0; w < warp; ++w) before += warp_totals[w];
  __syncthreads();  // warp_totals may be reused by the caller
  return before + inclusive - v;
}


// The arguments of every pass kernel.
template <class U, class W>
struct pass_args {
  U* keys[2];    // [0]: the caller's keys (argsort: scratch), [1]: the temporary copy
  W* values[2];  // null when sorting keys only
  // argsort: the caller's keys, which the first pass that runs reads instead of keys[0]; it
  // makes the values (the indices) instead of loading them. Null otherwise.
  const U* argsort_keys;
  std::int64_t n;
  key_params kp;
  int shift, width;
  unsigned tiles_per_segment;       // each segment's tiles form one look-back chain
  unsigned* lookback;               // [tiles][radix]
  onesweep_control* control;
  long long* segment_base;          // [segments][max_passes][radix]
};

// Where the tile sits in its segment's look-back chain.
struct chain_position {
  unsigned segment;
  bool start;            // the segment's first tile: its counts are inclusive at once
  bool last_of_segment;  // the segment's last tile, with a segment after it
};

__device__ __forceinline__ chain_position chain_of(unsigned tile, unsigned tiles_per_segment,
                                                   std::int64_t tile_end, std::int64_t n) {
  chain_position c;
  c.segment = tile / tiles_per_segment;
  c.start = tile % tiles_per_segment == 0;
  c.last_of_segment = (tile + 1) % tiles_per_segment == 0 && tile_end < n;
  return c;
}

// Look-back phase for thread d: the count of digit d in the tile's predecessors within its
// segment, walking back until a tile with an inclusive count; then publishes the tile's own
// inclusive count. Not called by a segment's first tile.
__device__ __forceinline__ unsigned look_back(unsigned* my_word, unsigned digit_count,
                                              unsigned state_inclusive) {
  unsigned before = 0;
  const unsigned* word = my_word;
  for (;;) {
    word -= radix;
    unsigned w = load_relaxed(word);
    while ((w >> 30) != state_aggregate && (w >> 30) != state_inclusive) w = load_relaxed(word);
    before += w & count_mask;
    if ((w >> 30) == state_inclusive) break;
  }
  store_relaxed(my_word, (state_inclusive << 30) | (before + digit_count));
  return before;
}

// Where segment_base[segment][pass][d] lives.
__device__ __forceinline__ std::size_t segment_base_at(unsigned segment, int pass, int d) {
  return (std::size_t(segment) * max_passes + pass) * radix + d;
}

// Segment phase for thread d: the global index of digit d's first key in this tile, given
// where digit d starts in the tile's segment (segment_base, written by an earlier launch, so
// the pass reads it before its look-back: one L2 round trip less after the look-back on each
// tile's path) and the count of digit d in the earlier tiles of the segment; the segment's
// last tile also hands the start of digit d in the next segment to the next launch.
template <class U, class W>
__device__ __forceinline__ long long tile_digit_start(const pass_args<U, W>& a, int pass,
                                                      chain_position c, int d,
                                                      long long segment_start,
                                                      unsigned before_tile, unsigned digit_count) {
  if (c.last_of_segment)
    a.segment_base[segment_base_at(c.segment + 1, pass, d)] = segment_start + before_tile + digit_count;
  return segment_start + before_tile;
}


}  // namespace parprim::cuda_kernels::onesweep
