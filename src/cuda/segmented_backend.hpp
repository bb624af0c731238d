// The CUDA backend's chunked segmented_reduce (kernels/segmented_reduce.cuh), plain C++: for
// long segments and skewed mixes of them, where the runs engine leaves bandwidth unused and
// one block per segment would wait on the longest. Offsets are absolute positions
// into `in`, already checked; [first, last) is the range they cover.
#pragma once

#include <cstdint>

#include "cuda/tuning/segmented_tuning.hpp"
#include "parprim/context.hpp"
#include "parprim/cuda/tuning/segment_blocks_tuning.hpp"
#include "parprim/cuda/tuning/segment_warps_tuning.hpp"
#include "parprim/ops.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

// Segments averaging min_average or more, unless they suit one warp or one block per
// segment (segment_warps_tuning::chosen, segment_blocks_tuning::chosen: no segment long
// enough to keep one warp or block busy alone); those go to the runs engine's entry, which
// picks the warp or block kernel (parprim/cuda/segmented.cuh).
inline bool prefers_chunked_reduce(std::int64_t covered, std::int64_t segments,
                                   std::int64_t longest) {
  return segments > 0 &&
         covered / segments >= cuda_tuning::segmented_reduce_tuning::min_average &&
         !cuda_tuning::segment_warps_tuning::chosen(covered, segments, longest) &&
         !cuda_tuning::segment_blocks_tuning::chosen(covered, segments, longest);
}

template <class T>
void segmented_reduce_chunked(const context& ctx, const T* in, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t first, std::int64_t last,
                              T* out, T init, op o, workspace* ws);

}  // namespace parprim::cuda_backend
