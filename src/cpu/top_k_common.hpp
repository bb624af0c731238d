// What the CPU top_k (top_k.cpp) and segmented_top_k (segmented_top_k.cpp) share: the
// selection-image map of the keys, the scan for the rare elements a selection wants, and the
// (image, position) pair they rank.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "core/sort_keys.hpp"

namespace parprim::cpu_backend::top_k_detail {

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

// Elements sought by a pass are often rare (candidates, elements still in play), so each run
// of `scan_chunk` elements is first counted with a loop the compiler vectorizes (no branch, no
// store), and only a run with a hit is walked again, calling found(i, image) for each hit in
// order. On 2 cores at 2^24 f32 the walk with a branch per element took about 8 ms.
constexpr std::int64_t scan_chunk = 64;

// When most of a run was wanted, the next run is walked without counting it first: keys that
// keep improving (ascending keys with the largest asked) are wanted everywhere, and there the
// count only doubled the reads.
template <class U, class ImageOf, class Wanted, class Found>
void for_each_wanted(const U* in, std::int64_t begin, std::int64_t end, ImageOf image_of,
                     Wanted wanted, Found found) {
  bool dense = false;  // most of the last run walked was wanted
  for (std::int64_t first = begin; first < end; first += scan_chunk) {
    const std::int64_t last = std::min(end, first + scan_chunk);
    if (!dense) {
      unsigned hits = 0;
      for (std::int64_t i = first; i < last; ++i) hits += wanted(image_of(in[i]));
      if (hits == 0) continue;
    }
    std::int64_t walked_hits = 0;
    for (std::int64_t i = first; i < last; ++i) {
      const U image = image_of(in[i]);
      if (wanted(image)) {
        found(i, image);
        ++walked_hits;
      }
    }
    dense = 2 * walked_hits > last - first;
  }
}

// An element by its selection image and position: distinct pairs in a total order, the
// earlier position first among equal images (the contract's tie rule).
template <class U>
struct candidate {
  U image;
  std::int64_t position;
  bool operator<(const candidate& o) const {
    return image != o.image ? image < o.image : position < o.position;
  }
};

}  // namespace parprim::cpu_backend::top_k_detail
