// Long stretches of floating-point values scanned as scan_parts contiguous parts side by side:
// first each part's fold, then each part scanned from carry op (the parts before it) op (its
// own elements so far). An f32 add waits ~4 cycles for the previous one, and the compiler may
// not reorder float operations, so one chain per block left the CPU f32 scan latency-bound
// (13-14 GB/s on 2 threads of an AMD EPYC, against 36 GB/s for a copy); four independent
// chains took 2^24 f32 on 2 threads from 9.8-10.5 to 4.4-5.7 ms (u32 in one chain: 3.8-4.6).
// Parts are contiguous and combined in order, so the operator still need only be associative
// (ScanEdges.NonCommutativeFloatOperatorsKeepTheOrder), and the running values stay the size of
// one part's sum (cpu/scan.hpp's scan_range says why that matters). The parts depend only on
// the stretch, so the bits are the same on any number of threads.
//
// Eight parts, of an odd number of cache lines each (part_length): parts
// of exactly 2^13 f32 put all sixteen load and store streams of a 2^16 block into one L1 set
// (8 ways), where they evict each other: 2^24 f32 took 39-44 ms. Shortened by a cache line, the
// streams spread over the sets: 2^20 f32 on 2 threads, exclusive 0.38-0.49 -> 0.29-0.37 ms,
// inclusive 0.43-0.51 -> 0.34-0.38 ms against four even parts (4 and 16 shortened parts were
// no better at 2^24, where the scan is memory-bound: 5.4-7.4 ms on this noisy machine).
#pragma once

#include <array>
#include <cstdint>

namespace parprim::detail::cpu {

inline constexpr int scan_parts = 8;
// Stretches shorter than this keep one chain. The parts read a stretch twice (fold, then scan)
// and do two operations per output, so they win only on long stretches. One thread, f32
// inclusive scans of stretches of L elements over 2^22 values (out of cache), ms:
//   L       2048  4096  8192  16384  65536
//   chain   3.37  3.40  3.41  3.43   3.44
//   parts   5.38  3.98  2.99  2.73   2.50
// In the segmented scans on 2 threads, segments of 4096 in parts took 16 ms against 8.
inline constexpr std::int64_t scan_parts_from = 1 << 14;

// The length of parts 0 .. scan_parts - 2 of a stretch of `length` elements; the last part
// takes the rest. About an eighth, a whole number m of cache lines with m odd, so that the
// parts' streams start in distinct L1 sets (k * m mod 64 differs for every k < 64). An eighth
// of 65535 f32 as it came, 8191 elements, is 4 bytes short of 8 x 4 KiB: every stream again in
// one set (a segmented scan of one 2^24 segment took 34 ms instead of 12).
template <class In, class T>
constexpr std::int64_t part_length(std::int64_t length) {
  constexpr std::int64_t size = sizeof(In) > sizeof(T) ? sizeof(In) : sizeof(T);
  constexpr std::int64_t line = size >= 64 ? 1 : 64 / size;  // elements per cache line
  const std::int64_t lines = length / scan_parts / line;
  return (lines % 2 == 1 ? lines : lines - 1) * line;
}

// The folds of the parts of [begin, end), end - begin >= scan_parts_from.
template <class T, class In, class Map, class Op>
std::array<T, scan_parts> fold_parts(const In* x, std::int64_t begin, std::int64_t end, Map map,
                                     Op op) {
  const std::int64_t part = part_length<In, T>(end - begin);
  std::array<T, scan_parts> acc;
  for (int k = 0; k < scan_parts; ++k) acc[k] = map(x[begin + k * part]);
  for (std::int64_t i = 1; i < part; ++i)
    for (int k = 0; k < scan_parts; ++k) acc[k] = op(acc[k], map(x[begin + k * part + i]));
  for (std::int64_t i = begin + scan_parts * part; i < end; ++i)
    acc[scan_parts - 1] = op(acc[scan_parts - 1], map(x[i]));
  return acc;
}

template <class T, class Op>
T total_of(const std::array<T, scan_parts>& parts, Op op) {
  T total = parts[0];
  for (int k = 1; k < scan_parts; ++k) total = op(total, parts[k]);
  return total;
}

// Scans [begin, end) from `carry` with the folds of its parts. Each element is read before its
// output is written, so y may be x.
template <class In, class T, class Map, class Op>
__attribute__((noinline)) void scan_by_parts(const In* x, T* y, std::int64_t begin,
                                             std::int64_t end, T carry,
                                             const std::array<T, scan_parts>& parts,
                                             bool inclusive, Map map, Op op) {
  const std::int64_t part = part_length<In, T>(end - begin);
  std::array<T, scan_parts> start, local;
  start[0] = carry;
  for (int k = 1; k < scan_parts; ++k) start[k] = op(start[k - 1], parts[k - 1]);
  for (int k = 0; k < scan_parts; ++k) {
    local[k] = map(x[begin + k * part]);
    y[begin + k * part] = inclusive ? op(start[k], local[k]) : start[k];
  }
  if (inclusive) {
    for (std::int64_t i = 1; i < part; ++i)
      for (int k = 0; k < scan_parts; ++k) {
        const std::int64_t j = begin + k * part + i;
        local[k] = op(local[k], map(x[j]));
        y[j] = op(start[k], local[k]);
      }
  } else {
    for (std::int64_t i = 1; i < part; ++i)
      for (int k = 0; k < scan_parts; ++k) {
        const std::int64_t j = begin + k * part + i;
        const T v = map(x[j]);
        y[j] = op(start[k], local[k]);
        local[k] = op(local[k], v);
      }
  }
  constexpr int last = scan_parts - 1;  // its elements past scan_parts * part
  for (std::int64_t j = begin + scan_parts * part; j < end; ++j) {
    const T v = map(x[j]);
    if (inclusive) {
      local[last] = op(local[last], v);
      y[j] = op(start[last], local[last]);
    } else {
      y[j] = op(start[last], local[last]);
      local[last] = op(local[last], v);
    }
  }
}

}  // namespace parprim::detail::cpu
