// Chunked segmented_reduce for long segments: one block per chunk of `chunk` elements of the
// covered range [first, last), whatever the segments, so that a huge segment is spread over
// as many blocks as its size asks for and never waits on one.
//
// A chunk's block meets three kinds of work, all found from the offsets:
//   continuation  the piece of a segment that started in an earlier chunk (found by one
//                 32-way search for the first segment starting at or after the chunk);
//   short         segments that start in the chunk, end in it and hold at most thread_max
//                 elements: one thread each, folded left to right from init;
//   long/crossing the other segments that start in the chunk: the whole block, one after the
//                 other, each thread folding a stride of 16-byte vectors of the piece
//                 (unroll vectors in flight), then a block reduction in thread order.
// A segment that crosses chunk edges leaves one value per piece: the tail of its first chunk
// and the head of each later one. Every block that finishes such a piece counts it on the
// first chunk's arrival counter; the block that brings the last piece folds all of them in
// chunk order (the fence-then-count pattern of the CUDA threadFenceReduction sample).
// The fold order depends only on the offsets and on the input's address modulo 16 bytes
// (where the vectors start): the same call on the same buffer gives the same bits.
// Traffic: the input once, the offsets about once, one value per segment.
#pragma once

#include <cstdint>

#include "cuda/tuning/segmented_tuning.hpp"
#include "parprim/cuda/detail/block_reduce.cuh"
#include "parprim/cuda/detail/vector_io.cuh"

namespace parprim::cuda_kernels::segmented {

using tuning = cuda_tuning::segmented_reduce_tuning;

template <class T, class Op>
struct chunk_args {
  const T* in;                    // offsets are positions in `in`
  const std::int64_t* offsets;    // segments + 1, checked
  std::int64_t segments;
  std::int64_t first;             // offsets[0]
  std::int64_t last;              // offsets[segments]
  std::int64_t chunks;            // max(1, ceil((last - first) / chunk))
  T init;
  Op op;
  T* out;
  T* head_partial;                // [chunks]: the piece of the segment entering chunk c
  T* tail_partial;                // [chunks]: the piece of the segment leaving chunk c
  unsigned* arrivals;             // [chunks], zeroed: pieces done of the segment leaving c
};

template <class T, class Op>
struct chunk_shared {
  typename cuda_prim::block_reduce<T, Op, tuning::threads>::storage reduce;
  std::int64_t long_segments[tuning::threads];
  int long_count;
  std::int64_t first_owned;
  bool last_arrival;
};

__device__ __forceinline__ std::int64_t lesser(std::int64_t a, std::int64_t b) { return a < b ? a : b; }

__device__ __forceinline__ std::int64_t greater(std::int64_t a, std::int64_t b) { return a > b ? a : b; }

template <class T, class Op>
__device__ __forceinline__ void fold_into(T& acc, bool& has, const T& x, Op op) {
  acc = has ? op(acc, x) : x;
  has = true;
}

// Thread t's fold of in[a, b) in a fixed order: the elements before the first 16-byte
// boundary (one per thread, threads 0, 1, ...), then the 16-byte vectors t, t + threads, ...
// (`unroll` vectors loaded before any is folded, each folded in element order), then the
// elements after the last whole vector (one per thread). Threads 0 .. holders - 1 end with a
// value, the others with none. Only the built-in (commutative) operators come here.
template <class T, class Op>
__device__ __forceinline__ T strided_fold(const T* in, std::int64_t a, std::int64_t b, Op op,
                                          int& holders) {
  using vec = cuda_prim::vec16<T>;
  constexpr int per = vec::size;
  constexpr int threads = tuning::threads;
  const int t = int(threadIdx.x);
  const std::int64_t misaligned =
      std::int64_t(reinterpret_cast<std::uintptr_t>(in + a) & 15u) / std::int64_t(sizeof(T));
  const std::int64_t head = lesser(b - a, misaligned ? per - misaligned : 0);
  const std::int64_t vectors = (b - a - head) / per;
  const T* body = in + a + head;  // 16-byte aligned
  const std::int64_t tail = a + head + vectors * per;
  T acc{};
  bool has = false;
  if (t < head) fold_into(acc, has, in[a + t], op);
  constexpr std::int64_t step = std::int64_t(threads) * tuning::unroll;
  for (std::int64_t base = t; base < vectors; base += step) {
    vec v[tuning::unroll];
#pragma unroll
    for (int u = 0; u < tuning::unroll; ++u) {
      const std::int64_t j = base + std::int64_t(u) * threads;
      if (j < vectors) v[u] = cuda_prim::load_vec16(body + j * per);
    }
#pragma unroll
    for (int u = 0; u < tuning::unroll; ++u) {
      if (base + std::int64_t(u) * threads < vectors) {
#pragma unroll
        for (int k = 0; k < per; ++k) fold_into(acc, has, v[u].v[k], op);
      }
    }
  }
  if (t < b - tail) fold_into(acc, has, in[tail + t], op);
  holders = int(greater(greater(head, lesser(threads, vectors)), b - tail));
  return acc;
}

// The fold of in[a, b) (b > a) by the whole block, to thread 0.
template <class T, class Op>
__device__ __forceinline__ T block_fold(chunk_shared<T, Op>& sh, const T* in, std::int64_t a,
                                        std::int64_t b, Op op) {
  int holders;
  const T v = strided_fold(in, a, b, op, holders);
  __syncthreads();  // an earlier reduction may still read sh.reduce
  return cuda_prim::block_reduce_first<T, Op, tuning::threads>(sh.reduce, v, op, holders);
}

// Segment s's piece in chunk c is folded (value in thread 0; `head`: the piece entering c).
// A segment inside one chunk is written at once; otherwise the piece goes to its slot and
// the block that brings the last piece folds the pieces in chunk order.
template <class T, class Op>
__device__ void finish_piece(chunk_shared<T, Op>& sh, const chunk_args<T, Op>& a,
                             std::int64_t s, std::int64_t c, bool head, T v) {
  const std::int64_t begin = a.offsets[s], end = a.offsets[s + 1];
  const std::int64_t c0 = (begin - a.first) / tuning::chunk;
  const std::int64_t c1 = (end - 1 - a.first) / tuning::chunk;
  if (c0 == c1) {
    if (threadIdx.x == 0) a.out[s] = a.op(a.init, v);
    return;
  }
  if (threadIdx.x == 0) {
    (head ? a.head_partial : a.tail_partial)[c] = v;
    __threadfence();  // the piece is visible before it is counted
    const unsigned done = atomicAdd(&a.arrivals[c0], 1u);
    sh.last_arrival = done == unsigned(c1 - c0);
  }
  __syncthreads();
  if (!sh.last_arrival) return;
  __threadfence();
  // Pieces in chunk order: the tail of chunk c0, then the heads of chunks c0+1 .. c1. Read
  // through volatile: other blocks wrote them during this kernel.
  const std::int64_t pieces = c1 - c0 + 1;
  T acc{};
  bool has = false;
  for (std::int64_t p = threadIdx.x; p < pieces; p += tuning::threads) {
    const T x = p == 0 ? *static_cast<volatile const T*>(&a.tail_partial[c0])
                       : *static_cast<volatile const T*>(&a.head_partial[c0 + p]);
    acc = has ? a.op(acc, x) : x;
    has = true;
  }
  __syncthreads();
  const T total = cuda_prim::block_reduce_first<T, Op, tuning::threads>(
      sh.reduce, acc, a.op, int(lesser(tuning::threads, pieces)));
  if (threadIdx.x == 0) a.out[s] = a.op(a.init, total);
}

// The lowest s in [0, segments] with offsets[s] >= lo, given offsets[segments] >= lo; called by
// all 32 lanes of one warp, which all return it. Invariant: the answer is in [l, r].
__device__ __forceinline__ std::int64_t first_segment_at_or_after(const std::int64_t* offsets,
                                                                  std::int64_t segments,
                                                                  std::int64_t lo) {
  const int lane = int(threadIdx.x & 31);
  std::int64_t l = 0, r = segments;
  while (l < r) {
    const std::int64_t step = (r - l + 31) / 32;
    const std::int64_t probe = l + lane * step;
    // Offsets do not decrease, so the probes below lo are lanes 0 .. below - 1.
    const int below = __popc(__ballot_sync(0xffffffffu, probe < r && offsets[probe] < lo));
    if (below == 0) {
      r = l;
    } else {
      const std::int64_t last_below = l + (below - 1) * step;
      r = lesser(r, l + below * step);
      l = last_below + 1;
    }
  }
  return l;
}

template <class T, class Op>
__global__ void __launch_bounds__(tuning::threads, tuning::min_blocks_per_sm(int(sizeof(T))))
    reduce_chunks_kernel(chunk_args<T, Op> a) {
  __shared__ chunk_shared<T, Op> sh;
  const std::int64_t c = blockIdx.x;
  const std::int64_t lo = a.first + c * tuning::chunk;
  const std::int64_t hi = lesser(lo + tuning::chunk, a.last);
  const bool last_chunk = c == a.chunks - 1;

  // The first segment starting at or after lo: a lower bound over offsets[0..segments]
  // (offsets[segments] = last >= lo, so it exists), found by warp 0 probing 32 evenly spaced
  // offsets per step: about log32(S) dependent loads (4 for 2^20 segments) where a binary
  // search by one thread would wait on log2(S) of them before the block starts streaming.
  if (threadIdx.x < 32) {
    const std::int64_t found = first_segment_at_or_after(a.offsets, a.segments, lo);
    if (threadIdx.x == 0) sh.first_owned = found;
  }
  __syncthreads();
  const std::int64_t k = sh.first_owned;

  // Continuation: segment k - 1 started before lo and reaches into this chunk.
  if (k > 0 && a.offsets[k] > lo) {
    const T v = block_fold(sh, a.in, lo, lesser(a.offsets[k], hi), a.op);
    finish_piece(sh, a, k - 1, c, true, v);
  }

  // Segments starting in this chunk (the last chunk also owns those starting at `last`, all
  // empty), a block's worth at a time: short ones by their thread, the rest listed and then
  // folded by the whole block.
  for (std::int64_t g = k;; g += tuning::threads) {
    const std::int64_t s = g + threadIdx.x;
    const bool owned = s < a.segments && (last_chunk || a.offsets[s] < hi);
    if (threadIdx.x == 0) sh.long_count = 0;
    __syncthreads();
    if (owned) {
      const std::int64_t begin = a.offsets[s], end = a.offsets[s + 1];
      if (end <= hi && end - begin <= tuning::thread_max) {
        T acc = a.init;
        for (std::int64_t i = begin; i < end; ++i) acc = a.op(acc, a.in[i]);
        a.out[s] = acc;
      } else {
        sh.long_segments[atomicAdd(&sh.long_count, 1)] = s;
      }
    }
    __syncthreads();
    const int listed = sh.long_count;
    for (int j = 0; j < listed; ++j) {
      const std::int64_t t = sh.long_segments[j];
      const T v = block_fold(sh, a.in, a.offsets[t], lesser(a.offsets[t + 1], hi), a.op);
      finish_piece(sh, a, t, c, false, v);
    }
    if (!__syncthreads_and(owned)) break;
  }
}

}  // namespace parprim::cuda_kernels::segmented
