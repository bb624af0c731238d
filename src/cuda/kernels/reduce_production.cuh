// The production reduction: two launches, deterministic, memory-bound.
//
// Pass 1: G blocks (G a function of n only) walk the input in chunks of
//   Threads * Vectors * (16 / sizeof(T)) elements, chunk c going to block c % G. Each thread
//   loads its Vectors 16-byte vectors of a chunk at once (coalesced: vector u of thread t sits
//   at chunk offset (u * Threads + t) * 16 bytes) and folds them into one accumulator per
//   vector lane. The partial last chunk goes to the block next in line, element by element
//   at the same positions. Lanes fold left to right, then warps (shuffles) and the block
//   (shared memory) reduce, and thread 0 writes partial[blockIdx.x].
// Pass 2: one block folds the G partials in the same way and writes the result.
// When G == 1, pass 1 writes the result directly (one launch).
//
// The element-to-accumulator assignment depends only on n and G, never on timing or on the
// pointer's alignment (a misaligned input loads the same elements one by one), so float
// results are bitwise reproducible. No atomics are used.
#pragma once

#include <cstdint>

#include "cuda/primitives/block_reduce.cuh"
#include "cuda/primitives/vector_io.cuh"

namespace parprim::cuda_kernels {

template <class T, class Op, int Threads, int Vectors>
struct reduce_chunk {
  static constexpr int vec = cuda_prim::vec16<T>::size;
  static constexpr std::int64_t items = static_cast<std::int64_t>(Threads) * Vectors * vec;
};

template <class T, class Op, int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    reduce_production_kernel(const T* in, std::int64_t n, T* out, bool vectorized) {
  using chunk = reduce_chunk<T, Op, Threads, Vectors>;
  constexpr int vec = chunk::vec;
  using block_reduce = cuda_prim::block_reduce<T, Op, Threads>;
  __shared__ typename block_reduce::storage s_reduce;
  Op op;

  T acc[vec];
#pragma unroll
  for (int j = 0; j < vec; ++j) acc[j] = Op::identity();

  // ---- Full chunks: all loads of a chunk in flight together, then folded in vector order.
  const std::int64_t full_chunks = n / chunk::items;
  const T* mine = in + static_cast<std::int64_t>(threadIdx.x) * vec;
  if (vectorized) {
    for (std::int64_t c = blockIdx.x; c < full_chunks; c += gridDim.x) {
      const T* p = mine + c * chunk::items;
      cuda_prim::vec16<T> x[Vectors];
#pragma unroll
      for (int u = 0; u < Vectors; ++u) x[u] = cuda_prim::load_vec16(p + u * Threads * vec);
#pragma unroll
      for (int u = 0; u < Vectors; ++u)
#pragma unroll
        for (int j = 0; j < vec; ++j) acc[j] = op(acc[j], x[u].v[j]);
    }
  } else {
    for (std::int64_t c = blockIdx.x; c < full_chunks; c += gridDim.x) {
      const T* p = mine + c * chunk::items;
#pragma unroll
      for (int u = 0; u < Vectors; ++u)
#pragma unroll
        for (int j = 0; j < vec; ++j) acc[j] = op(acc[j], p[u * Threads * vec + j]);
    }
  }

  // ---- The partial last chunk, same element positions, guarded.
  if (full_chunks * chunk::items < n && blockIdx.x == full_chunks % gridDim.x) {
    const std::int64_t base = full_chunks * chunk::items + static_cast<std::int64_t>(threadIdx.x) * vec;
#pragma unroll
    for (int u = 0; u < Vectors; ++u)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const std::int64_t i = base + u * Threads * vec + j;
        if (i < n) acc[j] = op(acc[j], in[i]);
      }
  }

  // ---- Thread, warp and block reduction.
  T r = acc[0];
#pragma unroll
  for (int j = 1; j < vec; ++j) r = op(r, acc[j]);
  r = block_reduce::reduce(s_reduce, r, op);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}

// Pass 2: one block; thread t folds partials t, t + Threads, ... in order, then the block.
template <class T, class Op, int Threads>
__global__ void __launch_bounds__(Threads) reduce_partials_kernel(const T* partial, int count, T* out) {
  using block_reduce = cuda_prim::block_reduce<T, Op, Threads>;
  __shared__ typename block_reduce::storage s_reduce;
  Op op;
  T r = Op::identity();
  for (int i = threadIdx.x; i < count; i += Threads) r = op(r, partial[i]);
  r = block_reduce::reduce(s_reduce, r, op);
  if (threadIdx.x == 0) out[0] = r;
}

}  // namespace parprim::cuda_kernels
