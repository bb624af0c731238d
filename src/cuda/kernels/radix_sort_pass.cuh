// Onesweep kernels 3 and 4 (radix_sort.cu): one digit pass per launch, and the copy back when
// an odd number of passes ran.
#pragma once

#include "cuda/kernels/radix_sort_common.cuh"

namespace parprim::cuda_kernels::onesweep {

// ---- 3. One digit pass ------------------------------------------------------------------------
// The pass kernel's phases: load, rank (warp-level multisplit), publish the tile's counts,
// stage the tile sorted by digit in shared memory, look back, write. Its tricks:
//   - keys become their ordered image at load and raw words again at the write, so a digit
//     is a shift and a mask;
//   - the last tile is padded with the largest image: padding keys take the largest digit
//     and, coming last in input order, the tile positions past the real keys, so no key
//     needs a validity check (the padding is taken off the published count);
//   - the peers of a digit are found with 4 instructions per bit, and the group's leader
//     advances the warp counter for the digit (rank_from_counts);
//   - shared memory for the warp counters is reused for the staged tile;
//   - pairs: the values are loaded before the look-back (their loads overlap its wait) and
//     staged in their own shared area, so keys and values leave in one loop after one
//     barrier (the values had shared the keys' area, loaded after the key writes: two more
//     barriers per tile, the written keys' digits kept in registers, 4-byte pairs spilling 4
//     bytes; now none spills, by ptxas).

// Lanes of the warp whose `d` has the same low Bits bits: per bit, a ballot of the
// lanes with the bit set, complemented in the lanes without it.
template <int Bits>
__device__ __forceinline__ unsigned match_digit(unsigned d) {
  unsigned peers = full_mask;
#pragma unroll
  for (int b = 0; b < Bits; ++b) {
    unsigned same;
    asm("{\n\t.reg .pred p;\n\t.reg .b32 t;\n\t"
        "and.b32 t, %1, %2;\n\t"
        "setp.ne.u32 p, t, 0;\n\t"
        "vote.sync.ballot.b32 %0, p, 0xffffffff;\n\t"
        "@!p not.b32 %0, %0;\n\t}"
        : "=r"(same)
        : "r"(d), "r"(1u << b));
    peers &= same;
  }
  return peers;
}

// Counted ranking (radix_sort_common.cuh), first half: the warp's digit counts, one shared
// atomic per key whose result is unused (a reduction, off the critical path). Only the first
// `rows` items take part (the same number in every lane: radix_sort_small.cuh).
template <int Items, class U, class Digit>
__device__ __forceinline__ void count_digits(const U (&keys)[Items], Digit digit, unsigned* warp_hist,
                                             int rows = Items) {
#pragma unroll
  for (int k = 0; k < Items; ++k)
    if (k < rows) atomicAdd(&warp_hist[digit(keys[k])], 1u);
}

// Counted ranking, second half: `warp_next[d]` holds the tile position of the warp's next key
// of digit d. Per item, the lanes of one digit find each other by ballots, all read the
// position, and the highest lane advances it by the group's size; only this warp touches its
// counters, so a plain store after a __syncwarp does what the atomic did.
template <int Items, class U, class Digit>
__device__ __forceinline__ void rank_from_counts(const U (&keys)[Items], Digit digit,
                                                 unsigned* warp_next_counter, int lane,
                                                 unsigned (&rank)[Items], int rows = Items) {
  volatile unsigned* warp_next = warp_next_counter;
  const unsigned lanes_below = (1u << lane) - 1u;
  const unsigned lanes_above = ~lanes_below & ~(1u << lane);
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    if (k >= rows) break;
    const unsigned dk = digit(keys[k]);
    const unsigned peers = match_digit<tuning::radix_bits>(dk);
    const unsigned first = warp_next[dk];
    __syncwarp();  // every lane has read before the leader writes
    if ((peers & lanes_above) == 0) warp_next[dk] = first + unsigned(__popc(peers));
    __syncwarp();  // the write is seen by the next item's reads
    rank[k] = first + unsigned(__popc(peers & lanes_below));
  }
}

// Thread d, after the counting: each warp's counter of digit d (counters[w * radix + d])
// becomes the tile position of that warp's first key of digit d, the digit starting at
// `start` in the tile and the warps following each other.
template <int Warps>
__device__ __forceinline__ void warp_digit_starts(unsigned* counters, int d, unsigned start) {
  for (int w = 0; w < Warps; ++w) {
    const unsigned c = counters[w * radix + d];
    counters[w * radix + d] = start;
    start += c;
  }
}

// The pass kernel's dynamic shared memory: the warp counters during ranking, the tile's keys
// sorted by digit afterwards, and its values beside them (8-byte tiles outgrow the 48 KiB of
// static shared memory). Keys and values have their own areas, so the values are staged while
// the keys are still being read out, without a barrier between them.
template <class U, class Tile>
constexpr int staged_values_offset() {
  return (Tile::keys * int(sizeof(U)) + 15) / 16 * 16;
}
template <class U, class W, bool HasValues, class Tile>
constexpr int pass_shared_bytes() {
  constexpr int hist_bytes = (Tile::threads / 32) * radix * int(sizeof(unsigned));
  constexpr int stage_bytes =
      HasValues ? staged_values_offset<U, Tile>() + Tile::keys * int(sizeof(W)) : Tile::keys * int(sizeof(U));
  return hist_bytes > stage_bytes ? hist_bytes : stage_bytes;
}
// The pass kernel's static shared memory: the tile number, the warp totals, the digits'
// destinations for keys (and values), plus alignment padding.
template <bool HasValues, class Tile>
constexpr int pass_static_shared_bytes() {
  return 64 + (Tile::threads / 32) * 4 + (HasValues ? 2 : 1) * radix * int(sizeof(void*));
}

// Tile: a cuda_tuning::onesweep_tile (the tuned ones: default_tile).
template <class U, class W, bool HasValues, class Tile>
__global__ void __launch_bounds__(Tile::threads, Tile::min_blocks)
    onesweep_pass(pass_args<U, W> a, int pass) {
  using shape = pass_shape<U, W, HasValues, Tile>;
  constexpr int threads = shape::threads, items = shape::items, tile_keys = shape::tile;
  constexpr int warps = threads / 32, warp_keys = items * 32;
  extern __shared__ __align__(16) unsigned char s_shared[];
  __shared__ unsigned s_tile;
  __shared__ unsigned s_warp_totals[warps];
  // Per digit, where tile-local position 0 would go: out + (global index of the digit's first
  // key in the tile - its tile-local start). Kept as a pointer so that a key's address is one
  // load and one multiply-add; the values' pointers beside the keys'.
  __shared__ void* s_dst[radix];
  __shared__ void* s_dst_values[HasValues ? radix : 1];
  static_assert(pass_shared_bytes<U, W, HasValues, Tile>() + pass_static_shared_bytes<HasValues, Tile>() <=
                    227 * 1024,
                "shared memory per block: fewer keys per thread");

  if (a.control->skip[pass]) return;
  const int source = a.control->source[pass];
  // argsort's first pass that runs: the caller's keys, and the values are the indices.
  const bool make_indices = HasValues && a.argsort_keys && pass == a.control->first_pass;
  const U* in_keys = make_indices ? a.argsort_keys : source ? a.keys[1] : a.keys[0];
  U* out_keys = source ? a.keys[0] : a.keys[1];
  const unsigned state_inclusive = 2u + unsigned(source);
  const bool floating = a.kp.kind == detail::key_kind::floating;
  const bool descending = a.kp.descending;
  // Integer images are the raw bits XOR a constant (sort_keys.hpp); floats take the full map.
  const U flip = detail::ordered_bits(U(0), a.kp.kind, descending);
  const int shift = a.shift;
  const unsigned digit_mask = (1u << a.width) - 1u;  // the largest digit of this pass

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  unsigned* s_hist = reinterpret_cast<unsigned*>(s_shared);
  if (tid == 0) s_tile = atomicAdd(&a.control->tile_counter[pass], 1u);
  for (int i = tid; i < warps * radix; i += threads) s_hist[i] = 0;
  __syncthreads();
  const unsigned tile = s_tile;
  const std::int64_t tile_begin = std::int64_t(tile) * tile_keys;
  const int count = int(min(std::int64_t(tile_keys), a.n - tile_begin));
  const bool full = count == tile_keys;
  const chain_position chain = chain_of(tile, a.tiles_per_segment, tile_begin + tile_keys, a.n);

  // Load phase. Warp w owns keys [w * warp_keys, (w + 1) * warp_keys) of the tile; item k of
  // lane l is key w * warp_keys + k * 32 + l, so each load is coalesced and ranking items in
  // k order, lanes in lane order, visits the warp's keys in input order (stability). Keys
  // become images; the last tile is padded with the largest.
  const int warp_first = warp * warp_keys;
  const U* in = in_keys + tile_begin + warp_first + lane;
  U keys[items];
  if (full) {
#pragma unroll
    for (int k = 0; k < items; ++k) keys[k] = in[k * 32];
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k) keys[k] = warp_first + k * 32 + lane < count ? in[k * 32] : U(0);
  }
  if (floating) {
#pragma unroll
    for (int k = 0; k < items; ++k)
      keys[k] = detail::ordered_bits(keys[k], detail::key_kind::floating, descending);
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k) keys[k] ^= flip;
  }
  if (!full) {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (warp_first + k * 32 + lane >= count) keys[k] = ~U(0);
  }
  auto digit = [&](U image) { return unsigned(image >> shift) & digit_mask; };

  // Count phase, the first half of the ranking (radix_sort_common.cuh): the warp's digit
  // counts in its counters, before the tile publishes them.
  unsigned* warp_hist = s_hist + warp * radix;
  count_digits(keys, digit, warp_hist);
  __syncthreads();

  // Tile counts phase (thread d < radix): warp offsets, the tile's count of digit d
  // published without the padding, where digit d starts in the tile; then every warp's
  // counter becomes the tile position of its first key of each digit.
  const int d = tid;
  // Where digit d starts in the tile's segment: written by an earlier launch, so read now and
  // in flight during the ranking (radix_sort_common.cuh, tile_digit_start).
  const long long segment_start = d < radix ? a.segment_base[segment_base_at(chain.segment, pass, d)] : 0;
  unsigned digit_count = 0;  // with the padding: it only adds to the largest digit
  if (d < radix)
    for (int w = 0; w < warps; ++w) digit_count += s_hist[w * radix + d];
  const unsigned real_count = digit_count - (unsigned(d) == digit_mask ? unsigned(tile_keys - count) : 0u);
  unsigned* my_lookback = a.lookback + std::size_t(tile) * radix + d;
  if (d < radix)
    store_relaxed(my_lookback, ((chain.start ? state_inclusive : state_aggregate) << 30) | real_count);
  const unsigned tile_start = block_exclusive_sum(digit_count, s_warp_totals);
  if (d < radix) warp_digit_starts<warps>(s_hist, d, tile_start);
  __syncthreads();
  // Rank phase (warp-level multisplit) against the warp's known tile positions.
  unsigned rank[items];
  rank_from_counts(keys, digit, warp_hist, lane, rank);
  __syncthreads();  // the counters are read; their space becomes the staged tile

  // Local scatter phase: the tile sorted by digit; padding lands past the real keys.
  U* s_keys = reinterpret_cast<U*>(s_shared);
#pragma unroll
  for (int k = 0; k < items; ++k) s_keys[rank[k]] = keys[k];

  // The values are loaded once the keys are staged: their loads are in flight during the
  // look-back, and the keys' registers are free by then. (Loaded with the keys, before
  // ranking, they cost registers and gained nothing: bench/results.)
  W values[HasValues ? items : 1];
  if constexpr (HasValues) {
    const std::int64_t first_index = tile_begin + warp_first + lane;
    const W* in_values = (source ? a.values[1] : a.values[0]) + first_index;
    if (make_indices) {
#pragma unroll
      for (int k = 0; k < items; ++k) values[k] = W(first_index + k * 32);
    } else {
#pragma unroll
      for (int k = 0; k < items; ++k)
        values[k] = full || warp_first + k * 32 + lane < count ? in_values[k * 32] : W(0);
    }
  }

  // Look-back phase.
  if (d < radix) {
    const unsigned before_tile = chain.start ? 0u : look_back(my_lookback, real_count, state_inclusive);
    // Global index minus tile position for digit d.
    const long long to_global =
        tile_digit_start(a, pass, chain, d, segment_start, before_tile, real_count) - tile_start;
    s_dst[d] = out_keys + to_global;
    if constexpr (HasValues) s_dst_values[d] = (source ? a.values[0] : a.values[1]) + to_global;
  }
  W* s_values = reinterpret_cast<W*>(s_shared + staged_values_offset<U, Tile>());
  if constexpr (HasValues) {
#pragma unroll
    for (int k = 0; k < items; ++k) s_values[rank[k]] = values[k];
  }
  __syncthreads();

  // Write phase: consecutive threads take consecutive tile positions; a value goes where its
  // key goes.
  auto write_tile = [&](auto to_raw) {
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int i = k * threads + tid;
      if (full || i < count) {
        const U image = s_keys[i];
        const unsigned dk = digit(image);
        static_cast<U*>(s_dst[dk])[i] = to_raw(image);
        if constexpr (HasValues) static_cast<W*>(s_dst_values[dk])[i] = s_values[i];
      }
    }
  };
  if (floating)
    write_tile([&](U image) { return detail::original_bits(image, detail::key_kind::floating, descending); });
  else
    write_tile([&](U image) { return U(image ^ flip); });
}


// ---- 4. Copy back -----------------------------------------------------------------------------
// The result to the caller's arrays when an odd number of passes ran. argsort: the values
// alone (its keys are scratch), or the indices 0, 1, ... when no pass ran (all keys equal on
// the sorted bits).
template <class U, class W, bool HasValues>
__global__ void onesweep_copy_back(const onesweep_control* control, int passes, pass_args<U, W> a) {
  const bool argsort = HasValues && a.argsort_keys;
  const bool none_ran = control->first_pass == passes;
  if (control->source[passes] == 0 && !(argsort && none_ran)) return;  // already in place
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += stride) {
    if constexpr (HasValues) {
      if (argsort) {
        a.values[0][i] = none_ran ? W(i) : a.values[1][i];
        continue;
      }
      a.values[0][i] = a.values[1][i];
    }
    a.keys[0][i] = a.keys[1][i];
  }
}


}  // namespace parprim::cuda_kernels::onesweep
