// The OpenMP backend's segmented sort. Keys (and values, of the same width) arrive as raw 4- or
// 8-byte words (core/sort_keys.hpp); the front end has validated the offsets, S >= 1, n >= 1.
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cpu_backend {

void segmented_sort(const context& ctx, const detail::sort_request& r,
                    const std::int64_t* offsets, std::int64_t segments, workspace* ws);

}  // namespace parprim::cpu_backend
