// lower_bound / upper_bound of many queries in one sorted range, by tiles of queries (up to
// search_tuning::per_query_max_tiles_per_sm tiles per SM, one thread per query instead).
//
//   1. range: for every tile of `tile` consecutive queries, the bounds of its first and of its
//      last query (two binary searches in global memory per tile, all tiles at once);
//   2. search: a block loads its tile's queries (coalesced) and checks that each lies between
//      the tile's first and last query, under the key order. When all do, every answer lies
//      in [bound(first), bound(last)]: a short range streams through shared memory in chunks
//      (coalesced, read once), and each query is resolved by a binary search in shared memory
//      inside the one chunk that holds its answer; a long range is binary-searched per query
//      in global memory, between the two bounds. When some query lies outside (unsorted
//      queries) the tile falls back to a full binary search per query.
// Sorted queries dense in the range (the common case: 2^24 queries into 2^28 keys) thus read
// the keys once, coalesced, instead of log2(n) dependent loads per query; any query order
// stays correct, and results always lie in [0, n].
#pragma once

#include <cstdint>

#include "core/merge_path.hpp"
#include "cuda/tuning/merge_tuning.hpp"

namespace parprim::cuda_kernels::searching {

using tuning = cuda_tuning::search_tuning;

__device__ __forceinline__ std::int64_t tile_end(std::int64_t t, std::int64_t m) {
  return (t + 1) * tuning::tile < m ? (t + 1) * tuning::tile : m;
}

// ranges[2t] = bound(first query of tile t), ranges[2t + 1] = bound(last query of tile t).
template <class U, bool Upper>
__global__ void range_kernel(const U* sorted, std::int64_t n, const U* queries, std::int64_t m,
                             std::int64_t tiles, std::int64_t* ranges, detail::key_order<U> ord) {
  const std::int64_t e = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= 2 * tiles) return;
  const std::int64_t t = e / 2;
  const std::int64_t q = e % 2 == 0 ? t * tuning::tile : tile_end(t, m) - 1;
  ranges[e] = detail::bound<U, Upper>(sorted, n, queries[q], ord);
}

// One thread per query, a binary search of the whole range in global memory: for query
// counts that fill too few tiles to occupy the GPU (search_tuning::per_query_max_tiles_per_sm).
template <class U, bool Upper>
__global__ void __launch_bounds__(tuning::threads)
    per_query_kernel(const U* sorted, std::int64_t n, const U* queries, std::int64_t m,
                     std::int64_t* out, detail::key_order<U> ord) {
  const std::int64_t q = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (q < m) out[q] = detail::bound<U, Upper>(sorted, n, queries[q], ord);
}

template <class U>
struct search_args {
  const U* sorted;
  std::int64_t n;
  const U* queries;
  std::int64_t m;
  const std::int64_t* ranges;
  std::int64_t* out;
  detail::key_order<U> ord;
};

// r[j] = sorted[c0 + j * threads + tid] where that lies below hi.
template <class U>
__device__ __forceinline__ void load_chunk(const U* sorted, std::int64_t c0, std::int64_t hi,
                                           U (&r)[tuning::stage_items]) {
#pragma unroll
  for (int j = 0; j < tuning::stage_items; ++j) {
    const std::int64_t k = c0 + j * tuning::threads + int(threadIdx.x);
    if (k < hi) r[j] = sorted[k];
  }
}

// Streams sorted[lo, hi) through shared memory; resolves each query of q (ordered images)
// whose answer lies in the current chunk.
template <class U, bool Upper>
__device__ void search_staged(const search_args<U>& p, std::int64_t lo, std::int64_t hi,
                              const U (&q)[tuning::items], int valid,
                              std::int64_t (&result)[tuning::items]) {
  constexpr int threads = tuning::threads, chunk = tuning::chunk;
  __shared__ U keys[chunk];
  const detail::key_order<U> images{detail::key_kind::unsigned_int, false};
  const int tid = int(threadIdx.x);
  bool open[tuning::items];
#pragma unroll
  for (int k = 0; k < tuning::items; ++k) {
    result[k] = hi;
    open[k] = k < valid;
  }
  // The next chunk's loads are issued before this chunk is searched, so they overlap.
  U r[tuning::stage_items];
  load_chunk(p.sorted, lo, hi, r);
  for (std::int64_t c0 = lo; c0 < hi; c0 += chunk) {
    const int len = hi - c0 < chunk ? int(hi - c0) : chunk;
#pragma unroll
    for (int j = 0; j < tuning::stage_items; ++j) {
      const int k = j * threads + tid;
      if (k < len) keys[k] = detail::ordered_bits(r[j], p.ord.kind, p.ord.descending);
    }
    __syncthreads();
    if (c0 + chunk < hi) load_chunk(p.sorted, c0 + chunk, hi, r);
    const U last = keys[len - 1];
#pragma unroll
    for (int k = 0; k < tuning::items; ++k) {
      // The answer is in this chunk when the chunk's last key already stops the search.
      if (open[k] && (Upper ? q[k] < last : !(last < q[k]))) {
        result[k] = c0 + detail::bound<U, Upper>(keys, len, q[k], images);
        open[k] = false;
      }
    }
    __syncthreads();
  }
}

template <class U, bool Upper>
__global__ void __launch_bounds__(tuning::threads, sizeof(U) == 4 ? tuning::min_blocks_4_bytes
                                                                : tuning::min_blocks_8_bytes)
    search_kernel(search_args<U> p) {
  constexpr int threads = tuning::threads, items = tuning::items;
  const int tid = int(threadIdx.x);
  const std::int64_t t = blockIdx.x;
  const std::int64_t first = t * tuning::tile, end = tile_end(t, p.m);
  const U lowest = detail::ordered_bits(p.queries[first], p.ord.kind, p.ord.descending);
  const U highest = detail::ordered_bits(p.queries[end - 1], p.ord.kind, p.ord.descending);
  // Query k of this thread: first + k * threads + tid (coalesced loads and stores).
  U q[items];
  int valid = 0;
  bool inside = true;
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const std::int64_t at = first + k * threads + tid;
    if (at < end) {
      q[k] = detail::ordered_bits(p.queries[at], p.ord.kind, p.ord.descending);
      inside = inside && !(q[k] < lowest) && !(highest < q[k]);
      valid = k + 1;
    }
  }
  inside = __syncthreads_and(inside);
  const std::int64_t lo = inside ? p.ranges[2 * t] : 0;
  const std::int64_t hi = inside ? p.ranges[2 * t + 1] : p.n;
  std::int64_t result[items];
  if (hi - lo <= std::int64_t(tuning::stage_bytes_per_query / int(sizeof(U))) * (end - first)) {
    search_staged<U, Upper>(p, lo, hi, q, valid, result);
  } else {
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (k < valid) {
        const U raw = detail::original_bits(q[k], p.ord.kind, p.ord.descending);
        result[k] = lo + detail::bound<U, Upper>(p.sorted + lo, hi - lo, raw, p.ord);
      }
  }
#pragma unroll
  for (int k = 0; k < items; ++k)
    if (k < valid) p.out[first + k * threads + tid] = result[k];
}

}  // namespace parprim::cuda_kernels::searching
