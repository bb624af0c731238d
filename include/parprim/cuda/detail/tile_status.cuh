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
// A reader must never see a flag without its value. Both encodings use only relaxed 64-bit
// words, each single-copy atomic, so publishing and polling need no fence and no
// release/acquire pair:
//   T of at most 4 bytes: flag and value share one 64-bit word (value in the high half, 1 in
//             the low half; 0 = not yet published). A type that packs otherwise into 63 bits
//             beside the flag (by_key.cuh: a 4-byte value and a one-bit mark) specializes
//             status_word to get the same encoding.
//   larger T: the value cut into 4-byte pieces, each in its own flagged 64-bit word (16 bytes
//             per slot for an 8-byte value). A slot is written once, so a reader that finds
//             every piece flagged has the whole value; a partly written slot reads as not yet
//             published. The words of a slot are independent loads, issued together (two per
//             16-byte vector load). The encoding this replaced, a 32-bit flag stored with
//             release semantics beside the value and polled with acquire loads, serialized
//             every poll of the look-back window behind the one before it (an acquire load
//             orders all later loads): 8-byte scans ran at 0.68x CUB on the H100.
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
// Two 64-bit words by one 16-byte vector load (p 16-byte aligned). The PTX memory model
// treats a vector access as one access per element, so each word is still single-copy atomic.
__device__ __forceinline__ void load_relaxed_u64x2(const unsigned long long* p,
                                                   unsigned long long& a, unsigned long long& b) {
  asm volatile("ld.relaxed.gpu.global.v2.b64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
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

// ---- Larger values: 4-byte pieces, each in a flagged 64-bit word ---------------------------------
template <class T>
struct tile_status<T, false> {
  static constexpr int words = int((sizeof(T) + 3) / 4);  // flagged 64-bit words per slot
  unsigned long long* aggregate = nullptr;
  unsigned long long* inclusive = nullptr;

  static constexpr std::size_t bytes(std::int64_t tiles) {
    return 2 * detail::align256(static_cast<std::size_t>(tiles) * 8 * words);
  }
  // mem: bytes(tiles) zeroed bytes, 256-byte aligned.
  static tile_status bind(void* mem, std::int64_t tiles) {
    tile_status s;
    auto* base = static_cast<unsigned char*>(mem);
    s.aggregate = reinterpret_cast<unsigned long long*>(base);
    s.inclusive = reinterpret_cast<unsigned long long*>(
        base + detail::align256(static_cast<std::size_t>(tiles) * 8 * words));
    return s;
  }

  __device__ __forceinline__ static void publish(unsigned long long* slot, T v) {
    unsigned pieces[words];
    pieces[words - 1] = 0;
    memcpy(pieces, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < words; ++i)
      detail::store_relaxed_u64(slot + i, (static_cast<unsigned long long>(pieces[i]) << 32) | 1ull);
  }
  __device__ __forceinline__ static bool poll(const unsigned long long* slot, T& v) {
    unsigned long long w[words];
    if constexpr (words % 2 == 0) {  // slots of an even word count are 16-byte aligned
#pragma unroll
      for (int i = 0; i < words; i += 2) detail::load_relaxed_u64x2(slot + i, w[i], w[i + 1]);
    } else {
#pragma unroll
      for (int i = 0; i < words; ++i) w[i] = detail::load_relaxed_u64(slot + i);
    }
    bool all = true;
    unsigned pieces[words];
#pragma unroll
    for (int i = 0; i < words; ++i) {
      all = all && (w[i] & 1ull) != 0;
      pieces[i] = static_cast<unsigned>(w[i] >> 32);
    }
    if (!all) return false;
    memcpy(&v, pieces, sizeof(T));
    return true;
  }

  __device__ __forceinline__ void publish_aggregate(int tile, T v) const {
    publish(aggregate + std::size_t(tile) * words, v);
  }
  __device__ __forceinline__ void publish_inclusive(int tile, T v) const {
    publish(inclusive + std::size_t(tile) * words, v);
  }
  __device__ __forceinline__ bool poll_aggregate(int tile, T& v) const {
    return poll(aggregate + std::size_t(tile) * words, v);
  }
  __device__ __forceinline__ bool poll_inclusive(int tile, T& v) const {
    return poll(inclusive + std::size_t(tile) * words, v);
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
