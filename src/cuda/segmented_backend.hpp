// The CUDA backend's chunked segmented_reduce (kernels/segmented_reduce.cuh), plain C++: for
// long segments and skewed mixes of them, where the runs engine leaves bandwidth unused and
// one block per segment would wait on the longest. Offsets are absolute positions
// into `in`, already checked; [first, last) is the range they cover. Also the warp or block
// kernel queued behind the offsets check before its verdict is known.
#pragma once

#include <cstdint>

#include "cuda/tuning/segmented_tuning.hpp"
#include "parprim/context.hpp"
#include "parprim/cuda/tuning/segment_paths.hpp"
#include "parprim/ops.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

// Segments averaging min_average or more, unless they suit one warp or one block per
// segment (cuda_tuning::per_segment_path: no segment long enough to keep one warp or block
// busy alone); those go to the warp or block kernel.
inline bool prefers_chunked_reduce(std::int64_t covered, std::int64_t segments,
                                   std::int64_t longest) {
  return segments > 0 &&
         covered / segments >= cuda_tuning::segmented_reduce_tuning::min_average &&
         cuda_tuning::per_segment_path(covered, segments, longest) ==
             cuda_tuning::segment_path::neither;
}

// Queues, behind the offsets check whose published verdict words are `verdict`, the warp or
// block kernel that cuda_tuning::speculated_path(n, segments) picks for `in` (n elements), gated
// on the verdict: it writes out only where the offsets are good and per_segment_path of their
// true figures picks the same kernel. Returns the path queued (neither: nothing queued).
template <class T>
cuda_tuning::segment_path segmented_reduce_speculated(const context& ctx, const T* in,
                                                      std::int64_t n,
                                                      const std::int64_t* offsets,
                                                      std::int64_t segments, T* out, T init,
                                                      op o, const unsigned long long* verdict);

template <class T>
void segmented_reduce_chunked(const context& ctx, const T* in, const std::int64_t* offsets,
                              std::int64_t segments, std::int64_t first, std::int64_t last,
                              T* out, T init, op o, workspace* ws);

}  // namespace parprim::cuda_backend
