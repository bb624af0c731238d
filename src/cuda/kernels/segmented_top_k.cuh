// Segmented top-k for k <= 32 by warp lists (segmented_top_k.cu; where segments of 4096 to 2^14
// on average meet k >= 4, segmented_top_k_tiles.cuh instead): blocks over equal chunks of the
// keys, no sort.
//
// A block takes the segments that begin in its chunk, one at a time, and its part of any
// segment longer than a chunk. Each warp reads every eighth 32-element batch and keeps the best
// candidates it has seen as a list of at most k entries, one per lane in order (lane j holds the
// j-th best). A candidate is a score (the key's image in radix_sort's order, inverted when the
// smallest are asked for) and its position; a candidate is ahead of another when its score is
// higher or equal with an earlier position, which is the contract's tie rule. A batch costs one
// coalesced load and one ballot against the list's k-th entry; only the elements that beat it
// enter, each by one ballot (its place) and one shift of the list (shuffles), or, when more
// than select_bulk_entries of a batch enter, all at once by a bitonic merge. The other warps'
// lists then enter warp 0's the same way, and warp 0 writes the segment: in list order for
// sorted output, else at their rank by position. The lists of a long segment's parts are kept,
// and a second pass merges them the same way and writes it.
//
// Why (H100, 2026-11-23-h100-top_k-scan-counts.json): by composition (a stable segmented sort
// of (key, position), a slice, a gather) segments of 4096 at 2^28 took 21.4 ms for k = 1, more
// than the segmented sort alone (19.3 ms). Reading the keys once, with few insertions after a
// list fills (about k ln(length / k) for keys in random order), this kernel is bound by that
// read. Input sorted against the order asked for is its worst case: every element enters, and
// each batch costs one merge (about 2x / 5x the time of random keys for k = 1 / 32).
// Chunks, not one block per segment (2026-11-25-h100-segmented-top-k-chunks.md): a segment
// far longer than the others, or a single segment, had one SM to itself.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/sort_keys.hpp"

namespace parprim::cuda_kernels::segmented_top_k {

constexpr int select_threads = 256;
constexpr int select_warps = select_threads / 32;
constexpr int select_max_k = 32;  // one list entry per lane
constexpr int select_loads_in_flight = 2;  // batches each warp loads before offering them
// The register budget of select_chunks_kernel (48 at 5 blocks an SM, no spills). 8 blocks (32
// registers, 56 B of stack) were faster on segments of 4096 but slower on one segment
// (2026-11-25-h100-segmented-top-k-ascending.md).
constexpr int select_min_blocks_per_sm = 5;
constexpr unsigned all_lanes = 0xffffffffu;
// Above this many elements of a batch entering a warp's list, they enter by one merge (4 and
// 8 measured alike, 16 slower on segments of 4096: 4.24 against 3.80 ms at 2^28, k = 32).
constexpr int select_bulk_entries = 8;
// A position behind every real one: with score 0, the candidate behind all others.
constexpr std::int64_t behind_all = INT64_MAX;

template <class U>
__device__ __forceinline__ bool ahead(U score_a, std::int64_t pos_a, U score_b, std::int64_t pos_b) {
  return score_a > score_b || (score_a == score_b && pos_a < pos_b);
}

template <class K>
__device__ __forceinline__ detail::key_word_t<K> score_of(K key, bool largest) {
  using U = detail::key_word_t<K>;
  U raw;
  std::memcpy(&raw, &key, sizeof(K));
  const U image = detail::ordered_bits(raw, detail::kind_of<K>(), false);
  return largest ? image : U(~image);
}

// The best `held` (at most k) candidates a warp has seen, lane j holding the j-th. `held` is
// the same in every lane.
template <class U>
struct warp_list {
  U score = 0;
  std::int64_t pos = -1;
  int held = 0;

  // Whether (s, p) would enter a list whose k-th entry is (kth_score, kth_pos).
  __device__ __forceinline__ bool admits(U s, std::int64_t p, int k, U kth_score,
                                         std::int64_t kth_pos) const {
    return held < k || ahead(s, p, kth_score, kth_pos);
  }

  // Offers (s, p), the same in every lane, to the list of at most k entries.
  __device__ __forceinline__ void offer(U s, std::int64_t p, int k) {
    const int lane = int(threadIdx.x & 31);
    const U kth_score = __shfl_sync(all_lanes, score, k - 1);
    const std::int64_t kth_pos = __shfl_sync(all_lanes, pos, k - 1);
    if (!admits(s, p, k, kth_score, kth_pos)) return;  // the same in every lane
    // The entries ahead of it are a prefix of the list: it goes after them.
    const int at = __popc(__ballot_sync(all_lanes, lane < held && ahead(score, pos, s, p)));
    const U above_score = __shfl_up_sync(all_lanes, score, 1);
    const std::int64_t above_pos = __shfl_up_sync(all_lanes, pos, 1);
    if (lane > at) {
      score = above_score;
      pos = above_pos;
    } else if (lane == at) {
      score = s;
      pos = p;
    }
    if (held < k) ++held;
  }

  // Offers the candidates of the lanes where `offered` holds. Few enter one at a time, in
  // lane order; more than select_bulk_entries by a merge (merge_batch), whose cost does not
  // depend on how many enter.
  __device__ __forceinline__ void offer_batch(bool offered, U s, std::int64_t p, int k) {
    const U kth_score = __shfl_sync(all_lanes, score, k - 1);
    const std::int64_t kth_pos = __shfl_sync(all_lanes, pos, k - 1);
    const bool enters = offered && admits(s, p, k, kth_score, kth_pos);
    unsigned entering = __ballot_sync(all_lanes, enters);
    if (__popc(entering) > select_bulk_entries) return merge_batch(enters, s, p, k, __popc(entering));
    while (entering) {
      const int from = __ffs(entering) - 1;
      entering &= entering - 1;
      offer(__shfl_sync(all_lanes, s, from), __shfl_sync(all_lanes, p, from), k);
    }
  }

  // The lanes' candidates (s, p) where `enters` holds (`count` of them) merged into the list:
  // a bitonic sort of the batch, best first, across the lanes; the list against the batch in
  // reverse, each lane keeping the better of its pair (the best 32 of both, in a bitonic
  // sequence); a bitonic merge of that. About 21 compare-exchange steps, against one insertion
  // (a ballot and a shift) per entering element; for k = 1 a 5-step butterfly. Keys in
  // ascending order with the largest asked make every element enter: one segment of 2^28 such
  // f32 took 13.4 / 19.1 ms (k = 1 / 32) one at a time, 1.72 / 4.25 ms so, against 0.80 / 0.90
  // ms for random keys. Random keys in segments of 4096 gained too (k = 32 6.30 -> 3.80 ms):
  // a list's first batches enter almost whole (H100, 2026-11-25-h100-segmented-top-k-ascending.md).
  __device__ __forceinline__ void merge_batch(bool enters, U s, std::int64_t p, int k, int count) {
    const int lane = int(threadIdx.x & 31);
    U bs = enters ? s : U(0);
    std::int64_t bp = enters ? p : behind_all;
    if (k == 1) {  // the batch's best by a butterfly, into every lane: 5 steps
#pragma unroll
      for (int stride = 16; stride > 0; stride >>= 1) exchange(bs, bp, stride, (lane & stride) == 0);
      if (held == 0 || ahead(bs, bp, score, pos)) score = bs, pos = bp;
      held = 1;
      return;
    }
#pragma unroll
    for (int size = 2; size <= 32; size <<= 1)
#pragma unroll
      for (int stride = size / 2; stride > 0; stride >>= 1)
        exchange(bs, bp, stride, (lane & size) == 0);  // size 32: all best first
    U ls = lane < held ? score : U(0);
    std::int64_t lp = lane < held ? pos : behind_all;
    const U rs = __shfl_sync(all_lanes, bs, 31 - lane);
    const std::int64_t rp = __shfl_sync(all_lanes, bp, 31 - lane);
    if (ahead(rs, rp, ls, lp)) ls = rs, lp = rp;
#pragma unroll
    for (int stride = 16; stride > 0; stride >>= 1) exchange(ls, lp, stride, true);
    score = ls;
    pos = lp;
    held = min(k, held + count);
  }

  // One compare-exchange of a bitonic network between this lane and lane ^ stride: the lower
  // lane keeps the better candidate when best_first, the worse otherwise.
  __device__ __forceinline__ static void exchange(U& s, std::int64_t& p, int stride, bool best_first) {
    const U other_s = __shfl_xor_sync(all_lanes, s, stride);
    const std::int64_t other_p = __shfl_xor_sync(all_lanes, p, stride);
    const bool lower = (int(threadIdx.x & 31) & stride) == 0;
    const bool other_ahead = ahead(other_s, other_p, s, p);
    if (lower == best_first ? other_ahead : !other_ahead) s = other_s, p = other_p;
  }
};

// The best k of a block's elements, collected in warp 0's list. Every warp keeps a list; the
// other warps' lists enter warp 0's through shared memory. Called by the whole block.
template <class U>
struct block_lists {
  U score[select_warps][32];
  std::int64_t pos[select_warps][32];
  int held[select_warps];

  __device__ __forceinline__ void gather_into_warp0(warp_list<U>& list, int k) {
    const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x & 31);
    if (warp > 0) {
      score[warp][lane] = list.score;
      pos[warp][lane] = list.pos;
      if (lane == 0) held[warp] = list.held;
    }
    __syncthreads();
    if (warp == 0)
      for (int w = 1; w < select_warps; ++w) list.offer_batch(lane < held[w], score[w][lane], pos[w][lane], k);
    __syncthreads();  // read before the next use writes
  }
};

// The best k of in[lo, hi): batch b (32 elements) goes to warp b % select_warps, and each warp
// loads select_loads_in_flight batches before it offers any. H100, one segment of 2^28 f32,
// k = 1: 2 loads 1516 GB/s, 4 loads 1621 GB/s (64 registers, 4 blocks an SM against 5), but 4
// were slower with k = 32 in the skewed layout (5.44 against 4.56 ms):
// 2026-11-25-h100-segmented-top-k-chunks.md.
template <class K, class U>
__device__ __forceinline__ warp_list<U> block_best(const K* in, std::int64_t lo, std::int64_t hi,
                                                   bool largest, int k, block_lists<U>& shared) {
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x & 31);
  warp_list<U> list;
  constexpr int L = select_loads_in_flight;
  for (std::int64_t group = lo; group < hi; group += std::int64_t(select_threads) * L) {
    K key[L] = {};
#pragma unroll
    for (int u = 0; u < L; ++u) {
      const std::int64_t i = group + std::int64_t(u * select_warps + warp) * 32 + lane;
      if (i < hi) key[u] = in[i];
    }
#pragma unroll
    for (int u = 0; u < L; ++u) {
      const std::int64_t i = group + std::int64_t(u * select_warps + warp) * 32 + lane;
      const bool valid = i < hi;
      list.offer_batch(valid, valid ? score_of(key[u], largest) : U(0), i, k);
    }
  }
  shared.gather_into_warp0(list, k);
  return list;
}

// Warp 0 writes its list to segment s's k slots: in list order for sorted output, else each
// at its rank by position among the chosen.
template <class K, class W, class U>
__device__ __forceinline__ void write_list(const warp_list<U>& list, const K* in, const W* values,
                                           std::int64_t s, int k, bool sorted, K* out, W* out_values) {
  const int lane = int(threadIdx.x & 31);
  int slot = lane;
  if (!sorted) {
    slot = 0;
    for (int j = 0; j < 32; ++j) {
      const std::int64_t other = __shfl_sync(all_lanes, list.pos, j);
      if (j < list.held && other < list.pos) ++slot;
    }
  }
  if (lane < list.held) {
    out[s * k + slot] = in[list.pos];
    if (out_values) out_values[s * k + slot] = values[list.pos];
  }
}

// The lists of the parts of segments longer than a chunk, two slots per chunk g: 2g for the
// segment that began before the chunk, 2g + 1 for the one that begins in it (it ends after it:
// at most one of each).
template <class U>
struct partial_lists {
  U* score;            // select_max_k per slot
  std::int64_t* pos;   // select_max_k per slot
  int* held;           // one per slot

  __device__ __forceinline__ void store(std::int64_t slot, const warp_list<U>& list) const {
    const int lane = int(threadIdx.x & 31);
    score[slot * select_max_k + lane] = list.score;
    pos[slot * select_max_k + lane] = list.pos;
    if (lane == 0) held[slot] = list.held;
  }
};

// The last segment that begins at or before position p (first <= p < last): the one holding p.
__device__ __forceinline__ std::int64_t segment_holding(const std::int64_t* offsets, std::int64_t segments,
                                                        std::int64_t p) {
  std::int64_t lo = 0, hi = segments;  // offsets[lo] <= p < offsets[hi]
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

// What pass 1 takes from chunk g of [first, last): part(s, lo, hi, slot) for each segment s
// that begins in the chunk, and for the part in it of each segment longer than a chunk, in[lo,
// hi) being what to read; slot is where a part's list is kept for pass 2 (partial_lists), -1
// for a whole segment. Called by the whole block.
template <class Part>
__device__ __forceinline__ void for_each_part(const std::int64_t* offsets, std::int64_t segments,
                                              std::int64_t first, std::int64_t last, std::int64_t chunk,
                                              std::int64_t g, Part part) {
  const std::int64_t cb = first + g * chunk, ce = cb + chunk < last ? cb + chunk : last;
  for (std::int64_t s = segment_holding(offsets, segments, cb); s < segments; ++s) {
    const std::int64_t begin = offsets[s], end = offsets[s + 1];
    if (begin >= ce) break;
    const bool split = end - begin > chunk;
    if (begin == end || (!split && begin < cb)) continue;  // empty, or its chunk's
    const std::int64_t lo = split && begin < cb ? cb : begin, hi = split && end > ce ? ce : end;
    part(s, lo, hi, !split ? std::int64_t(-1) : begin < cb ? 2 * g : 2 * g + 1);
  }
}

// Pass 1. The keys [first, last) cut into chunks of `chunk` elements, chunk g to block
// g % gridDim.x: about equal work per block however long the segments are (one block per
// segment left a single long segment to one SM). A segment of at most `chunk` elements is
// taken whole by the chunk where it begins and written out, so that a block reads at most two
// chunks; a longer one is taken part by part, the part in each chunk it covers, and those
// lists are kept for pass 2.
template <class K, class W>
__global__ void __launch_bounds__(select_threads, select_min_blocks_per_sm)
    select_chunks_kernel(const K* in, const W* values, const std::int64_t* offsets,
                         std::int64_t segments, std::int64_t first, std::int64_t last,
                         std::int64_t chunk, int k, bool largest, bool sorted, K* out,
                         W* out_values, partial_lists<detail::key_word_t<K>> partial) {
  using U = detail::key_word_t<K>;
  __shared__ block_lists<U> shared;
  const int warp = int(threadIdx.x / 32);
  const std::int64_t chunks = (last - first + chunk - 1) / chunk;
  for (std::int64_t g = blockIdx.x; g < chunks; g += gridDim.x)
    for_each_part(offsets, segments, first, last, chunk, g,
                  [&](std::int64_t s, std::int64_t lo, std::int64_t hi, std::int64_t slot) {
                    const warp_list<U> list = block_best(in, lo, hi, largest, k, shared);
                    if (warp != 0) return;
                    if (slot < 0) write_list(list, in, values, s, k, sorted, out, out_values);
                    else partial.store(slot, list);
                  });
}

// Pass 2: block b takes segments b, b + gridDim.x, ... longer than a chunk, its warps
// merge the segment's lists from pass 1 (warp w the chunks w, w + select_warps, ...), and warp
// 0 writes. The order of the candidates is irrelevant: a list keeps the best k by (score,
// position), a total order, so the result is that of one pass over the segment.
template <class K, class W>
__global__ void __launch_bounds__(select_threads)
    merge_partials_kernel(const K* in, const W* values, const std::int64_t* offsets,
                          std::int64_t segments, std::int64_t first, std::int64_t chunk, int k,
                          bool sorted, K* out, W* out_values,
                          partial_lists<detail::key_word_t<K>> partial) {
  using U = detail::key_word_t<K>;
  __shared__ block_lists<U> shared;
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x & 31);
  for (std::int64_t s = blockIdx.x; s < segments; s += gridDim.x) {
    const std::int64_t begin = offsets[s], end = offsets[s + 1];
    if (end - begin <= chunk) continue;  // written by pass 1
    const std::int64_t g0 = (begin - first) / chunk, g1 = (end - 1 - first) / chunk;
    warp_list<U> list;
    for (std::int64_t g = g0 + warp; g <= g1; g += select_warps) {
      const std::int64_t slot = g == g0 ? 2 * g + 1 : 2 * g;
      const int held = partial.held[slot];
      const bool valid = lane < held;
      list.offer_batch(valid, valid ? partial.score[slot * select_max_k + lane] : U(0),
                       valid ? partial.pos[slot * select_max_k + lane] : 0, k);
    }
    shared.gather_into_warp0(list, k);
    if (warp == 0) write_list(list, in, values, s, k, sorted, out, out_values);
  }
}

}  // namespace parprim::cuda_kernels::segmented_top_k
