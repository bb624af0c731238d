// 16-byte vector loads and stores of 4- and 8-byte elements.
//
// One 128-bit access per thread is the widest the memory system serves in one instruction;
// a warp then moves 512 contiguous bytes, four full 128-byte lines. Callers check alignment
// (`aligned16`) and fall back to element-wise access otherwise.
#pragma once

#include <cstdint>
#include <cstring>

namespace parprim::cuda_prim {

template <class T>
struct vec16 {
  static_assert(16 % sizeof(T) == 0, "element size must divide 16 bytes");
  static constexpr int size = 16 / sizeof(T);
  T v[size];
};

__host__ __device__ __forceinline__ bool aligned16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

// p must be 16-byte aligned.
template <class T>
__device__ __forceinline__ vec16<T> load_vec16(const T* p) {
  uint4 u = *reinterpret_cast<const uint4*>(p);
  vec16<T> r;
  memcpy(&r, &u, 16);
  return r;
}

template <class T>
__device__ __forceinline__ void store_vec16(T* p, const vec16<T>& x) {
  uint4 u;
  memcpy(&u, &x, 16);
  *reinterpret_cast<uint4*>(p) = u;
}

}  // namespace parprim::cuda_prim
