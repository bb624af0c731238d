// Merge path (Green, McColl & Bader, "GPU Merge Path", 2012) for a caller's comparator, on the
// host and the device: merge_sort, merge and the CUDA partition kernels
// (parprim/cuda/detail/merge_path_warp.cuh). Kept apart from merge_sort.hpp, which includes the
// CUDA bodies under nvcc, so that those can include it.
#pragma once

#include <cstdint>

#include "parprim/detail/op_functors.hpp"  // PARPRIM_HD

namespace parprim::merge_detail {

// How many of the first `diag` outputs of the stable merge of a[0, na) and b[0, nb) come from
// a (ties take a first).
template <class T, class Comp>
PARPRIM_HD std::int64_t merge_path(const T* a, std::int64_t na, const T* b, std::int64_t nb,
                                   std::int64_t diag, Comp comp) {
  std::int64_t lo = diag > nb ? diag - nb : 0;
  std::int64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (!comp(b[diag - 1 - mid], a[mid])) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace parprim::merge_detail
