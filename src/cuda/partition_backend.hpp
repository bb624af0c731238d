// The CUDA backend's compaction, partition and split, in plain C++ for the front ends.
// Defined in src/cuda/kernels/partition.cu and split.cu. Stream-ordered: nothing waits.
#pragma once

#include <cstdint>

#include "core/partition_functors.hpp"
#include "parprim/context.hpp"
#include "parprim/detail/select_mode.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

// Selected elements to out[0..count) in order, the rejected ones after them as `mode` says
// (parprim/detail/select_mode.hpp). The count goes to count_device[0] (device memory).
template <class T>
void select(const context& ctx, span<const T> in, span<T> out, detail::predicate_eval<T> pred,
            detail::select_mode mode, std::int64_t* count_device, workspace* ws);

// Stable split; bucket_offsets (device memory, null or f.buckets + 1 values) receives the
// first position of each bucket, then n.
template <class T>
void split(const context& ctx, span<const T> in, span<T> out, const detail::bucket_eval& f,
           std::int64_t* bucket_offsets, workspace* ws);

}  // namespace parprim::cuda_backend
