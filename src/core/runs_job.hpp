// One description of the work behind the precompiled segmented primitives (segmented_reduce,
// the segmented scans): the generic job (parprim/detail/segmented.hpp) with the built-in
// operator chosen at run time. Both backends run it with the generic bodies
// (parprim/detail/cpu/segmented.hpp, parprim/cuda/segmented.cuh): a fold of (head count,
// value since the last head, tag of the last head) per tile, a scan of the tile folds, and a
// final pass that writes. (The by-key primitives, and on CUDA the segmented scans, run the
// single-pass body of parprim/cuda/by_key.cuh.)
#pragma once

#include <cstdint>

#include "parprim/detail/segmented.hpp"
#include "parprim/ops.hpp"

namespace parprim::detail {

// The engines do not use K: the segmented front ends spell the job runs_job<u32, V>.
template <class K, class V>
struct runs_job : segments_job<V> {
  op o = op::plus;
};

}  // namespace parprim::detail
