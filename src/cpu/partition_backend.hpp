// The OpenMP backend's copy_if/partition with the built-in predicates, and its split. Front ends call these after
// validating arguments (n > 0, sizes and options checked).
#pragma once

#include <cstdint>

#include "core/partition_functors.hpp"
#include "parprim/detail/select_mode.hpp"
#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim::cpu_backend {

// detail::cpu::select (parprim/detail/cpu/partition.hpp) with the predicate's compare chosen
// once per call; returns the count.
template <class T>
std::int64_t select(const context& ctx, span<const T> in, span<T> out,
                    const detail::predicate_eval<T>& pred, detail::select_mode mode);

// Stable split into f.buckets buckets; bucket_offsets (null or buckets + 1 values) receives
// the first position of each bucket, then n.
template <class T>
void split(const context& ctx, span<const T> in, span<T> out, const detail::bucket_eval& f,
           std::int64_t* bucket_offsets);

}  // namespace parprim::cpu_backend
