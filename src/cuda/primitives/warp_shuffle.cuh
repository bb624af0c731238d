// Warp shuffles for any trivially copyable T of 4, 8 or 16 bytes: the value travels as
// 32-bit words, so the same code serves int, float, double, 64-bit integers and small structs.
#pragma once

#include <cstring>

namespace parprim::cuda_prim {

inline constexpr unsigned full_warp = 0xffffffffu;
inline constexpr int warp_size = 32;

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) & (warp_size - 1); }
__device__ __forceinline__ int warp_id() { return static_cast<int>(threadIdx.x) / warp_size; }

namespace detail {
template <class T>
struct words {
  static_assert(sizeof(T) % 4 == 0, "shuffled types must be a whole number of 32-bit words");
  unsigned w[sizeof(T) / 4];
};
template <class T, class F>
__device__ __forceinline__ T shuffle_words(T v, F&& f) {
  words<T> in, out;
  memcpy(&in, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < int(sizeof(T) / 4); ++i) out.w[i] = f(in.w[i]);
  T r;
  memcpy(&r, &out, sizeof(T));
  return r;
}
}  // namespace detail

// Value of lane `src` (all lanes must take part).
template <class T>
__device__ __forceinline__ T shfl_idx(T v, int src) {
  return detail::shuffle_words(v, [src](unsigned w) { return __shfl_sync(full_warp, w, src); });
}
// Value of lane (lane - delta); lanes below delta get their own value back.
template <class T>
__device__ __forceinline__ T shfl_up(T v, int delta) {
  return detail::shuffle_words(v, [delta](unsigned w) { return __shfl_up_sync(full_warp, w, delta); });
}
// Value of lane (lane ^ mask).
template <class T>
__device__ __forceinline__ T shfl_xor(T v, int mask) {
  return detail::shuffle_words(v, [mask](unsigned w) { return __shfl_xor_sync(full_warp, w, mask); });
}

}  // namespace parprim::cuda_prim
