// Segmented top-k for k <= 32 (segmented_top_k.cu): one block per segment, no sort.
//
// Each warp of the block reads every eighth 32-element batch of the segment and keeps the best
// candidates it has seen as a list of at most k entries, one per lane in order (lane j holds the
// j-th best). A candidate is a score (the key's image in radix_sort's order, inverted when the
// smallest are asked for) and its position; a candidate is ahead of another when its score is
// higher or equal with an earlier position, which is the contract's tie rule. A batch costs one
// coalesced load and one ballot against the list's k-th entry; only the elements that beat it
// enter, each by one ballot (its place) and one shift of the list (shuffles). The other warps'
// lists then enter warp 0's the same way, and warp 0 writes the keys (and values) of its list:
// in list order for sorted output, else at their rank by position.
//
// Why (H100, 2026-11-23-h100-top_k-scan-counts.json): by composition (a stable segmented sort
// of (key, position), a slice, a gather) segments of 4096 at 2^28 took 21.4 ms for k = 1, more
// than the segmented sort alone (19.3 ms). Reading the keys once, with few insertions after a
// list fills (about k ln(length / k) for keys in random order), this kernel is bound by that
// read. Input sorted against the order asked for is its worst case: every element enters.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/sort_keys.hpp"

namespace parprim::cuda_kernels::segmented_top_k {

constexpr int select_threads = 256;
constexpr int select_warps = select_threads / 32;
constexpr int select_max_k = 32;  // one list entry per lane
constexpr unsigned all_lanes = 0xffffffffu;

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

  // Offers the candidates of the lanes where `offered` holds, in lane order.
  __device__ __forceinline__ void offer_batch(bool offered, U s, std::int64_t p, int k) {
    const U kth_score = __shfl_sync(all_lanes, score, k - 1);
    const std::int64_t kth_pos = __shfl_sync(all_lanes, pos, k - 1);
    unsigned entering = __ballot_sync(all_lanes, offered && admits(s, p, k, kth_score, kth_pos));
    while (entering) {
      const int from = __ffs(entering) - 1;
      entering &= entering - 1;
      offer(__shfl_sync(all_lanes, s, from), __shfl_sync(all_lanes, p, from), k);
    }
  }
};

// Block b takes segments b, b + gridDim.x, ...; out holds k slots per segment.
template <class K, class W>
__global__ void __launch_bounds__(select_threads)
    select_kernel(const K* in, const W* values, const std::int64_t* offsets,
                  std::int64_t segments, int k, K* out, W* out_values, bool largest,
                  bool sorted) {
  using U = detail::key_word_t<K>;
  __shared__ U s_score[select_warps][32];
  __shared__ std::int64_t s_pos[select_warps][32];
  __shared__ int s_held[select_warps];
  const int warp = int(threadIdx.x / 32), lane = int(threadIdx.x & 31);
  for (std::int64_t s = blockIdx.x; s < segments; s += gridDim.x) {
    const std::int64_t begin = offsets[s], end = offsets[s + 1];
    warp_list<U> list;
    for (std::int64_t base = begin + warp * 32; base < end; base += select_threads) {
      const std::int64_t i = base + lane;
      const bool valid = i < end;
      list.offer_batch(valid, valid ? score_of(in[i], largest) : U(0), i, k);
    }
    if (warp > 0) {
      s_score[warp][lane] = list.score;
      s_pos[warp][lane] = list.pos;
      if (lane == 0) s_held[warp] = list.held;
    }
    __syncthreads();
    if (warp == 0) {
      for (int w = 1; w < select_warps; ++w)
        list.offer_batch(lane < s_held[w], s_score[w][lane], s_pos[w][lane], k);
      int slot = lane;  // sorted: list order; else the rank by position among the chosen
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
    __syncthreads();  // the lists in shared memory are read before the next segment's
  }
}

}  // namespace parprim::cuda_kernels::segmented_top_k
