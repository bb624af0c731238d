// Sequential oracles for the by-key, unique, run-length and segmented primitives: plain loops
// in element order. Values are combined in their own type with reference::combine (tests use
// integer-valued floats, so every order gives the same result).
#pragma once

#include <cstdint>
#include <vector>

#include "reference/reduce_scan_ref.hpp"

namespace parprim::reference {

// Head flags of runs of equal keys under ==: element 0 and every i with keys[i-1] != keys[i].
template <class K>
std::vector<bool> run_heads(const std::vector<K>& keys) {
  std::vector<bool> h(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) h[i] = i == 0 || !(keys[i - 1] == keys[i]);
  return h;
}

template <class K, class V>
struct by_key_result {
  std::vector<K> keys;
  std::vector<V> values;
};

template <class K, class V>
by_key_result<K, V> reduce_by_key(const std::vector<K>& keys, const std::vector<V>& values, op o) {
  by_key_result<K, V> r;
  auto heads = run_heads(keys);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (heads[i]) {
      r.keys.push_back(keys[i]);
      r.values.push_back(values[i]);
    } else {
      r.values.back() = combine<V>(o, r.values.back(), values[i]);
    }
  }
  return r;
}

// Scan within runs given by head flags; exclusive: init op (fold before i).
template <class V>
std::vector<V> scan_by_heads(const std::vector<bool>& heads, const std::vector<V>& values, op o,
                             bool inclusive, V init) {
  std::vector<V> out(values.size());
  V acc{};
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (heads[i]) acc = inclusive ? values[i] : init;
    else if (inclusive) acc = combine<V>(o, acc, values[i]);
    out[i] = acc;
    if (!inclusive) acc = combine<V>(o, acc, values[i]);
  }
  return out;
}

template <class K>
by_key_result<K, std::int64_t> run_length_encode(const std::vector<K>& keys) {
  by_key_result<K, std::int64_t> r;
  auto heads = run_heads(keys);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (heads[i]) {
      r.keys.push_back(keys[i]);
      r.values.push_back(0);
    }
    ++r.values.back();
  }
  return r;
}

// Segments by offsets: out[s] = init op x[offsets[s]] op ...; empty segments give init.
template <class V>
std::vector<V> segmented_reduce(const std::vector<V>& x, const std::vector<std::int64_t>& offsets,
                                V init, op o) {
  std::vector<V> out;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    V acc = init;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) acc = combine<V>(o, acc, x[i]);
    out.push_back(acc);
  }
  return out;
}

// Segmented scan by offsets; elements outside [offsets[0], offsets.back()) keep `keep`.
template <class V>
std::vector<V> segmented_scan(const std::vector<V>& x, const std::vector<std::int64_t>& offsets,
                              op o, bool inclusive, V init, const std::vector<V>& keep) {
  std::vector<V> out = keep;
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    V acc = init;
    for (std::int64_t i = offsets[s]; i < offsets[s + 1]; ++i) {
      if (inclusive) acc = i == offsets[s] ? x[i] : combine<V>(o, acc, x[i]);
      out[i] = acc;
      if (!inclusive) acc = combine<V>(o, acc, x[i]);
    }
  }
  return out;
}

}  // namespace parprim::reference
