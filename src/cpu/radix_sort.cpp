// CPU radix sort. Inputs of at least split_cutoff (2^16) elements are first split by their top
// digit into cache-sized buckets, each then sorted in one core's cache (radix_sort_msd.hpp).
// A bucket too large for a cache is split again the same way on its lower bits (skewed keys);
// smaller inputs and what is left of such a bucket below 2^16 keys take the parallel
// least-significant-digit passes below, made to move memory as little as the algorithm allows.
//
// The keys are cut into one contiguous block per worker thread, and the whole sort runs in
// one parallel region (barriers between phases, no fork/join per pass):
//   1. one read of the keys counts every digit of every pass per block (the fused histogram);
//      a pass whose digit is the same for every key would move nothing and is skipped;
//   2. per executed pass, a prefix over (digit, block) gives every block its write position
//      for each digit: all of digit 0 from block 0, then block 1, ..., then digit 1, ...;
//   3. every block scatters its keys (and values) in input order to those positions through
//      a software write-combining buffer per digit: 64 bytes of keys gather in a buffer that
//      stays in L1 and are written out together, so the 256 output streams cost whole cache
//      lines instead of one partial line per key. While a buffer is written out, the next
//      executed pass's digit of its keys is counted by destination block: the next pass's
//      per-block counts come free with this pass's writes, with no extra read.
// Step 3 keeps equal digits in input order, so each pass is stable and LSD order works.
// Digits come from the order-preserving image of the raw key bits (core/sort_keys.hpp), so
// signed and float keys need no conversion pass.
#include <omp.h>

#include <algorithm>
#include <type_traits>
#include <cstring>
#include <utility>
#include <vector>

#include "parprim/detail/temp_memory.hpp"
#include "cpu/parallel.hpp"
#include "cpu/radix_sort_msd.hpp"
#include "cpu/sort_backend.hpp"

namespace parprim::cpu_backend {

namespace {

constexpr int digit_bits = 8;
constexpr int radix = 1 << digit_bits;
constexpr int max_passes = 8;
// Bytes gathered per digit before a write: one cache line of the wider of key and value.
constexpr int combine_bytes = 64;

struct pass_plan {
  int shift[max_passes];
  int width[max_passes];
  int executed = 0;  // passes whose digit is not the same for every key, in order
};

// One thread's scatter of its block in one pass, through per-digit write-combining buffers.
template <class U, class W>
class block_scatter {
 public:
  static constexpr int slots = combine_bytes / int(sizeof(U) > sizeof(W) ? sizeof(U) : sizeof(W));

  block_scatter(bool has_values, int blocks)
      : keys_(std::size_t(radix) * slots), values_(has_values ? std::size_t(radix) * slots : 0),
        next_counts_(std::size_t(blocks) * radix) {}

  // Scatters src[s, e) to dst at `offset[digit]` (advanced). With a next pass, counts its
  // digit of every written key by destination block (blocks of `chunk` keys) into next_counts.
  template <class Digit, class NextDigit>
  void run(const U* src_k, const W* src_v, U* dst_k, W* dst_v, std::int64_t s, std::int64_t e,
           std::int64_t* offset, Digit digit, bool count_next, NextDigit next_digit,
           std::int64_t chunk) {
    std::fill(fill_, fill_ + radix, 0);
    if (count_next) {
      std::fill(next_counts_.begin(), next_counts_.end(), 0);
      // Each digit's destination block and where it ends, advanced as the digit's writes
      // move forward (no division per write).
      for (int d = 0; d < radix; ++d) {
        dest_block_[d] = offset[d] / chunk;
        dest_end_[d] = (dest_block_[d] + 1) * chunk;
      }
    }
    // Writes digit d's buffered keys (len of them; `slots` when full, a constant the compiler
    // turns into a few vector moves) and counts their next-pass digits by destination block.
    auto flush = [&](unsigned d, int len) {
      const std::int64_t at = offset[d];
      const U* kb = &keys_[std::size_t(d) * slots];
      std::memcpy(dst_k + at, kb, std::size_t(len) * sizeof(U));
      if (src_v) std::memcpy(dst_v + at, &values_[std::size_t(d) * slots], std::size_t(len) * sizeof(W));
      if (count_next) {
        if (at + len <= dest_end_[d]) {  // the usual case: one destination block
          std::int64_t* counts = &next_counts_[std::size_t(dest_block_[d]) * radix];
          for (int j = 0; j < len; ++j) ++counts[next_digit(kb[j])];
        } else {
          for (int j = 0; j < len; ++j) {
            while (at + j >= dest_end_[d]) {
              ++dest_block_[d];
              dest_end_[d] += chunk;
            }
            ++next_counts_[std::size_t(dest_block_[d]) * radix + next_digit(kb[j])];
          }
        }
      }
      offset[d] = at + len;
      fill_[d] = 0;
    };
    for (std::int64_t i = s; i < e; ++i) {
      const U k = src_k[i];
      const unsigned d = digit(k);
      const int f = fill_[d];
      keys_[std::size_t(d) * slots + f] = k;
      if (src_v) values_[std::size_t(d) * slots + f] = src_v[i];
      fill_[d] = f + 1;
      if (f + 1 == slots) flush(d, slots);
    }
    for (unsigned d = 0; d < unsigned(radix); ++d)
      if (fill_[d]) flush(d, fill_[d]);
  }

  const std::int64_t* next_counts() const { return next_counts_.data(); }

 private:
  std::vector<U> keys_;
  std::vector<W> values_;
  std::vector<std::int64_t> next_counts_;  // [destination block][digit]
  int fill_[radix];
  std::int64_t dest_block_[radix];
  std::int64_t dest_end_[radix];
};

// counts[b][d] (blocks x radix) -> offset[b][d], digit-major over blocks.
void digit_major_offsets(std::int64_t* counts, std::int64_t blocks) {
  std::int64_t running = 0;
  for (int d = 0; d < radix; ++d)
    for (std::int64_t b = 0; b < blocks; ++b) {
      std::int64_t& c = counts[std::size_t(b * radix + d)];
      const std::int64_t t = c;
      c = running;
      running += t;
    }
}

// Step 1 for one block [s, e): h[p * radix + d] counts the keys whose pass-p digit is d.
template <class U>
void fused_histogram(const detail::sort_request& r, const pass_plan& plan, int passes, const U* keys,
                     std::int64_t s, std::int64_t e, std::int64_t* h) {
  for (std::int64_t i = s; i < e; ++i) {
    const U image = detail::ordered_bits(keys[i], r.kind, r.descending);
    for (int p = 0; p < passes; ++p)
      ++h[p * radix + ((image >> plan.shift[p]) & ((1u << plan.width[p]) - 1u))];
  }
}

// The passes that move keys (a pass whose digit is the same for all n keys is skipped), from
// the fused counts fused[block][pass][digit]; the first one's counts go to offsets[block][digit].
inline std::vector<int> executed_passes(const std::vector<std::int64_t>& fused, int blocks, int passes,
                                        std::int64_t n, std::vector<std::int64_t>& offsets) {
  std::vector<int> executed;
  for (int p = 0; p < passes; ++p) {
    bool trivial = false;
    for (int d = 0; d < radix && !trivial; ++d) {
      std::int64_t total = 0;
      for (int c = 0; c < blocks; ++c) total += fused[(std::size_t(c) * passes + p) * radix + d];
      trivial = total == n;
    }
    if (!trivial) executed.push_back(p);
  }
  if (!executed.empty())  // the first executed pass reads the input: its counts are fused
    for (int c = 0; c < blocks; ++c)
      std::copy_n(&fused[(std::size_t(c) * passes + executed[0]) * radix], radix, &offsets[std::size_t(c) * radix]);
  return executed;
}

template <class U, class W>
void lsd_sort(const context& ctx, const detail::sort_request& r, U* keys, W* values,
              workspace* ws) {
  const std::int64_t n = r.n;
  const int workers = workers_for(ctx, n);
  const std::int64_t chunk = block_count(n, workers);
  const int blocks = int(block_count(n, chunk));
  const int passes = (r.end_bit - r.begin_bit + digit_bits - 1) / digit_bits;
  const std::size_t key_bytes = detail::align_up(std::size_t(n) * sizeof(U));
  const std::size_t value_bytes = values ? std::size_t(n) * sizeof(W) : 0;
  detail::temp_memory temp(ctx, ws, key_bytes + value_bytes);
  U* buffers_k[2] = {keys, temp.as<U>()};
  W* buffers_v[2] = {values, values ? reinterpret_cast<W*>(temp.as<unsigned char>() + key_bytes) : nullptr};

  pass_plan plan;
  for (int p = 0; p < passes; ++p) {
    plan.shift[p] = r.begin_bit + p * digit_bits;
    plan.width[p] = std::min(digit_bits, r.end_bit - plan.shift[p]);
  }
  auto field = [&](U k, int p) {
    return detail::key_field(k, r.kind, r.descending, plan.shift[p], plan.width[p]);
  };
  // fused[b][p][d]: digit counts of every pass over block b of the input.
  std::vector<std::int64_t> fused(std::size_t(blocks) * passes * radix, 0);
  std::vector<std::int64_t> offsets(std::size_t(blocks) * radix);  // [block][digit]
  std::vector<int> executed;
  std::vector<block_scatter<U, W>*> scatters(std::size_t(blocks), nullptr);

#pragma omp parallel num_threads(blocks)
  {
    const int b = omp_get_thread_num();
    const std::int64_t s = b * chunk, e = std::min(n, s + chunk);
    fused_histogram(r, plan, passes, keys, s, e, &fused[std::size_t(b) * passes * radix]);  // step 1
#pragma omp barrier
#pragma omp single
    executed = executed_passes(fused, blocks, passes, n, offsets);
    block_scatter<U, W> scatter(values != nullptr, blocks);
    scatters[std::size_t(b)] = &scatter;
    const int runs = int(executed.size());
    for (int x = 0; x < runs; ++x) {
      // Step 2: where each block's digits go.
#pragma omp barrier
#pragma omp single
      digit_major_offsets(offsets.data(), blocks);
      // Step 3: the stable scatter, counting the next executed pass's digits on the way.
      const int p = executed[std::size_t(x)];
      const bool has_next = x + 1 < runs;
      const int next = has_next ? executed[std::size_t(x) + 1] : p;
      const U* src_k = buffers_k[x & 1];
      const W* src_v = buffers_v[x & 1];
      scatter.run(src_k, src_v, buffers_k[(x + 1) & 1], buffers_v[(x + 1) & 1], s, e,
                  &offsets[std::size_t(b) * radix], [&](U k) { return field(k, p); }, has_next,
                  [&](U k) { return field(k, next); }, chunk);
#pragma omp barrier
      if (has_next) {  // block b's counts for the next pass, summed over the writers
        std::int64_t* mine = &offsets[std::size_t(b) * radix];
        std::fill(mine, mine + radix, 0);
        for (int t = 0; t < blocks; ++t) {
          const std::int64_t* theirs = scatters[std::size_t(t)]->next_counts() + std::size_t(b) * radix;
          for (int d = 0; d < radix; ++d) mine[d] += theirs[d];
        }
      }
    }
    // An odd number of executed passes leaves the result in the temporary copy.
    if (runs % 2) {
      std::memcpy(keys + s, buffers_k[1] + s, std::size_t(e - s) * sizeof(U));
      if (values) std::memcpy(values + s, buffers_v[1] + s, std::size_t(e - s) * sizeof(W));
    }
#pragma omp barrier  // no thread's scatter buffers go away while another reads its counts
  }
}

// The split path: temp holds the split copy and each thread's two bucket-sized scratch copies.
// The keys (and values) are read from src_keys (src_values), which may be keys (values)
// themselves or another copy of the same elements; the sorted result is in keys (values).
template <class U, class W, bool HasValues>
void split_sort(const context& ctx, const detail::sort_request& r, const U* src_keys, const W* src_values,
                U* keys, W* values, workspace* ws) {
  const std::int64_t n = r.n;
  const int threads = workers_for(ctx, n);
  const std::size_t element_bytes = sizeof(U) + (HasValues ? sizeof(W) : 0);
  const int top_bits = msd::split_bits_for(n, element_bytes, r.end_bit - r.begin_bit);
  const int shift = r.end_bit - top_bits;
  const std::int64_t cap = msd::bucket_capacity(n, top_bits);
  const std::vector<msd::digit_of<U>> passes = msd::local_passes<U>(r, shift);

  const std::size_t scratch = 2 * std::size_t(cap) * std::size_t(threads);
  const std::size_t key_bytes = detail::align_up(std::size_t(n) * sizeof(U));
  const std::size_t value_bytes = HasValues ? detail::align_up(std::size_t(n) * sizeof(W)) : 0;
  const std::size_t scratch_key_bytes = detail::align_up(scratch * sizeof(U));
  const std::size_t scratch_value_bytes = HasValues ? scratch * sizeof(W) : 0;
  msd::split_result split;
  {
    detail::temp_memory temp(ctx, ws, key_bytes + value_bytes + scratch_key_bytes + scratch_value_bytes);
    unsigned char* base = temp.as<unsigned char>();
    U* temp_k = reinterpret_cast<U*>(base);
    W* temp_v = HasValues ? reinterpret_cast<W*>(base + key_bytes) : nullptr;
    U* scratch_k = reinterpret_cast<U*>(base + key_bytes + value_bytes);
    W* scratch_v = HasValues ? reinterpret_cast<W*>(base + key_bytes + value_bytes + scratch_key_bytes) : nullptr;
    split = msd::split<U, W, HasValues>(src_keys, src_values, temp_k, temp_v, n, threads, 1 << top_bits,
                                        msd::make_digit<U>(r, shift, top_bits));
    if (split.moved) {
      const std::vector<int> large = msd::sort_buckets<U, W, HasValues>(
          temp_k, temp_v, keys, values, split.bounds, passes, cap, scratch_k, scratch_v, threads);
      // A bucket too large for a cache is sorted on the bits below the split: where it is
      // large enough, by a split of its own read straight from the split copy (skewed keys:
      // uniform floats in [0, 1) put half of them in one exponent); else it goes back in place
      // for the parallel LSD passes. Passing every large bucket to the LSD passes took f32 in
      // [0, 1) to 3.2x the time of uniform u32 (2 threads, 2^25: 515 against 159 ms).
      for (int d : large) {
        const std::int64_t s = split.bounds[std::size_t(d)], m = split.bounds[std::size_t(d) + 1] - s;
        detail::sort_request part = r;
        part.n = m;
        part.end_bit = shift;
        W* part_values = HasValues ? values + s : nullptr;
        if (m >= msd::split_cutoff && shift != r.begin_bit) {
          split_sort<U, W, HasValues>(ctx, part, temp_k + s, HasValues ? temp_v + s : nullptr, keys + s,
                                      part_values, nullptr);
          continue;
        }
        parallel_for(ctx, m, [&](std::int64_t i) {
          keys[s + i] = temp_k[s + i];
          if constexpr (HasValues) values[s + i] = temp_v[s + i];
        });
        if (shift != r.begin_bit) lsd_sort(ctx, part, keys + s, part_values, nullptr);
      }
      return;
    }
  }
  // Every key has the same top digit: the LSD passes skip it and sort by the rest, in place.
  if (src_keys != keys)
    parallel_for(ctx, n, [&](std::int64_t i) {
      keys[i] = src_keys[i];
      if constexpr (HasValues) values[i] = src_values[i];
    });
  lsd_sort(ctx, r, keys, values, ws);
}

}  // namespace

void radix_sort_lsd(const context& ctx, const detail::sort_request& r, workspace* ws) {
  detail::with_words(r, [&](auto* keys, auto* values) {
    using U = std::remove_pointer_t<decltype(keys)>;
    using W = std::remove_pointer_t<decltype(values)>;
    if (r.argsort_keys) {  // the scratch keys from the caller's, the indices 0, 1, ..., n - 1
      const U* from = static_cast<const U*>(r.argsort_keys);
      parallel_for(ctx, r.n, [&](std::int64_t i) {
        keys[i] = from[i];
        values[i] = W(i);
      });
    }
    if (r.n < msd::split_cutoff) lsd_sort(ctx, r, keys, values, ws);
    else if (values) split_sort<U, W, true>(ctx, r, keys, values, keys, values, ws);
    else split_sort<U, W, false>(ctx, r, keys, values, keys, values, ws);
  });
}

void radix_sort_lsd_passes(const context& ctx, const detail::sort_request& r, workspace* ws) {
  detail::with_words(r, [&](auto* keys, auto* values) { lsd_sort(ctx, r, keys, values, ws); });
}

}  // namespace parprim::cpu_backend
