// CPU segmented top-k: one selection per segment (a heap or a buffer of k in one read, or
// nth_element for large k), segments in parallel; a long segment by parts in parallel, whose
// selections are merged. Ties at the k-th key go to the earliest elements.
#include <algorithm>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/top_k_backend.hpp"
#include "cpu/top_k_common.hpp"

namespace parprim::cpu_backend {

namespace {

using namespace top_k_detail;

// A segment's m chosen (image, position) pairs come from one read of the segment through a
// heap or a buffer (smallest_in_one_read below; a heap of m in the measurements here) when m
// is at most length / this, else from nth_element over all its pairs and a sort of the m.
// 2^24 f32 in segments of 4096 on 2 threads: a partial sort of all pairs
// against nth_element + sort, k = 1 12.6 vs 57.5 ms, k = 32 26.7 vs 59.6 ms, k = 1024 329.6
// vs 139.5 ms; the heap in one read instead of the partial sort, k = 1 12.7-12.9 -> 5.3-5.7
// ms, k = 32 26.2-27.2 -> 18.3-19.8 ms.
constexpr std::int64_t partial_sort_ratio = 16;

// The m smallest pairs of in[begin, begin + length), ascending, from one read. An element is
// wanted when its image is below the bar, the largest image of the m smallest pairs kept (an
// equal image comes later, so its pair is larger: ties stay with the earliest, as the
// contract asks); for_each_wanted finds the wanted ones without a branch per element. They
// enter a max-heap of m, each replacing its top (log m steps): random keys replace it about
// m ln(length / m) times. Past heap_replacements_per_kept * m replacements (keys that keep
// improving, such as ascending keys when the largest are asked) and for m > heap_max_m, the
// rest goes through a buffer instead, cut back to its m smallest by nth_element when full,
// which lowers the bar: a cut costs O(buffer) and frees max(m, buffer_slack) slots, O(1) an
// element where the heap paid log m. f32 on 2 threads, best of 3 alternated runs against the
// heap alone with a branch per element (2026-11-25-cpu2-segmented-top-k-ascending.md): one
// ascending segment of 2^22, k = 32 50.5 -> 21.0 ms, k = 1024 97.0 -> 20.8 ms; one segment of
// random keys, k = 1 1.48 -> 0.65 ms (for_each_wanted). The buffer from the start made
// segments of 4096 slower at k = 32 (its cuts dearer than the heap's few replacements), and
// for k = 1 even ascending keys went faster through the heap's one-step replacements.
constexpr std::int64_t heap_max_m = 8;
constexpr std::int64_t heap_replacements_per_kept = 64;
constexpr std::int64_t buffer_slack = 32;

// smallest_in_one_read's second phase: the m smallest pairs kept so far (any order) and the
// rest of the segment, from `from` on, through the buffer.
template <class U, class ImageOf>
void finish_by_buffer(const U* in, std::int64_t from, std::int64_t end, std::int64_t m,
                      std::vector<candidate<U>>& kept, ImageOf image_of) {
  const std::size_t capacity = static_cast<std::size_t>(m + std::max(m, buffer_slack));
  kept.reserve(capacity);
  auto cut = [&] {
    std::nth_element(kept.begin(), kept.begin() + (m - 1), kept.end());
    kept.resize(static_cast<std::size_t>(m));
    return kept.back().image;
  };
  U bar = cut();
  for_each_wanted(
      in, from, end, image_of, [&](U image) { return image < bar; },
      [&](std::int64_t i, U image) {
        kept.push_back({image, i});
        if (kept.size() == capacity) bar = cut();
      });
  cut();
}

template <class U, class ImageOf>
std::vector<candidate<U>> smallest_in_one_read(const U* in, std::int64_t begin, std::int64_t length,
                                               std::int64_t m, ImageOf image_of) {
  std::vector<candidate<U>> heap(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) heap[i] = {image_of(in[begin + i]), begin + i};
  std::make_heap(heap.begin(), heap.end());
  const std::int64_t end = begin + length;
  const std::int64_t budget = m <= heap_max_m ? length : heap_replacements_per_kept * m;
  std::int64_t from = begin + m, replaced = 0;
  // By runs of scan_chunk, so that the heap's phase ends within one run of its budget.
  for (; from < end && replaced <= budget; from = std::min(end, from + scan_chunk))
    for_each_wanted(
        in, from, std::min(end, from + scan_chunk), image_of,
        [&](U image) { return image < heap.front().image; },
        [&](std::int64_t i, U image) {
          std::pop_heap(heap.begin(), heap.end());
          heap.back() = {image, i};
          std::push_heap(heap.begin(), heap.end());
          ++replaced;
        });
  if (from < end) finish_by_buffer(in, from, end, m, heap, image_of);
  std::sort(heap.begin(), heap.end());
  return heap;
}

// The m smallest pairs of the segment, ascending when `sorted`, else in any order.
template <class U, class ImageOf>
std::vector<candidate<U>> smallest_by_selection(const U* in, std::int64_t begin, std::int64_t length,
                                             std::int64_t m, bool sorted, ImageOf image_of) {
  std::vector<candidate<U>> v(static_cast<std::size_t>(length));
  for (std::int64_t i = 0; i < length; ++i) v[i] = {image_of(in[begin + i]), begin + i};
  std::nth_element(v.begin(), v.begin() + (m - 1), v.end());
  v.resize(static_cast<std::size_t>(m));
  if (sorted) std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

// A segment is cut into parts, one per thread, of at least max(2^16, partial_sort_ratio * k)
// elements, whose m smallest pairs are found in parallel and then merged: one thread per
// segment left a single long segment to one thread. Parts per thread, not of a fixed length:
// with 256 parts of 2^16, k = 1024 in one segment of 2^24 went 11.8 -> 49-59 ms on 2 threads,
// each part's heap taking about k ln(part / k) insertions (2026-11-25-cpu2-segmented-top-k.md).
constexpr std::int64_t min_segment_part = 1 << 16;

// The m smallest pairs of the segment, ascending when `sorted`, else in any order: the m
// smallest of each of `parts` parts in one read each, in parallel, then the m smallest of those.
// Pairs are distinct and totally ordered, so the result is that of one selection over the
// segment.
template <class U, class ImageOf>
std::vector<candidate<U>> smallest_by_parts(const U* in, std::int64_t begin, std::int64_t length,
                                         std::int64_t m, int parts, bool sorted, ImageOf image_of) {
  std::vector<std::vector<candidate<U>>> best(static_cast<std::size_t>(parts));
#pragma omp parallel for schedule(static) num_threads(parts)
  for (int p = 0; p < parts; ++p) {
    const std::int64_t lo = length * p / parts, hi = length * (p + 1) / parts;
    best[p] = smallest_in_one_read(in, begin + lo, hi - lo, std::min(m, hi - lo), image_of);
  }
  std::vector<candidate<U>> all;
  for (const auto& v : best) all.insert(all.end(), v.begin(), v.end());
  std::nth_element(all.begin(), all.begin() + (m - 1), all.end());
  all.resize(static_cast<std::size_t>(m));
  if (sorted) std::sort(all.begin(), all.end());
  return all;
}

// Each segment on its own, its chosen pairs in key order (sorted) or by position; a segment
// long enough for two parts or more by all threads, after the others.
template <class U, class W>
void segmented_top_k(const context& ctx, const U* in, const W* values,
                     const std::int64_t* offsets, std::int64_t segments, std::int64_t k, U* out,
                     W* out_values, detail::key_kind kind, bool largest, bool sorted) {
  // Threads by the elements covered, not the segment count; dynamic chunks, as segment
  // lengths may differ widely.
  const int threads = workers_for(ctx, offsets[segments] - offsets[0]);
  const std::int64_t min_part = std::max(min_segment_part, k * partial_sort_ratio);
  auto parts_of = [&](std::int64_t length) { return int(std::min<std::int64_t>(threads, length / min_part)); };
  with_image_map<U>(kind, largest, [&](auto image_of) {
    auto write = [&](std::int64_t s, std::vector<candidate<U>>& chosen) {
      if (!sorted)
        std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.position < b.position; });
      for (std::size_t j = 0; j < chosen.size(); ++j) {
        out[s * k + std::int64_t(j)] = in[chosen[j].position];
        if (out_values) out_values[s * k + std::int64_t(j)] = values[chosen[j].position];
      }
    };
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads) if (threads > 1)
    for (std::int64_t s = 0; s < segments; ++s) {
      const std::int64_t begin = offsets[s], length = offsets[s + 1] - begin;
      const std::int64_t m = std::min(k, length);
      if (m == 0 || parts_of(length) >= 2) continue;
      std::vector<candidate<U>> chosen = m * partial_sort_ratio <= length
                                          ? smallest_in_one_read(in, begin, length, m, image_of)
                                          : smallest_by_selection(in, begin, length, m, sorted, image_of);
      write(s, chosen);
    }
    for (std::int64_t s = 0; s < segments; ++s) {
      const std::int64_t begin = offsets[s], length = offsets[s + 1] - begin;
      if (parts_of(length) < 2) continue;
      std::vector<candidate<U>> chosen =
          smallest_by_parts(in, begin, length, std::min(k, length), parts_of(length), sorted, image_of);
      write(s, chosen);
    }
  });
}

#define PARPRIM_INSTANTIATE(U, W)                                                           \
  template void segmented_top_k<U, W>(const context&, const U*, const W*,                     \
                                      const std::int64_t*, std::int64_t, std::int64_t, U*, W*, \
                                      detail::key_kind, bool, bool);
PARPRIM_INSTANTIATE(std::uint32_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint32_t, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
