// Float and double plus scans in 64-byte vectors (GCC / clang vector extensions): each chunk of
// 64 bytes is scanned in the register by log2(lanes) shift-and-add steps, and the chunk's last
// lane, splat over the vector, carries to the next chunk: one dependent add per chunk instead
// of one per element. The grouping is fixed by the position in the block, never by the thread
// count, the instruction set or the buffer's alignment (unaligned loads): g++ with and without
// AVX-512, clang and nvcc's host pass give the same bits (a hash of the outputs of three sizes,
// three forms, f32 and f64 agreed), as do 1 and 2 threads.
//
// The order of the adds, for a block [begin, end) scanned from `start`:
//   chunk c = x[begin + c*L .. begin + c*L + L), L = 64 / sizeof(T);
//   s = the inclusive scan of the chunk by Hillis-Steele steps inside the vector (lane i adds
//       lane i - S for S = 1, 2, 4, ...); its last lane is the pairwise tree of the chunk;
//   the block's running value: s + (running value) per chunk, starting from -0.0 (which adds
//       to any x as x itself); past the last whole chunk, elements one by one;
//   out = start + (running value), element by element, so the values added to start stay the
//       size of one block's sum (cpu/scan.hpp's scan_range says why that matters).
// vector_plus_fold computes the block's total in this same order (each chunk's pairwise tree
// by butterfly steps, lane L-1 + lane L-1 ^ S, which groups and orders the adds as the scan's
// last lane does), so a block's last inclusive output and the running value it publishes agree
// to the bit.
//
// 2 threads of an AMD EPYC (Zen 4), f32, against the eight parts of scan_parts.hpp, two builds
// alternated four times: 2^24 exclusive 5.65-5.81 -> 4.29-4.90 ms (one run 8.1), inclusive
// 5.83-7.42 -> 4.36-5.03 ms (u32: 4.1-4.4); 2^20 exclusive 0.30-0.41 -> 0.23-0.24 ms (one run
// 0.40), inclusive 0.41-0.45 -> 0.22-0.38 ms.
// Vectors are passed by reference only: by value, g++ warns that a 64-byte vector argument
// changes the ABI when AVX-512 is off (-Wpsabi).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace parprim::detail::cpu {

template <class T>
struct vector64;
template <>
struct vector64<float> {
  typedef float type __attribute__((vector_size(64)));
};
template <>
struct vector64<double> {
  typedef double type __attribute__((vector_size(64)));
};

template <class T>
inline constexpr int vector64_lanes = int(64 / sizeof(T));

// The lane moves. nvcc's host pass rewrites __builtin_shufflevector so that g++ then rejects
// the pack expansion in its arguments; there the same lane moves are written as loops (the
// same adds in the same order, so the same bits, only slower).
#if defined(__CUDACC__)
#define PARPRIM_SHUFFLE_BUILTIN 0
#else
#define PARPRIM_SHUFFLE_BUILTIN 1
#endif

// v[i] += v[i - S] for i >= S.
template <int S, class V, std::size_t... I>
inline void shift_add(V& v, std::index_sequence<I...>) {
  constexpr int lanes = int(sizeof...(I));
#if PARPRIM_SHUFFLE_BUILTIN
  const V shifted = __builtin_shufflevector(v, v, (int(I) >= S ? int(I) - S : int(I))...);
  const V sum = v + shifted;
  v = __builtin_shufflevector(v, sum, (int(I) >= S ? lanes + int(I) : int(I))...);
#else
  const V old = v;
  for (int i = S; i < lanes; ++i) v[i] = old[i] + old[i - S];
#endif
}

// v[i] += v[i ^ S] for every i.
template <int S, class V, std::size_t... I>
inline void butterfly_add(V& v, std::index_sequence<I...>) {
#if PARPRIM_SHUFFLE_BUILTIN
  v = v + __builtin_shufflevector(v, v, (int(I) ^ S)...);
#else
  const V old = v;
  for (int i = 0; i < int(sizeof...(I)); ++i) v[i] = old[i] + old[i ^ S];
#endif
}

// out[0] = first[0], out[i] = v[i - 1].
template <class V, std::size_t... I>
inline void shift_in(const V& v, const V& first, V& out, std::index_sequence<I...>) {
#if PARPRIM_SHUFFLE_BUILTIN
  constexpr int lanes = int(sizeof...(I));
  out = __builtin_shufflevector(first, v, (I == 0 ? 0 : lanes + int(I) - 1)...);
#else
  out[0] = first[0];
  for (int i = 1; i < int(sizeof...(I)); ++i) out[i] = v[i - 1];
#endif
}

// The inclusive scan of the chunk in v (steps S = 1, 2, ..., lanes / 2).
template <class T, int S = 1>
inline void scan_chunk(typename vector64<T>::type& v) {
  if constexpr (S < vector64_lanes<T>) {
    shift_add<S>(v, std::make_index_sequence<vector64_lanes<T>>{});
    scan_chunk<T, 2 * S>(v);
  }
}

// Every lane of v becomes the chunk's pairwise tree sum; lane lanes - 1 adds as scan_chunk's does.
template <class T, int S = 1>
inline void reduce_chunk(typename vector64<T>::type& v) {
  if constexpr (S < vector64_lanes<T>) {
    butterfly_add<S>(v, std::make_index_sequence<vector64_lanes<T>>{});
    reduce_chunk<T, 2 * S>(v);
  }
}

// Every lane of out = v[lanes - 1].
template <class V, std::size_t... I>
inline void splat_last(const V& v, V& out, std::index_sequence<I...>) {
  constexpr int last = int(sizeof...(I)) - 1;
#if PARPRIM_SHUFFLE_BUILTIN
  out = __builtin_shufflevector(v, v, (int(I) * 0 + last)...);
#else
  for (int i = 0; i <= last; ++i) out[i] = v[last];
#endif
}

#undef PARPRIM_SHUFFLE_BUILTIN

template <class T>
inline void broadcast(typename vector64<T>::type& v, T value) {
  for (int k = 0; k < vector64_lanes<T>; ++k) v[k] = value;  // no arithmetic: keeps -0.0
}

// The sum of x[begin, end) in the order the scan below adds it.
template <class T>
T vector_plus_fold(const T* x, std::int64_t begin, std::int64_t end) {
  using V = typename vector64<T>::type;
  constexpr int lanes = vector64_lanes<T>;
  V totals;  // every lane: the sum so far
  broadcast<T>(totals, T(-0.0));
  std::int64_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    V v;
    std::memcpy(&v, x + i, sizeof v);
    reduce_chunk<T>(v);
    totals = v + totals;
  }
  T total = totals[0];
  for (; i < end; ++i) total = total + x[i];
  return total;
}

// Scans x[begin, end) into y: from `start` (has_start), or an inclusive scan from the first
// element. Each chunk is loaded before its outputs are stored, so y may be x. The running value
// starts as -0.0, which adds to any x as x itself.
template <class T>
void vector_plus_scan(const T* x, T* y, std::int64_t begin, std::int64_t end, T start,
                      bool has_start, bool inclusive) {
  using V = typename vector64<T>::type;
  constexpr int lanes = vector64_lanes<T>;
  V starts, locals;
  broadcast<T>(starts, start);
  broadcast<T>(locals, T(-0.0));
  std::int64_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    V s;
    std::memcpy(&s, x + i, sizeof s);
    scan_chunk<T>(s);
    s = s + locals;
    V out;
    if (inclusive) {
      out = has_start ? starts + s : s;
    } else {  // lane 0 takes the running value before the chunk, lane k the chunk's lane k - 1
      shift_in(s, locals, out, std::make_index_sequence<lanes>{});
      out = starts + out;
    }
    std::memcpy(y + i, &out, sizeof out);
    splat_last(s, locals, std::make_index_sequence<lanes>{});
  }
  T local = locals[0];
  for (; i < end; ++i) {
    const T v = x[i];
    if (inclusive) {
      local = local + v;
      y[i] = has_start ? start + local : local;
    } else {
      y[i] = start + local;
      local = local + v;
    }
  }
}

}  // namespace parprim::detail::cpu
