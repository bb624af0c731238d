// Warp shuffles for any trivially copyable T: the value travels as 32-bit words (the last one
// zero-padded), so the same code serves 1- and 2-byte types, int, float, double, 64-bit
// integers and structs.
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
  static constexpr int count = int((sizeof(T) + 3) / 4);
  unsigned w[count];
};
template <class T, class F>
__device__ __forceinline__ T shuffle_words(T v, F&& f) {
  words<T> in, out;
  if constexpr (sizeof(T) % 4 != 0) in.w[words<T>::count - 1] = 0;
  memcpy(&in, &v, sizeof(T));
#pragma unroll
  for (int i = 0; i < words<T>::count; ++i) out.w[i] = f(in.w[i]);
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
// Value of lane (lane + delta); lanes past the top get their own value back.
template <class T>
__device__ __forceinline__ T shfl_down(T v, int delta) {
  return detail::shuffle_words(v, [delta](unsigned w) { return __shfl_down_sync(full_warp, w, delta); });
}
// Value of lane (lane ^ mask).
template <class T>
__device__ __forceinline__ T shfl_xor(T v, int mask) {
  return detail::shuffle_words(v, [mask](unsigned w) { return __shfl_xor_sync(full_warp, w, mask); });
}

}  // namespace parprim::cuda_prim
