// CPU scan, the one body behind every scan on the CPU backend: a chained single-pass scan of
// fixed-size blocks, the CPU form of the course's decoupled look-back (without the look-back:
// each block waits for its predecessor, which costs nothing here, see block_chain).
//
// For each block, in parallel, blocks started in increasing order (blocked_for):
// 1. reduce the block (its elements come from memory);
// 2. wait for the running value after block b - 1, combine the block total, publish it;
// 3. scan the block from that value (its elements now come from the core's L2: a block of
//    2^16 4-byte elements is 256 KiB). f32 / f64 plus without a map folds and scans in
//    64-byte vectors (scan_float_vector.hpp); other floating-point operators fold and scan as
//    eight parts side by side (scan_parts.hpp).
// Memory traffic is one read and one write per element, against two reads and a write for
// reduce-then-scan with blocks spread over the threads. The running value combines the block
// totals strictly in block order, and block boundaries depend only on n, so float results are
// the same on every run and on any number of threads (and the same as the three-phase scan
// with these blocks gave). Elements are combined strictly left to right: any associative
// operator works, no identity is needed (an inclusive scan without init starts its first block
// from its first element).
// In place (out == in) is safe: step 1 only reads, and step 3 reads each element before it
// writes that same element.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/detail/cpu/parallel.hpp"
#include "parprim/detail/cpu/scan_float_vector.hpp"
#include "parprim/detail/cpu/scan_parts.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/scan_kind.hpp"
#include "parprim/span.hpp"

namespace parprim::detail::cpu {

inline constexpr std::int64_t scan_block = 1 << 16;

// g++ only: clang 14 does not vectorize these loops and warns at each one
// (-Wpass-failed=transform-warning, a failure under -Werror); it compiles the plain loops.
#if defined(_OPENMP) && !defined(__clang__)
#define PARPRIM_PRAGMA(text) _Pragma(#text)
#else
#define PARPRIM_PRAGMA(text)
#endif

// The scan loops of an integer plus, min or max as OpenMP inscan reductions, which g++ 12
// vectorizes: a log-step scan inside each vector, the running value broadcast from one vector
// to the next, instead of one dependent operation per element. The pragma must spell the
// reduction's operator, hence a macro over IDENT (+, min, max) and STEP (s op= v). Integer
// results do not depend on the grouping, so they stay bit-equal to the plain loop. The exclusive
// loop writes y[i] before it reads x[i] (the inscan form), so a scan in place takes a plain
// loop that reads first: without the pragma (clang, no OpenMP) the inscan form read its own
// output in place (test_scan's in-place cases failed in the clang sanitizer build).
// The plain loop ran at about one element per 2 cycles in cache. 2 threads of an AMD EPYC
// (Zen 4, -march=native), exclusive u32 (bench cpu / bench scan): 2^24 5.7-5.9 -> 4.1-4.4 ms
// (TBB 4.5-5.9, GNU parallel 4.1-4.9 in the same runs), 2^20 0.22 -> 0.15 ms; inclusive
// 2^20 0.41 -> 0.12 ms.
#define PARPRIM_INSCAN_LOOPS(IDENT, STEP)                      \
  if (inclusive) {                                             \
    PARPRIM_PRAGMA(omp simd reduction(inscan, IDENT : s))      \
    for (std::int64_t i = begin; i < end; ++i) {               \
      const U v = static_cast<U>(map(x[i]));                   \
      STEP;                                                    \
      PARPRIM_PRAGMA(omp scan inclusive(s))                    \
      y[i] = static_cast<T>(s);                                \
    }                                                          \
  } else if (static_cast<const void*>(x) != y) {              \
    PARPRIM_PRAGMA(omp simd reduction(inscan, IDENT : s))      \
    for (std::int64_t i = begin; i < end; ++i) {               \
      y[i] = static_cast<T>(s);                                \
      PARPRIM_PRAGMA(omp scan exclusive(s))                    \
      const U v = static_cast<U>(map(x[i]));                   \
      STEP;                                                    \
    }                                                          \
  } else {                                                     \
    for (std::int64_t i = begin; i < end; ++i) {               \
      const U v = static_cast<U>(map(x[i]));                   \
      y[i] = static_cast<T>(s);                                \
      STEP;                                                    \
    }                                                          \
  }

// Whether scan_range takes the vector loops for T and Op: integers under the library's plus,
// min and max (a user's functor may do anything, so it keeps the plain loop).
template <class T, class Op>
inline constexpr bool vector_scan =
    std::is_integral_v<T> && !std::is_same_v<T, bool> &&
    (std::is_same_v<Op, plus_op<T>> || std::is_same_v<Op, min_op<T>> ||
     std::is_same_v<Op, max_op<T>>);

template <class In, class T, class Map, class Op>
T vector_scan_range(const In* x, T* y, std::int64_t begin, std::int64_t end, T carry,
                    bool inclusive, Map map, Op) {
  if constexpr (std::is_same_v<Op, plus_op<T>>) {
    using U = std::make_unsigned_t<T>;  // wraps on overflow, as plus_op does
    U s = static_cast<U>(carry);
    PARPRIM_INSCAN_LOOPS(+, s += v)
    return static_cast<T>(s);
  } else {
    using U = T;
    T s = carry;
    if constexpr (std::is_same_v<Op, min_op<T>>) {
      PARPRIM_INSCAN_LOOPS(min, s = v < s ? v : s)
    } else {
      PARPRIM_INSCAN_LOOPS(max, s = s < v ? v : s)
    }
    return s;
  }
}

#undef PARPRIM_INSCAN_LOOPS
#undef PARPRIM_PRAGMA

// Scans [begin, end) sequentially, starting from `carry`; returns the carry after the block.
// Kept out of line: inlined into the blocked lambdas, g++ 12 kept the exclusive loop's carry in
// a stack slot (a store-to-load round trip per element, 4x slower than the inclusive loop).
//
// Floating-point T: each output is carry op (the block's elements so far) instead of the
// running carry op'd with one element after another, so the running value stays the size of
// one block's sum. An f32 running total past 2^24 no longer grows by elements under 1 (half
// its ulp): the plain loop's prefixes of 2^26 values in [0, 1) fell short by up to a block's
// sum, 2e-3 of the total; now 3.6e-6 of it (bench scan --variants --sizes 2^26 on the CPU,
// max_rel_diff). It costs one operation per element off the dependency chain: 2^24 f32 on
// 2 threads, 9.6 -> 9.8-10.5 ms. Integers under a user's operator keep the plain loop (exact
// either way; the local form made 2^24 u32 4.0 -> 4.7-5.9 ms); under plus, min and max they
// take the vector loops above.
template <class In, class T, class Map, class Op>
__attribute__((noinline)) T scan_range(const In* x, T* y, std::int64_t begin, std::int64_t end,
                                       T carry, bool inclusive, Map map, Op op) {
  if constexpr (vector_scan<T, Op>) {
    return vector_scan_range(x, y, begin, end, carry, inclusive, map, op);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (begin == end) return carry;
    T local = map(x[begin]);  // x[begin] op ... op x[i]
    if (inclusive) {
      y[begin] = op(carry, local);
      for (std::int64_t i = begin + 1; i < end; ++i) {
        local = op(local, map(x[i]));
        y[i] = op(carry, local);
      }
    } else {
      y[begin] = carry;
      for (std::int64_t i = begin + 1; i < end; ++i) {
        T v = map(x[i]);
        y[i] = op(carry, local);
        local = op(local, v);
      }
    }
    return op(carry, local);
  } else if (inclusive) {
    for (std::int64_t i = begin; i < end; ++i) {
      carry = op(carry, map(x[i]));
      y[i] = carry;
    }
  } else {
    for (std::int64_t i = begin; i < end; ++i) {
      T v = map(x[i]);
      y[i] = carry;
      carry = op(carry, v);
    }
  }
  return carry;
}

// Inclusive scan of [begin, end) with no carry in: the first output is the first element.
template <class In, class T, class Map, class Op>
void scan_range_first(const In* x, T* y, std::int64_t begin, std::int64_t end, Map map, Op op) {
  const T first = map(x[begin]);
  y[begin] = first;
  scan_range(x, y, begin + 1, end, first, true, map, op);
}

template <class T, class In, class Map, class Op>
T fold_range(const In* x, std::int64_t begin, std::int64_t end, Map map, Op op) {
  T acc = map(x[begin]);
  for (std::int64_t i = begin + 1; i < end; ++i) acc = op(acc, map(x[i]));
  return acc;
}

// Whether scan() takes the vector float scan (cpu/scan_float_vector.hpp): f32 / f64 plus
// without a map. Other float operators and maps keep the parts.
template <class In, class T, class Map, class Op>
inline constexpr bool vector_float_plus =
    std::is_same_v<In, T> && (std::is_same_v<T, float> || std::is_same_v<T, double>) &&
    std::is_same_v<Op, plus_op<T>> && std::is_same_v<Map, identity_map>;

// With y = map(x), the scan `kind` of y (detail/scan_kind.hpp).
template <class In, class T, class Map, class Op>
void scan(const context& ctx, span<const In> in, span<T> out, scan_kind kind, T init, Map map,
          Op op) {
  const std::int64_t n = in.size();
  if (n == 0) return;
  const In* x = in.data();
  T* y = out.data();
  const bool inclusive = includes_own(kind);
  const bool from_init = starts_from_init(kind);
  if (n <= scan_block) {
    if constexpr (vector_float_plus<In, T, Map, Op>)
      return vector_plus_scan(x, y, 0, n, init, from_init, inclusive);
    if (from_init) scan_range(x, y, 0, n, init, inclusive, map, op);
    else scan_range_first(x, y, 0, n, map, op);
    return;
  }
  const std::int64_t blocks = block_count(n, scan_block);
  block_chain<T> chain(blocks);
  blocked_for(ctx, n, scan_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    if constexpr (vector_float_plus<In, T, Map, Op>) {
      // Folded and scanned in vectors; block 0 of an inclusive scan without init has no start.
      const T total = vector_plus_fold(x, s, e);
      const bool has_start = b > 0 || from_init;
      const T carry = b == 0 ? init : chain.wait(b);
      chain.publish(b, has_start ? carry + total : total);
      vector_plus_scan(x, y, s, e, carry, has_start, inclusive);
      return;
    } else if constexpr (std::is_floating_point_v<T>) {
      // Every long block but the first of a scan without init (which has no carry in).
      if (e - s >= scan_parts_from && (b > 0 || from_init)) {
        const auto parts = fold_parts<T>(x, s, e, map, op);
        const T total = total_of(parts, op);
        const T carry = b == 0 ? init : chain.wait(b);
        chain.publish(b, op(carry, total));
        scan_by_parts(x, y, s, e, carry, parts, inclusive, map, op);
        return;
      }
    }
    const T total = fold_range<T>(x, s, e, map, op);
    if (b == 0) {
      // Block 0 starts from init, or (inclusive without init) from its first element.
      chain.publish(0, from_init ? op(init, total) : total);
      if (from_init) scan_range(x, y, s, e, init, inclusive, map, op);
      else scan_range_first(x, y, s, e, map, op);
      return;
    }
    const T carry = chain.wait(b);
    chain.publish(b, op(carry, total));
    scan_range(x, y, s, e, carry, inclusive, map, op);
  });
}

}  // namespace parprim::detail::cpu
