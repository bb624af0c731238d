// Block-wide copies of one tile between global and shared memory: whole 16-byte units, all
// loads issued before any store, where the tile's bytes are a multiple of 16 and the global
// side is aligned; element by element otherwise. Shape gives the block's `threads` and the
// tile's `tile` (elements).
#pragma once

#include <cuda_runtime.h>

#include "parprim/cuda/detail/vector_io.cuh"

namespace parprim::cuda_prim {

// Whole 16-byte units of a tile of T: tiles whose byte size is a multiple of 16.
template <class T, class Shape>
inline constexpr bool tile_in_units =
    vector_unit<T> && (Shape::tile * sizeof(T)) % 16 == 0;

// dst[0, count) = src[0, count): all loads issued before any store.
template <class T, class Shape>
__device__ __forceinline__ void load_to_shared(T* dst, const T* src, int count) {
  if constexpr (tile_in_units<T, Shape>) {
    if (count == Shape::tile && aligned16(src)) {
      constexpr int units = int(Shape::tile * sizeof(T) / 16);
      constexpr int per_thread = (units + Shape::threads - 1) / Shape::threads;
      uint4 r[per_thread];
#pragma unroll
      for (int k = 0; k < per_thread; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units) r[k] = reinterpret_cast<const uint4*>(src)[u];
      }
#pragma unroll
      for (int k = 0; k < per_thread; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units) reinterpret_cast<uint4*>(dst)[u] = r[k];
      }
      return;
    }
  }
  for (int i = threadIdx.x; i < count; i += Shape::threads) dst[i] = src[i];
}

// The same tile of two arrays (a by-key tile's keys and values): every load of both issued
// before the first store, so the block waits for one DRAM latency instead of two in a row.
template <class A, class B, class Shape>
__device__ __forceinline__ void load_pair_to_shared(A* dst_a, const A* src_a, B* dst_b,
                                                    const B* src_b, int count) {
  if constexpr (tile_in_units<A, Shape> && tile_in_units<B, Shape>) {
    if (count == Shape::tile && aligned16(src_a) && aligned16(src_b)) {
      constexpr int units_a = int(Shape::tile * sizeof(A) / 16);
      constexpr int units_b = int(Shape::tile * sizeof(B) / 16);
      constexpr int per_a = (units_a + Shape::threads - 1) / Shape::threads;
      constexpr int per_b = (units_b + Shape::threads - 1) / Shape::threads;
      uint4 ra[per_a], rb[per_b];
#pragma unroll
      for (int k = 0; k < per_a; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units_a) ra[k] = reinterpret_cast<const uint4*>(src_a)[u];
      }
#pragma unroll
      for (int k = 0; k < per_b; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units_b) rb[k] = reinterpret_cast<const uint4*>(src_b)[u];
      }
#pragma unroll
      for (int k = 0; k < per_a; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units_a) reinterpret_cast<uint4*>(dst_a)[u] = ra[k];
      }
#pragma unroll
      for (int k = 0; k < per_b; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units_b) reinterpret_cast<uint4*>(dst_b)[u] = rb[k];
      }
      return;
    }
  }
  load_to_shared<A, Shape>(dst_a, src_a, count);
  load_to_shared<B, Shape>(dst_b, src_b, count);
}

// dst[0, count) = src[0, count), the way back.
template <class T, class Shape>
__device__ __forceinline__ void store_from_shared(T* dst, const T* src, int count) {
  if constexpr (tile_in_units<T, Shape>) {
    if (count == Shape::tile && aligned16(dst)) {
      // Unrolled to the compile-time count per thread, as the load: the strided loop compiled
      // to a remainder loop and 16-, 8- and 4-way bodies, ~45-55 instructions per thread for
      // the 3.75 units of a 3840 x 4-byte tile, against ~15 unrolled (sm_90 SASS).
      constexpr int units = int(Shape::tile * sizeof(T) / 16);
      constexpr int per_thread = (units + Shape::threads - 1) / Shape::threads;
#pragma unroll
      for (int k = 0; k < per_thread; ++k) {
        const int u = int(threadIdx.x) + k * Shape::threads;
        if (u < units) reinterpret_cast<uint4*>(dst)[u] = reinterpret_cast<const uint4*>(src)[u];
      }
      return;
    }
  }
  for (int i = threadIdx.x; i < count; i += Shape::threads) dst[i] = src[i];
}

}  // namespace parprim::cuda_prim
