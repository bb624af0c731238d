// Sequential oracles for gather and scatter: the seed's definitions, one loop each.
//   gather:  R_out[i] = R_in[L[i]]      scatter: R_out[L[i]] = R_in[i]
// Indices must be in range (callers check with first_out_of_range).
#pragma once

#include <cstdint>
#include <vector>

namespace parprim::reference {

template <class T, class I>
std::vector<T> gather(const std::vector<T>& values, const std::vector<I>& indices) {
  std::vector<T> out(indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) out[i] = values[static_cast<std::size_t>(indices[i])];
  return out;
}

// Elements of `out` that no index names keep their previous contents.
template <class T, class I>
void scatter(const std::vector<T>& values, const std::vector<I>& indices, std::vector<T>& out) {
  for (std::size_t i = 0; i < values.size(); ++i) out[static_cast<std::size_t>(indices[i])] = values[i];
}

// The lowest i with indices[i] outside [0, size), or -1.
template <class I>
std::int64_t first_out_of_range(const std::vector<I>& indices, std::int64_t size) {
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i] < 0 || static_cast<std::int64_t>(indices[i]) >= size) return static_cast<std::int64_t>(i);
  return -1;
}

}  // namespace parprim::reference
