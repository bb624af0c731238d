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

// The unit a thread moves per access: a 16-byte vector of 1-, 2-, 4-, 8- or 16-byte elements,
// one element of any other size (the compiler splits it into the widest accesses its
// alignment allows).
template <class T>
inline constexpr bool vector_unit = 16 % sizeof(T) == 0;
template <class T>
inline constexpr int unit_size = vector_unit<T> ? int(16 / sizeof(T)) : 1;

// p must be 16-byte aligned when vector_unit<T>.
template <class T>
__device__ __forceinline__ void load_unit(T (&x)[unit_size<T>], const T* p) {
  if constexpr (vector_unit<T>) {
    const vec16<T> v = load_vec16(p);
#pragma unroll
    for (int j = 0; j < unit_size<T>; ++j) x[j] = v.v[j];
  } else {
    x[0] = *p;
  }
}

template <class T>
__device__ __forceinline__ void store_unit(T* p, const T (&x)[unit_size<T>]) {
  if constexpr (vector_unit<T>) {
    vec16<T> v;
#pragma unroll
    for (int j = 0; j < unit_size<T>; ++j) v.v[j] = x[j];
    store_vec16(p, v);
  } else {
    *p = x[0];
  }
}

}  // namespace parprim::cuda_prim
