// Sequential oracles for histogram (even bins) and counting sort.
//
// Integer bins are computed with 128-bit arithmetic straight from the definition
// floor((s - lower) * bins / (upper - lower)); float bins with the formula the library
// documents, min(bins - 1, floor((s - lower) * (T(bins) / (upper - lower)))) in T.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace parprim::reference {

template <class T>
std::vector<std::uint64_t> histogram_even(const std::vector<T>& samples, std::int64_t bins,
                                          T lower, T upper) {
  std::vector<std::uint64_t> h(static_cast<std::size_t>(bins), 0);
  for (T s : samples) {
    if (!(s >= lower && s < upper)) continue;
    std::int64_t b;
    if constexpr (std::is_floating_point_v<T>) {
      T scale = static_cast<T>(bins) / (upper - lower);
      T x = (s - lower) * scale;
      b = static_cast<std::int64_t>(x);
      if (b >= bins) b = bins - 1;
    } else {
      __int128 d = static_cast<__int128>(s) - static_cast<__int128>(lower);
      __int128 r = static_cast<__int128>(upper) - static_cast<__int128>(lower);
      b = static_cast<std::int64_t>(static_cast<unsigned __int128>(d) * static_cast<unsigned __int128>(bins) /
                                    static_cast<unsigned __int128>(r));
    }
    ++h[static_cast<std::size_t>(b)];
  }
  return h;
}

// Stable sort of (key, value) pairs by key: the output order of equal keys is their input
// order. Keys must be in [min_key, min_key + range).
template <class K, class V>
void counting_sort_pairs(const std::vector<K>& keys, const std::vector<V>& values,
                         std::int64_t range, K min_key, std::vector<K>& keys_out,
                         std::vector<V>& values_out) {
  std::vector<std::int64_t> start(static_cast<std::size_t>(range) + 1, 0);
  for (K k : keys) ++start[static_cast<std::size_t>(std::int64_t(k) - std::int64_t(min_key)) + 1];
  for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
  keys_out.resize(keys.size());
  values_out.resize(values.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    auto& p = start[static_cast<std::size_t>(std::int64_t(keys[i]) - std::int64_t(min_key))];
    keys_out[static_cast<std::size_t>(p)] = keys[i];
    if (!values.empty()) values_out[static_cast<std::size_t>(p)] = values[i];
    ++p;
  }
}

}  // namespace parprim::reference
