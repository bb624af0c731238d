// CPU radix select: per-block digit histograms (8 bits per pass, most significant first) find
// the k-th smallest selection image t; then a blocked stable compaction takes every element
// below t and the first `remaining` equal to it. Blocks depend on n only. Segmented top-k:
// one partial sort per segment.
#include <algorithm>
#include <array>
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

}  // namespace

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest) {
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

// Each segment on its own: a partial sort of (image, position) pairs, whose order breaks ties
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
    std::partial_sort(v.begin(), v.begin() + m, v.end());
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
