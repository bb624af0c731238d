// Per-tile status words for single-pass scans with decoupled look-back (Merrill & Garland,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back", NVR-2016-002).
//
// Each tile publishes two values, each at most once, in two separate slots:
//   aggregate  A_i: op over the tile's own elements (published as soon as the tile is reduced)
//   inclusive  P_i: op over all elements up to the end of the tile (after its look-back)
// Keeping them apart (instead of one slot upgraded from A to P) lets a reader fetch A_i even
// after P_i exists, which the deterministic look-back needs: it always folds aggregates in
// tile order starting from an inclusive prefix (see scan_lookback.cuh).
//
// A reader must never see a flag without its value. Two encodings:
//   T of at most 4 bytes: flag and value share one 64-bit word (value in the high half, 1 in
//             the low half; 0 = not yet published). One relaxed 64-bit load or store is
//             single-copy atomic, so no fence is needed at all. A type that packs otherwise
//             into 63 bits beside the flag (by_key.cuh: a 4-byte value and a one-bit mark)
//             specializes status_word to get the same encoding.
//   larger T: a 32-bit flag beside the value (in 8-byte words). The writer stores the value,
//             then the flag with release semantics (st.release.gpu); the reader loads the flag
//             with acquire semantics (ld.acquire.gpu) and only then the value. A 128-bit word
//             would save a round trip for 8-byte values, but plain 128-bit loads and stores
//             are not single-copy atomic in the PTX memory model.
// The slots must be zero before the kernel starts (cudaMemsetAsync by the host).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace parprim::cuda_prim {

namespace detail {

__device__ __forceinline__ void store_relaxed_u64(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long load_relaxed_u64(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release_u32(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ unsigned load_acquire_u32(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

constexpr std::size_t align256(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

}  // namespace detail

// The single-word encoding of T: bit 0 is the flag, T's bits fill the rest. The default
// packs values of at most 4 bytes into the high half.
template <class T, class Enable = void>
struct status_word {
  static constexpr bool packs = sizeof(T) <= 4;
  __device__ __forceinline__ static unsigned long long pack(T v) {
    unsigned bits = 0;
    memcpy(&bits, &v, sizeof(T));
    return (static_cast<unsigned long long>(bits) << 32) | 1ull;
  }
  __device__ __forceinline__ static T unpack(unsigned long long w) {
    T v;
    unsigned bits = static_cast<unsigned>(w >> 32);
    memcpy(&v, &bits, sizeof(T));
    return v;
  }
};

template <class T, bool Packed = status_word<T>::packs>
struct tile_status;

// ---- Values that pack (status_word): flag and value in one 64-bit word -------------------------------
template <class T>
struct tile_status<T, true> {
  unsigned long long* aggregate = nullptr;
  unsigned long long* inclusive = nullptr;

  static constexpr std::size_t bytes(std::int64_t tiles) {
    return 2 * detail::align256(static_cast<std::size_t>(tiles) * 8);
  }
  // mem: bytes(tiles) zeroed bytes, 256-byte aligned.
  static tile_status bind(void* mem, std::int64_t tiles) {
    tile_status s;
    auto* base = static_cast<unsigned char*>(mem);
    s.aggregate = reinterpret_cast<unsigned long long*>(base);
    s.inclusive = reinterpret_cast<unsigned long long*>(
        base + detail::align256(static_cast<std::size_t>(tiles) * 8));
    return s;
  }

  __device__ __forceinline__ static unsigned long long pack(T v) { return status_word<T>::pack(v); }
  __device__ __forceinline__ static bool unpack(unsigned long long w, T& v) {
    if ((w & 1ull) == 0) return false;
    v = status_word<T>::unpack(w);
    return true;
  }

  __device__ __forceinline__ void publish_aggregate(int tile, T v) const {
    detail::store_relaxed_u64(aggregate + tile, pack(v));
  }
  __device__ __forceinline__ void publish_inclusive(int tile, T v) const {
    detail::store_relaxed_u64(inclusive + tile, pack(v));
  }
  // True (and v set) when the tile has published that value.
  __device__ __forceinline__ bool poll_aggregate(int tile, T& v) const {
    return unpack(detail::load_relaxed_u64(aggregate + tile), v);
  }
  __device__ __forceinline__ bool poll_inclusive(int tile, T& v) const {
    return unpack(detail::load_relaxed_u64(inclusive + tile), v);
  }
};

// ---- Larger values: release/acquire flag beside the value --------------------------------------
template <class T>
struct tile_status<T, false> {
  static constexpr int words = int((sizeof(T) + 7) / 8);  // 8-byte words per value
  unsigned* aggregate_flag = nullptr;
  unsigned* inclusive_flag = nullptr;
  unsigned long long* aggregate_value = nullptr;
  unsigned long long* inclusive_value = nullptr;

  static constexpr std::size_t bytes(std::int64_t tiles) {
    return 2 * detail::align256(static_cast<std::size_t>(tiles) * 4) +
           2 * detail::align256(static_cast<std::size_t>(tiles) * 8 * words);
  }
  static tile_status bind(void* mem, std::int64_t tiles) {
    tile_status s;
    auto* p = static_cast<unsigned char*>(mem);
    const std::size_t flags = detail::align256(static_cast<std::size_t>(tiles) * 4);
    const std::size_t values = detail::align256(static_cast<std::size_t>(tiles) * 8 * words);
    s.aggregate_flag = reinterpret_cast<unsigned*>(p);
    s.inclusive_flag = reinterpret_cast<unsigned*>(p + flags);
    s.aggregate_value = reinterpret_cast<unsigned long long*>(p + 2 * flags);
    s.inclusive_value = reinterpret_cast<unsigned long long*>(p + 2 * flags + values);
    return s;
  }

  __device__ __forceinline__ static void publish(unsigned* flag, unsigned long long* value, T v) {
    unsigned long long bits[words];
    if constexpr (sizeof(T) % 8 != 0) bits[words - 1] = 0;
    memcpy(bits, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < words; ++i) detail::store_relaxed_u64(value + i, bits[i]);
    detail::store_release_u32(flag, 1u);  // orders the value stores before the flag
  }
  __device__ __forceinline__ static bool poll(const unsigned* flag, const unsigned long long* value,
                                              T& v) {
    if (detail::load_acquire_u32(flag) == 0) return false;
    unsigned long long bits[words];
#pragma unroll
    for (int i = 0; i < words; ++i) bits[i] = detail::load_relaxed_u64(value + i);  // after the acquire
    memcpy(&v, bits, sizeof(T));
    return true;
  }

  __device__ __forceinline__ void publish_aggregate(int tile, T v) const {
    publish(aggregate_flag + tile, aggregate_value + std::size_t(tile) * words, v);
  }
  __device__ __forceinline__ void publish_inclusive(int tile, T v) const {
    publish(inclusive_flag + tile, inclusive_value + std::size_t(tile) * words, v);
  }
  __device__ __forceinline__ bool poll_aggregate(int tile, T& v) const {
    return poll(aggregate_flag + tile, aggregate_value + std::size_t(tile) * words, v);
  }
  __device__ __forceinline__ bool poll_inclusive(int tile, T& v) const {
    return poll(inclusive_flag + tile, inclusive_value + std::size_t(tile) * words, v);
  }
};

// ---- Element counts (copy_if, partition): flag and 63-bit count in one 64-bit word ----------------
// Counts reach past 2^32 (inputs of more than 4 Gi elements), so they do not fit the packed
// 4-byte encoding; being non-negative, they leave the low bit for the flag and keep the
// single-copy-atomic word (no release/acquire pair on the look-back's critical path).
struct tile_count_status {
  unsigned long long* aggregate = nullptr;
  unsigned long long* inclusive = nullptr;

  static constexpr std::size_t bytes(std::int64_t tiles) {
    return 2 * detail::align256(static_cast<std::size_t>(tiles) * 8);
  }
  // mem: bytes(tiles) zeroed bytes, 256-byte aligned.
  static tile_count_status bind(void* mem, std::int64_t tiles) {
    tile_count_status s;
    auto* base = static_cast<unsigned char*>(mem);
    s.aggregate = reinterpret_cast<unsigned long long*>(base);
    s.inclusive = reinterpret_cast<unsigned long long*>(
        base + detail::align256(static_cast<std::size_t>(tiles) * 8));
    return s;
  }

  __device__ __forceinline__ static unsigned long long pack(long long v) {
    return (static_cast<unsigned long long>(v) << 1) | 1ull;
  }
  __device__ __forceinline__ static bool unpack(unsigned long long w, long long& v) {
    if ((w & 1ull) == 0) return false;
    v = static_cast<long long>(w >> 1);
    return true;
  }

  __device__ __forceinline__ void publish_aggregate(int tile, long long v) const {
    detail::store_relaxed_u64(aggregate + tile, pack(v));
  }
  __device__ __forceinline__ void publish_inclusive(int tile, long long v) const {
    detail::store_relaxed_u64(inclusive + tile, pack(v));
  }
  __device__ __forceinline__ bool poll_aggregate(int tile, long long& v) const {
    return unpack(detail::load_relaxed_u64(aggregate + tile), v);
  }
  __device__ __forceinline__ bool poll_inclusive(int tile, long long& v) const {
    return unpack(detail::load_relaxed_u64(inclusive + tile), v);
  }
};

}  // namespace parprim::cuda_prim
