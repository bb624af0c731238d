// The OpenMP backend's segmented sort: one parallel loop over the segments, each sorted by
// std::stable_sort on its key images (with its values beside them); segments above
// large_segment go to the parallel LSD radix sort one after another, since a single one of
// them would otherwise hold one thread while the others wait at the loop's end.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/segmented_sort_backend.hpp"
#include "cpu/sort_backend.hpp"

namespace parprim::cpu_backend {

namespace {

// Above this many keys a segment is worth a whole parallel radix sort of its own.
constexpr std::int64_t large_segment = 1 << 16;
// Segments handed to a thread at a time: many tiny segments must not cost a schedule each.
constexpr int segments_per_grab = 64;

template <class U>
struct image_and_value {
  U image;
  U value;
};

template <class U>
void sort_one_segment(U* keys, U* values, std::int64_t count, const detail::sort_request& r,
                      std::vector<image_and_value<U>>& scratch) {
  if (count <= 1) return;
  scratch.resize(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    scratch[i] = {detail::ordered_bits(keys[i], r.kind, r.descending), values ? values[i] : U(0)};
  std::stable_sort(scratch.begin(), scratch.end(),
                   [](const image_and_value<U>& a, const image_and_value<U>& b) {
                     return a.image < b.image;
                   });
  for (std::int64_t i = 0; i < count; ++i) {
    keys[i] = detail::original_bits(scratch[i].image, r.kind, r.descending);
    if (values) values[i] = scratch[i].value;
  }
}

template <class U>
void sort_segments(const context& ctx, const detail::sort_request& r,
                   const std::int64_t* offsets, std::int64_t segments, workspace* ws) {
  U* keys = static_cast<U*>(r.keys);
  U* values = static_cast<U*>(r.values);
  const int threads = workers_for(ctx, offsets[segments] - offsets[0]);
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<image_and_value<U>> scratch;
#pragma omp for schedule(dynamic, segments_per_grab)
    for (std::int64_t s = 0; s < segments; ++s) {
      const std::int64_t begin = offsets[s], count = offsets[s + 1] - offsets[s];
      if (count <= large_segment)
        sort_one_segment(keys + begin, values ? values + begin : nullptr, count, r, scratch);
    }
  }
  for (std::int64_t s = 0; s < segments; ++s) {
    const std::int64_t begin = offsets[s], count = offsets[s + 1] - offsets[s];
    if (count <= large_segment) continue;
    detail::sort_request part = r;
    part.keys = keys + begin;
    part.values = values ? values + begin : nullptr;
    part.n = count;
    radix_sort_lsd(ctx, part, ws);
  }
}

}  // namespace

void segmented_sort(const context& ctx, const detail::sort_request& r,
                    const std::int64_t* offsets, std::int64_t segments, workspace* ws) {
  if (r.key_bytes == 4) return sort_segments<std::uint32_t>(ctx, r, offsets, segments, ws);
  sort_segments<std::uint64_t>(ctx, r, offsets, segments, ws);
}

}  // namespace parprim::cpu_backend
