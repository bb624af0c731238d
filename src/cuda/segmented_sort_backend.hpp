// The CUDA backend's segmented sort, in plain C++ for the front end. Keys (and values, of the
// same width) arrive as raw 4- or 8-byte words (core/sort_keys.hpp); the offsets have been
// validated, S >= 1 and n >= 1.
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

void segmented_sort(const context& ctx, const detail::sort_request& r,
                    const std::int64_t* offsets, std::int64_t segments, workspace* ws);

}  // namespace parprim::cuda_backend
