// The CUDA backend's radix select (parprim/top_k.hpp) on raw key words, plain C++: writes the
// k chosen elements in input order, stream-ordered. U = u32 or u64, W = the value word.
#pragma once

#include <cstdint>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest, workspace* ws);

}  // namespace parprim::cuda_backend
