// CPU top-k in two ways, the first tried first:
//   - sampled threshold: the k smallest selection images of a fixed sample give a threshold t
//     that at least k and few elements reach; one pass copies those candidates (image and
//     position, in input order), and the k-th smallest (image, position) pair among them
//     decides which are taken. One read of the input, where radix select reads it once per
//     digit and twice more to place the chosen (six times for 4-byte keys).
//   - radix select (the fallback, when the sample misjudges the input: fewer than k or too
//     many candidates, e.g. many equal keys): per-block digit histograms (8 bits per pass,
//     most significant first) find the k-th smallest selection image t; then a blocked stable
//     compaction takes every element below t and the first `remaining` equal to it.
// Either way ties at the k-th key go to the earliest elements, and blocks depend on n only.
// Segmented top-k: one partial selection per segment (a heap, or nth_element for large k).
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/top_k_backend.hpp"

namespace parprim::cpu_backend {

namespace {

constexpr std::int64_t block = 1 << 16;

template <class U>
struct selection {
  U threshold = 0;             // the k-th smallest image
  std::int64_t remaining = 0;  // how many elements equal to it are taken
};

template <class U>
selection<U> radix_select(const context& ctx, const U* in, std::int64_t n, std::int64_t k,
                          detail::key_kind kind, bool largest) {
  const std::int64_t blocks = block_count(n, block);
  std::vector<std::array<std::int64_t, 256>> hist(static_cast<std::size_t>(blocks));
  U prefix = 0, mask = 0;
  std::int64_t remaining = k;
  for (int shift = int(sizeof(U)) * 8 - 8; shift >= 0; shift -= 8) {
    blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
      auto& h = hist[b];
      h.fill(0);
      for (std::int64_t i = begin; i < end; ++i) {
        const U s = detail::ordered_bits(in[i], kind, largest);
        if ((s & mask) == prefix) ++h[(s >> shift) & 255];
      }
    });
    std::array<std::int64_t, 256> total{};
    for (const auto& h : hist)
      for (int d = 0; d < 256; ++d) total[d] += h[d];
    int d = 0;
    while (total[d] < remaining) remaining -= total[d++];
    prefix |= U(d) << shift;
    mask |= U(255) << shift;
  }
  return {prefix, remaining};
}

// ---- Sampled threshold ---------------------------------------------------------------------
// Elements sampled at a fixed stride (a function of n only, so the path taken never depends
// on the thread count).
constexpr std::int64_t sample_size = 8192;
// Candidates beyond n / this abandon the sampled path: the selection among them would cost as
// much as radix select (many equal keys, or a sample that misjudged the input).
constexpr std::int64_t candidate_fraction = 16;

template <class U>
struct candidate {
  U image;
  std::int64_t position;
  bool operator<(const candidate& o) const {
    return image != o.image ? image < o.image : position < o.position;
  }
};

// The threshold: the j-th smallest image of the sample, j chosen so that at least k elements
// are at or below it but for a tail beyond 4 standard deviations. With mean mu = k s / n
// sampled elements among the k smallest, the count at or below the j-th sampled image has
// mean about j n / s and standard deviation about sqrt(j) n / s, so j = mu + 4 sqrt(mu) + 8
// keeps the expected candidates near (k + 4 sqrt(k n / s) + 8 n / s). False when j > s.
template <class U>
bool sampled_threshold(const U* in, std::int64_t n, std::int64_t k, detail::key_kind kind,
                       bool largest, U& threshold) {
  const std::int64_t s = std::min(n, sample_size), stride = n / s;
  const double mu = double(k) * double(s) / double(n);
  const auto j = std::int64_t(std::ceil(mu + 4 * std::sqrt(mu) + 8));
  if (j > s) return false;
  std::vector<U> sample(static_cast<std::size_t>(s));
  for (std::int64_t i = 0; i < s; ++i) sample[i] = detail::ordered_bits(in[i * stride], kind, largest);
  std::nth_element(sample.begin(), sample.begin() + (j - 1), sample.end());
  threshold = sample[j - 1];
  return true;
}

// Calls f(image) with the selection-image map of the keys as a callable whose kind and
// direction are compile-time constants, so loops over it vectorize.
template <class U, class F>
void with_image_map(detail::key_kind kind, bool largest, F&& f) {
  auto map = [&](auto kind_constant, auto largest_constant) {
    using kind_c = decltype(kind_constant);
    using largest_c = decltype(largest_constant);
    f([](U raw) { return detail::ordered_bits(raw, kind_c::value, largest_c::value); });
  };
  auto by_kind = [&](auto largest_constant) {
    using K = detail::key_kind;
    switch (kind) {
      case K::signed_int: return map(std::integral_constant<K, K::signed_int>{}, largest_constant);
      case K::floating: return map(std::integral_constant<K, K::floating>{}, largest_constant);
      default: return map(std::integral_constant<K, K::unsigned_int>{}, largest_constant);
    }
  };
  if (largest) by_kind(std::true_type{});
  else by_kind(std::false_type{});
}

// Candidates are rare, so each run of `scan_chunk` elements is first counted with a loop the
// compiler vectorizes (no branch, no store), and only a run with a hit is walked again to copy
// its candidates. On 2 cores at 2^24 f32 the walk with a branch per element took about 8 ms.
constexpr std::int64_t scan_chunk = 64;

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
      for (std::int64_t first = begin; first < end; first += scan_chunk) {
        const std::int64_t last = std::min(end, first + scan_chunk);
        unsigned hits = 0;
        for (std::int64_t i = first; i < last; ++i) hits += image_of(in[i]) <= threshold;
        if (hits == 0) continue;
        for (std::int64_t i = first; i < last; ++i)
          if (image_of(in[i]) <= threshold) mine.push_back({image_of(in[i]), i});
      }
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
  const std::int64_t limit = std::max(k, n / candidate_fraction);
  if (!gather_candidates(ctx, in, n, kind, largest, threshold, limit, candidates)) return false;
  if (std::int64_t(candidates.size()) < k) return false;
  // (image, position) pairs are distinct, so exactly k of them are at or below the k-th.
  std::vector<candidate<U>> order(candidates);
  std::nth_element(order.begin(), order.begin() + (k - 1), order.end());
  const candidate<U> kth = order[k - 1];
  std::int64_t j = 0;
  for (const auto& c : candidates)
    if (!(kth < c)) {
      out[j] = in[c.position];
      if (out_values) out_values[j] = values[c.position];
      ++j;
    }
  return true;
}

}  // namespace

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest) {
  if (top_k_sampled(ctx, in, values, n, k, out, out_values, kind, largest)) return;
  const selection<U> sel = radix_select(ctx, in, n, k, kind, largest);
  const std::int64_t blocks = block_count(n, block);
  std::vector<std::int64_t> less(static_cast<std::size_t>(blocks) + 1), equal(less.size());
  blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    std::int64_t l = 0, e = 0;
    for (std::int64_t i = begin; i < end; ++i) {
      const U s = detail::ordered_bits(in[i], kind, largest);
      l += s < sel.threshold;
      e += s == sel.threshold;
    }
    less[b + 1] = l;
    equal[b + 1] = e;
  });
  for (std::int64_t b = 0; b < blocks; ++b) {
    less[b + 1] += less[b];
    equal[b + 1] += equal[b];
  }
  blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    std::int64_t l = less[b], e = equal[b];
    for (std::int64_t i = begin; i < end; ++i) {
      const U s = detail::ordered_bits(in[i], kind, largest);
      std::int64_t pos = -1;
      if (s < sel.threshold) pos = l++ + std::min(e, sel.remaining);
      else if (s == sel.threshold && e < sel.remaining) pos = l + e++;
      else if (s == sel.threshold) ++e;
      if (pos >= 0) {
        out[pos] = in[i];
        if (out_values) out_values[pos] = values[i];
      }
    }
  });
}

// A segment's m chosen pairs come from a partial sort (a heap of m) when m is at most
// length / this, else from nth_element and a sort of the m. 2^24 f32 in segments of 4096 on
// 2 threads, partial sort against nth_element + sort: k = 1 12.6 vs 57.5 ms, k = 32 26.7 vs
// 59.6 ms, k = 1024 329.6 vs 139.5 ms.
constexpr std::int64_t partial_sort_ratio = 16;

// Each segment on its own: a partial selection of (image, position) pairs, whose order breaks ties
// by position as the contract asks; then, for input order, the chosen pairs by position.
template <class U, class W>
void segmented_top_k(const context& ctx, const U* in, const W* values,
                     const std::int64_t* offsets, std::int64_t segments, std::int64_t k, U* out,
                     W* out_values, detail::key_kind kind, bool largest, bool sorted) {
  // Threads by the elements covered, not the segment count; dynamic chunks, as segment
  // lengths may differ widely.
  const int threads = workers_for(ctx, offsets[segments] - offsets[0]);
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1)
  for (std::int64_t s = 0; s < segments; ++s) {
    const std::int64_t begin = offsets[s], length = offsets[s + 1] - begin;
    const std::int64_t m = std::min(k, length);
    if (m == 0) continue;
    std::vector<std::pair<U, std::int64_t>> v(static_cast<std::size_t>(length));
    for (std::int64_t i = 0; i < length; ++i)
      v[i] = {detail::ordered_bits(in[begin + i], kind, largest), begin + i};
    if (m * partial_sort_ratio <= length) {
      std::partial_sort(v.begin(), v.begin() + m, v.end());
    } else {
      std::nth_element(v.begin(), v.begin() + (m - 1), v.end());
      if (sorted) std::sort(v.begin(), v.begin() + m);
    }
    if (!sorted)
      std::sort(v.begin(), v.begin() + m, [](const auto& a, const auto& b) { return a.second < b.second; });
    for (std::int64_t j = 0; j < m; ++j) {
      out[s * k + j] = in[v[j].second];
      if (out_values) out_values[s * k + j] = values[v[j].second];
    }
  }
}

#define PARPRIM_INSTANTIATE(U, W)                                                             \
  template void top_k<U, W>(const context&, const U*, const W*, std::int64_t, std::int64_t, U*, \
                            W*, detail::key_kind, bool);                                        \
  template void segmented_top_k<U, W>(const context&, const U*, const W*,                       \
                                      const std::int64_t*, std::int64_t, std::int64_t, U*, W*,   \
                                      detail::key_kind, bool, bool);
PARPRIM_INSTANTIATE(std::uint32_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint32_t, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
