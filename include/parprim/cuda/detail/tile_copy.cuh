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

// dst[0, count) = src[0, count), the way back, by the Shape::threads threads numbered `thread`
// (a squad of a warp-specialized block; the block itself below).
template <class T, class Shape>
__device__ __forceinline__ void store_from_shared(T* dst, const T* src, int count, int thread) {
  if constexpr (tile_in_units<T, Shape>) {
    if (count == Shape::tile && aligned16(dst)) {
      // Unrolled to the compile-time count per thread, as the load: the strided loop compiled
      // to a remainder loop and 16-, 8- and 4-way bodies, ~45-55 instructions per thread for
      // the 3.75 units of a 3840 x 4-byte tile, against ~15 unrolled (sm_90 SASS).
      constexpr int units = int(Shape::tile * sizeof(T) / 16);
      constexpr int per_thread = (units + Shape::threads - 1) / Shape::threads;
#pragma unroll
      for (int k = 0; k < per_thread; ++k) {
        const int u = thread + k * Shape::threads;
        if (u < units) reinterpret_cast<uint4*>(dst)[u] = reinterpret_cast<const uint4*>(src)[u];
      }
      return;
    }
  }
  for (int i = thread; i < count; i += Shape::threads) dst[i] = src[i];
}

template <class T, class Shape>
__device__ __forceinline__ void store_from_shared(T* dst, const T* src, int count) {
  store_from_shared<T, Shape>(dst, src, count, int(threadIdx.x));
}

}  // namespace parprim::cuda_prim
