// CPU top-k in two ways, the first tried first:
//   - sampled threshold: the k smallest selection images of a fixed sample give a threshold t
//     that at least k and few elements reach; one pass copies those candidates (image and
//     position, in input order), and the k-th smallest (image, position) pair among them
//     decides which are taken. One read of the input, where radix select reads it at least
//     three times (a digit level, the copy of the elements left in play, the placing pass).
//   - radix select (the fallback, when the sample misjudges the input: fewer than k or too
//     many candidates, e.g. many equal keys, or k above about n/16): per-block digit
//     histograms (8 bits per pass, most significant first) narrow down the k-th smallest
//     selection image until few elements are left in play, which are then copied out and
//     decided among themselves; a last pass places every chosen element in input order.
// Either way ties at the k-th key go to the earliest elements, and blocks depend on n only.
// Segmented top-k is in segmented_top_k.cpp.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <type_traits>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/top_k_backend.hpp"
#include "cpu/top_k_common.hpp"

namespace parprim::cpu_backend {

namespace {

using namespace top_k_detail;

constexpr std::int64_t block = 1 << 16;

// Where radix select stands after some digit levels: the chosen high bits (prefix, under
// mask) and how many of the k are still to be taken among the elements whose masked image
// equals prefix (the ones in play); per block, the elements below prefix (all taken) and in
// play. Once mask covers the whole image, prefix is the k-th smallest image itself.
template <class U>
struct selection {
  U prefix = 0, mask = 0;
  std::int64_t remaining = 0;
  std::vector<std::int64_t> below, in_play;  // per block
  std::int64_t in_play_total = 0;
};

// The levels stop early once at most n / gather_fraction elements are in play: those are then
// copied out and finished on their own (place_by_candidates), where each further level would
// read all n again (uniform keys stop after the first level, floats of one sign within an
// octave or two after the second). 2^24 keys on 2 threads, k = n/16 / n/2, against four
// levels and two placing passes: u32 19.6 / 19.9 ms (was 23.2 / 52), f32 36.6 / 36.7 ms (was
// 58 / 87).
constexpr std::int64_t gather_fraction = 16;

template <class U>
selection<U> radix_select(const context& ctx, const U* in, std::int64_t n, std::int64_t k,
                          detail::key_kind kind, bool largest) {
  const std::int64_t blocks = block_count(n, block);
  std::vector<std::array<std::int64_t, 256>> hist(static_cast<std::size_t>(blocks));
  selection<U> sel;
  sel.remaining = k;
  sel.below.assign(static_cast<std::size_t>(blocks), 0);
  sel.in_play.assign(static_cast<std::size_t>(blocks), 0);
  for (int shift = int(sizeof(U)) * 8 - 8; shift >= 0; shift -= 8) {
    const U mask = sel.mask, prefix = sel.prefix;
    with_image_map<U>(kind, largest, [&](auto image_of) {
      blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
        // Four copies of the counters, element i into copy i % 4: when most keys share a
        // digit (floats of one octave share their top bytes), one copy makes each add wait
        // for the one before. The first level counts every element; later ones add 0 or 1
        // without a branch, as the elements still in play are a large, unpredictable share.
        // (2^24 on 2 threads, k = n/2: f32 89 -> 37 ms; u32 with the first level's compare
        // kept 24.8 ms, without it 20.4.)
        std::array<std::array<std::int64_t, 256>, 4> copies{};
        if (mask == 0) {
          for (std::int64_t i = begin; i < end; ++i) ++copies[i & 3][(image_of(in[i]) >> shift) & 255];
        } else {
          for (std::int64_t i = begin; i < end; ++i) {
            const U s = image_of(in[i]);
            copies[i & 3][(s >> shift) & 255] += (s & mask) == prefix;
          }
        }
        auto& h = hist[b];
        for (int d = 0; d < 256; ++d) h[d] = copies[0][d] + copies[1][d] + copies[2][d] + copies[3][d];
      });
    });
    std::array<std::int64_t, 256> total{};
    for (const auto& h : hist)
      for (int d = 0; d < 256; ++d) total[d] += h[d];
    int d = 0;
    while (total[d] < sel.remaining) sel.remaining -= total[d++];
    sel.prefix |= U(d) << shift;
    sel.mask |= U(255) << shift;
    sel.in_play_total = total[d];
    for (std::int64_t b = 0; b < blocks; ++b) {
      for (int lower = 0; lower < d; ++lower) sel.below[b] += hist[b][lower];
      sel.in_play[b] = hist[b][d];
    }
    if (sel.in_play_total * gather_fraction <= n) break;
  }
  return sel;
}

// Exclusive prefix sums of per-block counts, one more entry for the total.
inline std::vector<std::int64_t> block_starts(const std::vector<std::int64_t>& counts) {
  std::vector<std::int64_t> starts(counts.size() + 1, 0);
  for (std::size_t b = 0; b < counts.size(); ++b) starts[b + 1] = starts[b] + counts[b];
  return starts;
}

// ---- Sampled threshold ---------------------------------------------------------------------
// Elements sampled at a fixed stride (a function of n only, so the path taken never depends
// on the thread count).
constexpr std::int64_t sample_size = 8192;
// Candidates beyond n / this abandon the sampled path: the selection among them would cost as
// much as radix select (many equal keys, or a sample that misjudged the input).
constexpr std::int64_t candidate_fraction = 16;

// The r-th smallest of the candidates (1 <= r <= their count). Pairs are distinct, so exactly
// r of them are at or below it.
template <class U>
candidate<U> rth_smallest(const std::vector<candidate<U>>& candidates, std::int64_t r) {
  std::vector<candidate<U>> order(candidates);
  std::nth_element(order.begin(), order.begin() + (r - 1), order.end());
  return order[r - 1];
}

// The threshold: the j-th smallest image of the sample, j chosen so that at least k elements
// are at or below it but for a tail beyond 4 standard deviations. With mean mu = k s / n
// sampled elements among the k smallest, the count at or below the j-th sampled image has
// mean about j n / s and standard deviation about sqrt(j) n / s, so j = mu + 4 sqrt(mu) + 8
// keeps the expected candidates near (k + 4 sqrt(k n / s) + 8 n / s). False when that
// expectation, j n / s, is already past the limit of n / candidate_fraction: then k is above
// about n/20, and the copy would be thrown away after a whole pass (at 2^24 f32 on 2 threads,
// k = n/2 took 184 ms that way, against 91 ms for radix select alone).
template <class U>
bool sampled_threshold(const U* in, std::int64_t n, std::int64_t k, detail::key_kind kind,
                       bool largest, U& threshold) {
  const std::int64_t s = std::min(n, sample_size), stride = n / s;
  const double mu = double(k) * double(s) / double(n);
  const auto j = std::int64_t(std::ceil(mu + 4 * std::sqrt(mu) + 8));
  if (j * candidate_fraction > s) return false;  // more expected candidates than the limit
  std::vector<U> sample(static_cast<std::size_t>(s));
  for (std::int64_t i = 0; i < s; ++i) sample[i] = detail::ordered_bits(in[i * stride], kind, largest);
  std::nth_element(sample.begin(), sample.begin() + (j - 1), sample.end());
  threshold = sample[j - 1];
  return true;
}

// Every element whose image is at or below the threshold, in input order; false (candidates
// unspecified) when there are more than `limit`. Blocks past the limit stop early.
template <class U>
bool gather_candidates(const context& ctx, const U* in, std::int64_t n, detail::key_kind kind,
                       bool largest, U threshold, std::int64_t limit,
                       std::vector<candidate<U>>& candidates) {
  std::vector<std::vector<candidate<U>>> found(static_cast<std::size_t>(block_count(n, block)));
  std::atomic<std::int64_t> total{0};
  with_image_map<U>(kind, largest, [&](auto image_of) {
    blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      if (total.load(std::memory_order_relaxed) > limit) return;
      auto& mine = found[b];
      for_each_wanted(
          in, begin, end, image_of, [&](U image) { return image <= threshold; },
          [&](std::int64_t i, U image) { mine.push_back({image, i}); });
      total.fetch_add(std::int64_t(mine.size()), std::memory_order_relaxed);
    });
  });
  if (total.load() > limit) return false;
  candidates.clear();
  candidates.reserve(static_cast<std::size_t>(total.load()));
  for (const auto& f : found) candidates.insert(candidates.end(), f.begin(), f.end());
  return true;
}

// The sampled path; false, with nothing written, when the fallback must run.
template <class U, class W>
bool top_k_sampled(const context& ctx, const U* in, const W* values, std::int64_t n,
                   std::int64_t k, U* out, W* out_values, detail::key_kind kind, bool largest) {
  U threshold;
  if (!sampled_threshold(in, n, k, kind, largest, threshold)) return false;
  std::vector<candidate<U>> candidates;
  const std::int64_t limit = n / candidate_fraction;
  if (!gather_candidates(ctx, in, n, kind, largest, threshold, limit, candidates)) return false;
  if (std::int64_t(candidates.size()) < k) return false;
  const candidate<U> kth = rth_smallest(candidates, k);
  std::int64_t j = 0;
  for (const auto& c : candidates)
    if (!(kth < c)) {
      out[j] = in[c.position];
      if (out_values) out_values[j] = values[c.position];
      ++j;
    }
  return true;
}

// The whole image chosen (sel.mask covers it): every element below the k-th image, and the
// first sel.remaining equal to it, in input order.
template <class U, class W>
void place_by_threshold(const context& ctx, const U* in, const W* values, std::int64_t n,
                        const selection<U>& sel, U* out, W* out_values, detail::key_kind kind,
                        bool largest) {
  const std::vector<std::int64_t> less = block_starts(sel.below), equal = block_starts(sel.in_play);
  const std::int64_t r = sel.remaining;
  const U threshold = sel.prefix;  // locals: stores to out may alias U members of sel
  with_image_map<U>(kind, largest, [&](auto image_of) {
    blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      std::int64_t l = less[b], e = equal[b];
      const std::int64_t region_end = less[b + 1] + std::min(equal[b + 1], r);
      // Branch-free (see place_by_candidates): the next output slot is l + min(e, r), written
      // whatever the element; a slot is final once a taken element advances past it.
      for (std::int64_t i = begin; i < end && l + std::min(e, r) < region_end; ++i) {
        const U s = image_of(in[i]);
        const std::int64_t at = l + std::min(e, r);
        out[at] = in[i];
        if (out_values) out_values[at] = values[i];
        l += s < threshold;
        e += s == threshold;
      }
    });
  });
}

// Few elements in play: copy them out with their positions (in input order), take the
// sel.remaining smallest (image, position) pairs among them, then place every element below
// the prefix and every chosen one, in input order.
template <class U, class W>
void place_by_candidates(const context& ctx, const U* in, const W* values, std::int64_t n,
                         const selection<U>& sel, U* out, W* out_values, detail::key_kind kind,
                         bool largest) {
  const std::vector<std::int64_t> play_starts = block_starts(sel.in_play);
  std::vector<candidate<U>> candidates(static_cast<std::size_t>(sel.in_play_total));
  const U mask = sel.mask, prefix = sel.prefix;  // locals: stores may alias U members of sel
  with_image_map<U>(kind, largest, [&](auto image_of) {
    blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      std::int64_t at = play_starts[b];
      if (at == play_starts[b + 1]) return;
      for_each_wanted(
          in, begin, end, image_of, [&](U image) { return (image & mask) == prefix; },
          [&](std::int64_t i, U image) { candidates[at++] = {image, i}; });
    });
  });
  // radix_select leaves 1 <= sel.remaining <= sel.in_play_total.
  const candidate<U> kth = rth_smallest(candidates, sel.remaining);
  std::vector<std::int64_t> taken(sel.below);  // per block, below plus chosen candidates
  for (const auto& c : candidates)
    if (!(kth < c)) ++taken[c.position / block];
  // Branch-free: about half the elements are taken when k is near n/2, in no predictable
  // pattern, and a branch per element cost more than the histogram passes saved (2^24 u32,
  // k = n/2, 2 threads: 62 ms with the branch, against 56 ms for full radix select). Each
  // element is written to the block's next output slot, which only a taken element advances
  // past; the loop stops at the block's last slot, so no write leaves the block's region.
  const std::vector<std::int64_t> starts = block_starts(taken);
  with_image_map<U>(kind, largest, [&](auto image_of) {
    blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      std::int64_t at = starts[b];
      for (std::int64_t i = begin; i < end && at < starts[b + 1]; ++i) {
        const U s = image_of(in[i]);
        const U high = s & mask;
        out[at] = in[i];
        if (out_values) out_values[at] = values[i];
        at += (high < prefix) | ((high == prefix) & !(kth < candidate<U>{s, i}));
      }
    });
  });
}

}  // namespace

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest) {
  if (top_k_sampled(ctx, in, values, n, k, out, out_values, kind, largest)) return;
  const selection<U> sel = radix_select(ctx, in, n, k, kind, largest);
  if (sel.mask == U(~U(0))) place_by_threshold(ctx, in, values, n, sel, out, out_values, kind, largest);
  else place_by_candidates(ctx, in, values, n, sel, out, out_values, kind, largest);
}

#define PARPRIM_INSTANTIATE(U, W)                                                             \
  template void top_k<U, W>(const context&, const U*, const W*, std::int64_t, std::int64_t, U*, \
                            W*, detail::key_kind, bool);
PARPRIM_INSTANTIATE(std::uint32_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint32_t, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
