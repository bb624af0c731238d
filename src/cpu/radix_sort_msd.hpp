// The CPU radix sort's large-input path: one parallel most-significant-digit split into
// cache-sized buckets, then every bucket sorted inside one core's cache.
//
// Why: the LSD passes of radix_sort.cpp move every key through memory once per digit (4
// times for u32), and with 256 output streams per thread each pass runs far below the host's
// copy bandwidth (16 threads, 2^27 u32: 553-641 ms against a 12 ms parallel memcpy). Here
// memory is crossed a fixed number of times whatever the key width:
//   split        read the keys twice (count the top digit, then scatter), write them once,
//                into `temp`, whole 64-byte lines at a time with streaming stores;
//   sort_buckets read each bucket once into the cache, sort it there by stable LSD passes
//                over the remaining bits, and write it once to its final place in `keys`.
// Both steps are stable, so the whole sort is. Digits come from the order-preserving image
// of the raw key bits (core/sort_keys.hpp), as everywhere in the sort.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/sort_keys.hpp"

namespace parprim::cpu_backend::msd {

// Below this many elements the split's fixed costs (a histogram per bucket) do not pay.
// Process CPU time of the split path over the whole-array LSD passes, 2 threads, uniform keys
// (u32, u32/u32, u64): 2.1-2.3x at 2^12, 0.87-1.02x at 2^14, 0.46-0.65x at 2^16, 0.40-0.63x
// at 2^19, 0.44-0.64x at 2^20 (2-core build machine under load, medians of 7-15 runs).
constexpr std::int64_t split_cutoff = std::int64_t(1) << 16;
// Bytes of keys and values per bucket: a bucket's two scratch copies (2 x 256 KiB) stay in a
// 1-2 MiB L2 while its LSD passes run.
constexpr std::int64_t bucket_bytes = 256 << 10;
// Top-digit widths of the split: at least 256 buckets so that 16 threads balance, at most
// 2^11, whose write-combining lines (128 KiB of keys per thread) still sit in L2.
constexpr int min_split_bits = 8;
constexpr int max_split_bits = 11;
// A bucket above this many times the average (skewed keys) is too big to sort in a cache: it is
// split again on its lower bits, or below split_cutoff sorted by the parallel LSD passes
// (radix_sort.cpp, split_sort).
constexpr std::int64_t large_bucket_factor = 4;

inline int split_bits_for(std::int64_t n, std::size_t element_bytes, int key_bits) {
  int bits = min_split_bits;
  while (bits < max_split_bits && (n >> bits) * std::int64_t(element_bytes) > bucket_bytes) ++bits;
  return std::min(bits, key_bits);
}

// The largest bucket sorted in cache after a split on `bits` bits.
inline std::int64_t bucket_capacity(std::int64_t n, int bits) {
  return std::max<std::int64_t>(large_bucket_factor * (n >> bits), 4096);
}

constexpr int line_bytes = 64;
constexpr int local_digit_bits = 8;  // digits of the in-cache passes
constexpr int local_radix = 1 << local_digit_bits;

// One 64-byte line to a 64-byte aligned `dst`, around the caches where the ISA has streaming
// stores (SSE2, part of baseline x86-64): the line is complete, so nothing needs reading
// for ownership, and the sorted data are not read again soon.
inline void write_line(void* dst, const void* src) {
#if defined(__SSE2__)
  auto* d = static_cast<__m128i*>(dst);
  auto* s = static_cast<const __m128i*>(src);
  _mm_stream_si128(d + 0, _mm_loadu_si128(s + 0));
  _mm_stream_si128(d + 1, _mm_loadu_si128(s + 1));
  _mm_stream_si128(d + 2, _mm_loadu_si128(s + 2));
  _mm_stream_si128(d + 3, _mm_loadu_si128(s + 3));
#else
  std::memcpy(dst, src, line_bytes);
#endif
}

// Orders this thread's streaming stores before what follows (the barrier after a phase).
inline void fence_lines() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

// dst[0, n) = src[0, n), whole aligned lines of dst by write_line.
template <class T>
void copy_out(T* dst, const T* src, std::int64_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(dst);
  std::int64_t head = address % sizeof(T) ? n : std::int64_t((line_bytes - address % line_bytes) % line_bytes / sizeof(T));
  head = std::min(head, n);
  std::memcpy(dst, src, std::size_t(head) * sizeof(T));
  constexpr std::int64_t per_line = line_bytes / sizeof(T);
  std::int64_t i = head;
  for (; i + per_line <= n; i += per_line) write_line(dst + i, src + i);
  std::memcpy(dst + i, src + i, std::size_t(n - i) * sizeof(T));
}

// A digit of the order-preserving image: bits [shift, shift + width).
template <class U>
struct digit_of {
  detail::key_kind kind;
  bool descending;
  int shift;
  U mask;
  U image(U raw) const { return detail::ordered_bits(raw, kind, descending); }
  unsigned of_image(U image) const { return unsigned(U(image >> shift) & mask); }
  unsigned operator()(U raw) const { return of_image(image(raw)); }
};

template <class U>
digit_of<U> make_digit(const detail::sort_request& r, int shift, int width) {
  const U mask = width >= int(sizeof(U) * 8) ? U(~U(0)) : U((U(1) << width) - 1);
  return {r.kind, r.descending, shift, mask};
}

// The in-cache passes under a split at `shift`: as few as digits of at most 8 bits allow over
// [begin_bit, shift), their widths evened out (21 bits: 7 + 7 + 7, not 8 + 8 + 5), so that
// each pass scatters to as few places as possible.
template <class U>
std::vector<digit_of<U>> local_passes(const detail::sort_request& r, int shift) {
  std::vector<digit_of<U>> passes;
  const int bits = shift - r.begin_bit;
  const int count = (bits + local_digit_bits - 1) / local_digit_bits;
  for (int p = 0, s = r.begin_bit; p < count; ++p) {
    const int width = (shift - s + (count - p) - 1) / (count - p);
    passes.push_back(make_digit<U>(r, s, width));
    s += width;
  }
  return passes;
}

// One thread's stable scatter of src[s, e) to the positions pos[digit] (advanced), through a
// 64-byte write-combining buffer per digit that mirrors the destination line: a key lands in
// its buffer at the slot of its destination address, and a line is written when its last slot
// fills. All but each digit's first and last line are complete and aligned (dst is 64-byte
// aligned), so they go out by write_line; the partial ones, which a neighbouring thread's keys
// may share, by memcpy.
template <class U, class W, bool HasValues>
class line_scatter {
 public:
  static constexpr int slots = line_bytes / int(sizeof(U) > sizeof(W) ? sizeof(U) : sizeof(W));

  explicit line_scatter(int radix)
      : keys_(std::size_t(radix) * slots), values_(HasValues ? std::size_t(radix) * slots : 0),
        first_(std::size_t(radix)) {}

  void run(const U* src_k, const W* src_v, U* dst_k, W* dst_v, std::int64_t s, std::int64_t e,
           std::int64_t* pos, int radix, digit_of<U> digit) {
    std::copy_n(pos, radix, first_.data());
    U* kb = keys_.data();
    W* vb = values_.data();
    for (std::int64_t i = s; i < e; ++i) {
      const U k = src_k[i];
      const unsigned d = digit(k);
      const std::int64_t p = pos[d];
      const std::size_t slot = std::size_t(d) * slots + std::size_t(p & (slots - 1));
      kb[slot] = k;
      if constexpr (HasValues) vb[slot] = src_v[i];
      pos[d] = p + 1;
      if (((p + 1) & (slots - 1)) == 0) flush(d, p + 1 - slots, p + 1, dst_k, dst_v);
    }
    for (int d = 0; d < radix; ++d) {
      const std::int64_t end = pos[d];
      const std::int64_t begin = std::max(first_[std::size_t(d)], end & ~std::int64_t(slots - 1));
      if (end > begin) partial(unsigned(d), begin, end, dst_k, dst_v);
    }
  }

 private:
  // Writes the buffered line of digit d that ends at `end` (aligned).
  void flush(unsigned d, std::int64_t line_begin, std::int64_t end, U* dst_k, W* dst_v) {
    std::int64_t& first = first_[d];
    if (first <= line_begin) {
      write_slots(dst_k + line_begin, &keys_[std::size_t(d) * slots]);
      if constexpr (HasValues) write_slots(dst_v + line_begin, &values_[std::size_t(d) * slots]);
    } else {
      partial(d, first, end, dst_k, dst_v);
    }
    first = end;
  }

  void partial(unsigned d, std::int64_t begin, std::int64_t end, U* dst_k, W* dst_v) {
    const std::size_t at = std::size_t(d) * slots + std::size_t(begin & (slots - 1));
    std::memcpy(dst_k + begin, &keys_[at], std::size_t(end - begin) * sizeof(U));
    if constexpr (HasValues) std::memcpy(dst_v + begin, &values_[at], std::size_t(end - begin) * sizeof(W));
  }

  // A line of `slots` elements: a whole 64-byte line for the wider of key and value.
  template <class T>
  static void write_slots(T* dst, const T* src) {
    if constexpr (sizeof(T) * slots == line_bytes) write_line(dst, src);
    else std::memcpy(dst, src, sizeof(T) * slots);
  }

  std::vector<U> keys_;
  std::vector<W> values_;
  std::vector<std::int64_t> first_;  // per digit: the first position not yet written out
};

// counts[b][d] (blocks x radix) -> starting position of block b's digit d, digit-major.
inline void digit_major_positions(std::int64_t* counts, int blocks, int radix) {
  std::int64_t running = 0;
  for (int d = 0; d < radix; ++d)
    for (int b = 0; b < blocks; ++b) {
      std::int64_t& c = counts[std::size_t(b) * radix + std::size_t(d)];
      const std::int64_t t = c;
      c = running;
      running += t;
    }
}

// The split: keys (and values) -> temp, stably by `digit`, on `blocks` threads. Returns the
// bucket bounds: bucket d is [bounds[d], bounds[d + 1]). When every key has the same top
// digit, nothing is moved and the single bucket is reported with moved = false.
struct split_result {
  std::vector<std::int64_t> bounds;
  bool moved = true;
};

template <class U, class W, bool HasValues>
split_result split(const U* keys, const W* values, U* temp_k, W* temp_v, std::int64_t n,
                   int blocks, int radix, digit_of<U> digit) {
  const std::int64_t chunk = (n + blocks - 1) / blocks;
  blocks = int((n + chunk - 1) / chunk);
  std::vector<std::int64_t> counts(std::size_t(blocks) * radix, 0);
  split_result out;
  out.bounds.assign(std::size_t(radix) + 1, 0);
  // One block per thread; a team smaller than asked for (a call from inside a parallel
  // region) takes the blocks in turn.
#pragma omp parallel num_threads(blocks)
  {
    const int first = omp_get_thread_num(), team = omp_get_num_threads();
    for (int b = first; b < blocks; b += team) {
      const std::int64_t s = b * chunk, e = std::min(n, s + chunk);
      std::int64_t* mine = &counts[std::size_t(b) * radix];
      for (std::int64_t i = s; i < e; ++i) ++mine[digit(keys[i])];
    }
#pragma omp barrier
#pragma omp single
    {
      for (int c = 0; c < blocks; ++c)
        for (int d = 0; d < radix; ++d) out.bounds[std::size_t(d) + 1] += counts[std::size_t(c) * radix + std::size_t(d)];
      for (int d = 0; d < radix; ++d) {
        out.moved = out.moved && out.bounds[std::size_t(d) + 1] != n;
        out.bounds[std::size_t(d) + 1] += out.bounds[std::size_t(d)];
      }
      if (out.moved) digit_major_positions(counts.data(), blocks, radix);
    }
    if (out.moved) {
      line_scatter<U, W, HasValues> scatter(radix);
      for (int b = first; b < blocks; b += team) {
        const std::int64_t s = b * chunk, e = std::min(n, s + chunk);
        scatter.run(keys, values, temp_k, temp_v, s, e, &counts[std::size_t(b) * radix], radix, digit);
      }
      fence_lines();
    }
  }
  return out;
}

// One thread's in-cache LSD sort of one bucket: src[0, m) -> dst[0, m) by the digits `passes`
// (lowest first), through the cache-resident scratch a and b (m elements each).
template <class U, class W, bool HasValues>
void sort_bucket(const U* src_k, const W* src_v, U* dst_k, W* dst_v, std::int64_t m,
                 const std::vector<digit_of<U>>& passes, U* a_k, W* a_v, U* b_k, W* b_v,
                 std::vector<std::int64_t>& hist) {
  const int count = int(passes.size());
  hist.assign(std::size_t(count) * local_radix, 0);
  for (std::int64_t i = 0; i < m && count > 0; ++i) {  // every pass's counts in one read
    const U image = passes[0].image(src_k[i]);
    for (int p = 0; p < count; ++p) ++hist[std::size_t(p) * local_radix + passes[std::size_t(p)].of_image(image)];
  }
  const U* from_k = src_k;
  const W* from_v = src_v;
  for (int p = 0; p < count; ++p) {
    std::int64_t* h = &hist[std::size_t(p) * local_radix];
    if (std::find(h, h + local_radix, m) != h + local_radix) continue;  // one digit: order kept
    std::int64_t running = 0;
    for (int d = 0; d < local_radix; ++d) {
      const std::int64_t t = h[d];
      h[d] = running;
      running += t;
    }
    U* to_k = from_k == a_k ? b_k : a_k;
    W* to_v = from_k == a_k ? b_v : a_v;
    const digit_of<U> digit = passes[std::size_t(p)];
    for (std::int64_t i = 0; i < m; ++i) {
      const std::int64_t at = h[digit(from_k[i])]++;
      to_k[at] = from_k[i];
      if constexpr (HasValues) to_v[at] = from_v[i];
    }
    from_k = to_k;
    from_v = to_v;
  }
  copy_out(dst_k, from_k, m);
  if constexpr (HasValues) copy_out(dst_v, from_v, m);
}

// Sorts every bucket of at most `cap` elements from temp into keys, buckets handed out to
// `threads` threads as they become free. Larger buckets are left to the caller (returned).
template <class U, class W, bool HasValues>
std::vector<int> sort_buckets(const U* temp_k, const W* temp_v, U* keys, W* values,
                              const std::vector<std::int64_t>& bounds,
                              const std::vector<digit_of<U>>& passes, std::int64_t cap,
                              U* scratch_k, W* scratch_v, int threads) {
  const int buckets = int(bounds.size()) - 1;
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = std::size_t(omp_get_thread_num());
    U* a_k = scratch_k + 2 * t * std::size_t(cap);
    W* a_v = HasValues ? scratch_v + 2 * t * std::size_t(cap) : nullptr;
    std::vector<std::int64_t> hist;
#pragma omp for schedule(dynamic, 1)
    for (int d = 0; d < buckets; ++d) {
      const std::int64_t s = bounds[std::size_t(d)], m = bounds[std::size_t(d) + 1] - s;
      if (m == 0 || m > cap) continue;
      sort_bucket<U, W, HasValues>(temp_k + s, HasValues ? temp_v + s : nullptr, keys + s,
                                   HasValues ? values + s : nullptr, m, passes, a_k, a_v,
                                   a_k + cap, HasValues ? a_v + cap : nullptr, hist);
    }
    fence_lines();
  }
  std::vector<int> large;
  for (int d = 0; d < buckets; ++d)
    if (bounds[std::size_t(d) + 1] - bounds[std::size_t(d)] > cap) large.push_back(d);
  return large;
}

}  // namespace parprim::cpu_backend::msd
