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

// top_k by segmented_top_k's chunked select over one segment (kernels/segmented_top_k.cu),
// in the order asked (sorted or input order); false, doing nothing, where it is not the faster
// path (k > 32 or n above its bar). K the key type itself, W the value word.
template <class K, class W>
bool top_k_by_chunks(const context& ctx, const K* in, const W* values, std::int64_t n, std::int64_t k,
                     K* out, W* out_values, bool largest, bool sorted, workspace* ws);

// top_k on at most 4096 elements by an argsort (kernels/segmented_top_k.cu), in the order
// asked; false, doing nothing, for more elements.
template <class K, class W>
bool top_k_by_argsort(const context& ctx, const K* in, const W* values, std::int64_t n, std::int64_t k,
                      K* out, W* out_values, bool largest, bool sorted, workspace* ws);

// Segmented (kernels/segmented_top_k.cu): K the key type itself (the per-segment sort needs
// its order), W the value word. Offsets are checked; [first, last) is the range they cover.
template <class K, class W>
void segmented_top_k(const context& ctx, const K* in, const W* values,
                     const std::int64_t* offsets, std::int64_t segments, std::int64_t first,
                     std::int64_t last, std::int64_t k, K* out, W* out_values, bool largest,
                     bool sorted, workspace* ws);

}  // namespace parprim::cuda_backend
