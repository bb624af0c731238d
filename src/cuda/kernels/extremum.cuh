// The kernels of argmin and argmax: two passes, like the production reduce
// (parprim/cuda/reduce.cuh), over (value, index) candidates.
//   pass 1: G blocks each search a contiguous share of the input (a multiple of a step of
//           threads * vectors_per_thread 16-byte units, so every share starts aligned) and
//           write their winner to partial[block]; with G == 1 it writes the answer itself;
//   pass 2: one block picks among the G winners and writes the value and the index.
// Each thread loads 4 vectors per step, plays their elements off in a tournament and keeps the
// winner against its best candidate; the block's candidates meet in the library's block
// reduction (detail/block_reduce.cuh). Every pick follows core/extremum_rule.hpp, a total
// order, so any grouping gives the same element.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "core/extremum_rule.hpp"
#include "parprim/cuda/detail/block_reduce.cuh"
#include "parprim/cuda/detail/vector_io.cuh"

namespace parprim::cuda_kernels::extremum {

template <class T>
struct candidate {
  T value;
  std::int64_t index;  // -1: no element
};

// The better of two candidates (a thread or block may hold none).
template <class T, bool Largest>
struct pick {
  __device__ __forceinline__ candidate<T> operator()(const candidate<T>& a,
                                                     const candidate<T>& b) const {
    if (b.index < 0) return a;
    if (a.index < 0) return b;
    return detail::beats<Largest>(a.value, a.index, b.value, b.index) ? a : b;
  }
};

// c[0] becomes the best of c[0 .. 2 * Width): rounds of Width, Width / 2, ..., 1 picks, each
// between c[i] and c[i + width] (unrolled at compile time, so c stays in registers).
template <int Width, class T, bool Largest>
__device__ __forceinline__ void tournament(candidate<T>* c) {
  if constexpr (Width >= 1) {
#pragma unroll
    for (int i = 0; i < Width; ++i)
      if (!detail::beats<Largest>(c[i].value, c[i].index, c[i + Width].value, c[i + Width].index))
        c[i] = c[i + Width];
    tournament<Width / 2, T, Largest>(c);
  }
}

template <class T, bool Largest, int Threads>
__device__ __forceinline__ void finish_block(candidate<T> best, candidate<T>* partial, T* value_out,
                                             std::int64_t* index_out) {
  using reduce = cuda_prim::block_reduce<candidate<T>, pick<T, Largest>, Threads>;
  __shared__ typename reduce::storage shared;
  best = reduce::reduce(shared, best, pick<T, Largest>{});
  if (threadIdx.x != 0) return;
  if (gridDim.x == 1) {
    *value_out = best.value;
    *index_out = best.index;
  } else {
    partial[blockIdx.x] = best;
  }
}

// Pass 1: block b searches [b * per_block, min(n, (b + 1) * per_block)); per_block is a
// multiple of the step. vectorized: in is 16-byte aligned and T divides 16.
template <class T, bool Largest, int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    search_blocks_kernel(const T* in, std::int64_t n, std::int64_t per_block, bool vectorized,
                         candidate<T>* partial, T* value_out, std::int64_t* index_out) {
  constexpr int u = cuda_prim::unit_size<T>;
  constexpr std::int64_t step = std::int64_t(Threads) * u * Vectors;
  const std::int64_t begin = std::int64_t(blockIdx.x) * per_block;
  const std::int64_t end = begin + per_block < n ? begin + per_block : n;
  const pick<T, Largest> better;
  candidate<T> best{T{}, -1};
  std::int64_t base = begin;
  if (vectorized) {
    for (; base + step <= end; base += step) {
      T x[Vectors][u];
#pragma unroll
      for (int k = 0; k < Vectors; ++k)
        cuda_prim::load_unit(x[k], in + base + (std::int64_t(k) * Threads + threadIdx.x) * u);
      // The step's candidates meet in a tournament, log2(Vectors * u) picks deep, and only its
      // winner meets the thread's best, instead of a chain of Vectors * u dependent picks. H100,
      // mean of 3 medians of 30 runs (2026-11-24-h100-extremum-tournament.md): f32 3-6% faster
      // (2^24: 0.92-0.93x -> 0.95-0.97x CUB; 2^28 0.99 -> 1.00x), f64 1-4%.
      candidate<T> c[Vectors * u];
#pragma unroll
      for (int k = 0; k < Vectors; ++k)
#pragma unroll
        for (int j = 0; j < u; ++j)
          c[k * u + j] = {x[k][j], base + (std::int64_t(k) * Threads + threadIdx.x) * u + j};
      tournament<Vectors * u / 2, T, Largest>(c);
      best = better(best, c[0]);
    }
  }
  for (std::int64_t i = base + threadIdx.x; i < end; i += Threads) best = better(best, {in[i], i});
  finish_block<T, Largest, Threads>(best, partial, value_out, index_out);
}

// Pass 2: one block over the G winners.
template <class T, bool Largest, int Threads>
__global__ void __launch_bounds__(Threads)
    pick_winner_kernel(const candidate<T>* partial, int blocks, T* value_out,
                       std::int64_t* index_out) {
  const pick<T, Largest> better;
  candidate<T> best{T{}, -1};
  for (int b = threadIdx.x; b < blocks; b += Threads) best = better(best, partial[b]);
  finish_block<T, Largest, Threads>(best, nullptr, value_out, index_out);
}

}  // namespace parprim::cuda_kernels::extremum
