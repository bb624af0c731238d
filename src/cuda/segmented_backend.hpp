// The CUDA backend's chunked segmented_reduce (kernels/segmented_reduce.cuh), plain C++: for
// long segments, where the runs engine leaves bandwidth unused. Offsets are absolute positions
// into `in`, already checked; [first, last) is the range they cover.
#pragma once

#include <cstdint>

#include "cuda/tuning/segmented_tuning.hpp"
#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

inline bool prefers_chunked_reduce(std::int64_t covered, std::int64_t segments) {
  return segments > 0 && covered / segments >= cuda_tuning::segmented_reduce_tuning::min_average;
}

template <class T>
void segmented_reduce_chunked(const context& ctx, const T* in, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t first, std::int64_t last,
                              T* out, T init, op o, workspace* ws);

}  // namespace parprim::cuda_backend
