// The CUDA backend's entry points for lower_bound / upper_bound and merge (plain C++), on raw
// key words (U = u32 or u64; W = the value word, values may be null). Stream-ordered; merge
// registers a deferred check that raises errc::invalid_argument at ctx.synchronize() when the
// kernel met an unsorted pair.
#pragma once

#include <cstdint>

#include "core/merge_path.hpp"
#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

template <class U>
void search(const context& ctx, const U* sorted, std::int64_t n, const U* queries,
            std::int64_t m, std::int64_t* out, detail::key_order<U> ord, bool upper);

template <class U, class W>
void merge(const context& ctx, const U* a, const W* a_values, std::int64_t na, const U* b,
           const W* b_values, std::int64_t nb, U* out, W* out_values, detail::key_order<U> ord,
           const char* who, const char* a_name, const char* b_name, workspace* ws);

}  // namespace parprim::cuda_backend
