// The CUDA backend's radix sorts, in plain C++ for the front end. Keys arrive as raw 1-, 2-, 4-
// or 8-byte words (core/sort_keys.hpp); sizes, pointers and bit range are validated and n > 1.
// Stream-ordered: nothing waits for the device.
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

// Onesweep LSD radix sort (src/cuda/kernels/radix_sort.cu and its radix_sort_*.cuh).
void radix_sort_onesweep(const context& ctx, const detail::sort_request& r, workspace* ws);
// The same sort with look-back segments of at most `tiles_per_segment` tiles (0: the largest
// the 30-bit look-back counts allow, as radix_sort_onesweep does). Lets tests reach the
// multi-segment path, otherwise taken only from 2^30 keys on, with small inputs.
void radix_sort_onesweep_segmented(const context& ctx, const detail::sort_request& r,
                                   workspace* ws, std::int64_t tiles_per_segment);

// The course's 1-bit split radix sort (src/cuda/kernels/radix_sort_split.cu).
void radix_sort_split_1bit(const context& ctx, const detail::sort_request& r, workspace* ws);

}  // namespace parprim::cuda_backend
