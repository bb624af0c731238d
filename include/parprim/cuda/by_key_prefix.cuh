// The prefix of one tile of the by-key kernel (by_key.cuh), in two parts that travel apart,
// because only one of them needs an ordered chain:
//   run count  (reduce: a run's output position): an exact integer sum over the
//              tiles, by copy_if's single backward pass (look_back_count over
//              tile_count_status: count and flag in one relaxed 64-bit word; any combining
//              order gives the same integer);
//   value carry (reduce, scan): the fold of the run open at the tile's start,
//              C_t = A_h.tail op A_(h+1).value op ... op A_(t-1).value, h the nearest tile
//              before t holding a head. Each tile publishes its run_carry (has a head, fold
//              since its last head or of all of it) right after its warp totals are scanned;
//              a tile with a head publishes it as its inclusive carry too, at once, since
//              nothing before its last head reaches past it. So with runs shorter than a tile
//              the carry is one poll of tile t - 1, and only tiles inside a run longer than a
//              tile wait for a chain. The look-back folds left to right from the nearest
//              published inclusive carry, which gives the same bits as the left fold from h
//              (look_back.cuh), so float results are bitwise reproducible, and equal to the
//              left fold of whole run states over the tiles (the segmented operator restarts
//              the value at each head): the same bits as before the split.
// Why the split: with one 24-byte run state per tile (flag load with acquire, then the value:
// two round trips per poll), the H100 spent ~80 ns per 3840-element tile on the look-back
// chain whatever the run length (reduce_by_key of 2^28 u32/f32: 5.5 ms against CUB's 1.2 ms;
// ncu at 2^24: 71.5% of warp stalls at the barrier behind the look-back warp, DRAM 20%).
// Carries of 8-byte values (16 bytes with the head) take tile_status's split encoding: four
// flagged 64-bit words per slot, polled by two independent 16-byte loads (tile_status.cuh).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "parprim/cuda/detail/look_back.cuh"
#include "parprim/cuda/detail/tile_status.cuh"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/runs.hpp"

namespace parprim::cuda_kernels::by_key {

using parprim::detail::runs_kind;

// What a tile publishes for the value carry: whether it holds a head, and the fold of its
// values since its last head (or of all of them when it holds none).
template <class V>
struct run_carry {
  V value;
  std::uint32_t head;
};

// The carries' operator: a head in b restarts the fold (segmented_op without the count).
// Associative, not commutative; no identity needed (look_back.cuh never combines unpublished
// slots, and every tile holds elements).
template <class V, class Op>
struct carry_op {
  Op op;
  __device__ __forceinline__ run_carry<V> operator()(const run_carry<V>& a,
                                                     const run_carry<V>& b) const {
    if (b.head) return b;
    return run_carry<V>{op(a.value, b.value), a.head};
  }
};

// A run state within one tile, the block scan's element: run_state (detail/runs.hpp) with the
// head count and the valid flag packed into one 32-bit word, 2 x heads + valid (a tile holds
// at most 2^30 heads). A warp-scan step then shuffles 2 words for 4-byte values where
// run_state's 64-bit count, value and flag took 4, and adds 32-bit counts; the tile's run
// offset (64-bit) joins once per tile, in phase 5.
template <class V>
struct tile_state {
  std::uint32_t count;  // 2 x heads + valid
  V value;
  __device__ __forceinline__ bool valid() const { return (count & 1u) != 0; }
  __device__ __forceinline__ std::uint32_t heads() const { return count >> 1; }
};

// segmented_op on tile states: a head in b restarts the fold; the operator is called on the
// same values in the same order, so the results keep their bits.
template <class V, class Op>
struct tile_state_op {
  Op op;
  __device__ __forceinline__ tile_state<V> operator()(const tile_state<V>& a,
                                                      const tile_state<V>& b) const {
    // Without early returns, so the warp scan's steps compile to selects and one predicated
    // operator call rather than branches. Counts add, less the flag where both hold it.
    const std::uint32_t count = a.count + b.count - (a.count & b.count & 1u);
    V value = b.valid() ? b.value : a.value;
    if (a.valid() && b.valid() && b.heads() == 0) value = op(a.value, b.value);
    return tile_state<V>{count, value};
  }
  __device__ __forceinline__ static tile_state<V> identity() { return tile_state<V>{0u, V{}}; }
};

}  // namespace parprim::cuda_kernels::by_key

namespace parprim::cuda_prim {

// A carry with a value of at most 4 bytes packs into one status word (value in the high half,
// head in bit 1, flag in bit 0), so a poll is one relaxed 64-bit load (an 8-byte value's carry
// takes four words).
template <class V>
struct status_word<cuda_kernels::by_key::run_carry<V>, std::enable_if_t<(sizeof(V) <= 4)>> {
  static constexpr bool packs = true;
  __device__ __forceinline__ static unsigned long long pack(cuda_kernels::by_key::run_carry<V> c) {
    unsigned bits = 0;
    memcpy(&bits, &c.value, sizeof(V));
    return (static_cast<unsigned long long>(bits) << 32) | (c.head ? 2ull : 0ull) | 1ull;
  }
  __device__ __forceinline__ static cuda_kernels::by_key::run_carry<V> unpack(unsigned long long w) {
    cuda_kernels::by_key::run_carry<V> c;
    const unsigned bits = static_cast<unsigned>(w >> 32);
    memcpy(&c.value, &bits, sizeof(V));
    c.head = static_cast<std::uint32_t>((w >> 1) & 1ull);
    return c;
  }
};

}  // namespace parprim::cuda_prim

namespace parprim::cuda_kernels::by_key {

// Which look-backs a kind needs: both carry values, only the reduction counts runs (the
// heads kind runs the compaction kernel instead, by_key.cuh).
template <runs_kind Kind>
inline constexpr bool counts_runs = Kind == runs_kind::reduce;
// The warp that looks back for the carry: warp 1 when warp 0 counts (both at once), else 0.
template <runs_kind Kind>
inline constexpr int carry_warp = counts_runs<Kind> ? 1 : 0;

// Phase 4, the count (all lanes of one warp): the runs started before the tile into
// s.first_run; the tile's inclusive count is published, or for the last tile the run count
// goes to *run_count. Tile 0 publishes without waiting.
template <class Storage, class Shape>
__device__ __forceinline__ void resolve_count(Storage& s, int tile, int num_tiles, long long heads,
                                              const cuda_prim::tile_count_status& counts,
                                              std::int64_t* run_count, unsigned sleep_ns) {
  long long prefix = 0;
  if (tile > 0) {
    // Publish the aggregate first: later tiles may be waiting for it right now.
    if (cuda_prim::lane_id() == 0 && tile < num_tiles - 1) counts.publish_aggregate(tile, heads);
    // Counts add in any order: the single backward pass, one round trip per 64 tiles.
    prefix = cuda_prim::look_back_count<Shape::count_per_lane>(counts, tile, sleep_ns);
  }
  if (cuda_prim::lane_id() == 0) {
    if (tile < num_tiles - 1) counts.publish_inclusive(tile, prefix + heads);
    else *run_count = prefix + heads;
    s.first_run = prefix;
  }
}

// Phase 4, the value carry (all lanes of one warp) into s.carry. A tile holding a head
// publishes its carry as aggregate and inclusive at once (nothing before its last head
// reaches past it); the others publish the inclusive one after their look-back.
template <class V, class Op, class Storage, class Shape>
__device__ __forceinline__ void resolve_carry(Storage& s, int tile, int num_tiles,
                                              const tile_state<V>& total,
                                              const cuda_prim::tile_status<run_carry<V>>& carries,
                                              unsigned sleep_ns, const Op& op) {
  const carry_op<V, Op> cop{op};
  const run_carry<V> aggregate{total.value, total.heads() > 0 ? 1u : 0u};
  if (cuda_prim::lane_id() == 0 && tile < num_tiles - 1) {
    carries.publish_aggregate(tile, aggregate);
    if (aggregate.head) carries.publish_inclusive(tile, aggregate);
  }
  if (tile == 0) return;  // element 0 is a head: nothing carries into tile 0
  const run_carry<V> prefix =
      cuda_prim::look_back<run_carry<V>, carry_op<V, Op>, Shape::carry_per_lane,
                           (Shape::carry_per_lane > 1)>(carries, tile, cop, sleep_ns, s.carry_window);
  if (cuda_prim::lane_id() == 0) {
    if (!aggregate.head && tile < num_tiles - 1) carries.publish_inclusive(tile, cop(prefix, aggregate));
    s.carry = prefix.value;
  }
}

}  // namespace parprim::cuda_kernels::by_key
