// One device word per call that records the lowest out-of-range position a kernel met, and
// the deferred check that reports it at the context's next synchronize().
//
//   auto* word = cuda_rt::arm_bad_position(ctx, "gather");   // all ones: nothing found yet
//   kernel<<<...>>>(..., word);                               // atomicMin(word, i) on a bad i
//   cuda_rt::defer_bad_position(ctx, word, [=](std::int64_t pos) {
//     return parprim::error(errc::out_of_range, "...indices[" + ... + "]...");
//   });
//
// The word is carved from the context's caching allocator and goes back to it when the
// check has run (or has been dropped because an earlier check threw).
#pragma once

#include <cstdint>
#include <functional>

#include "parprim/context.hpp"
#include "parprim/error.hpp"

namespace parprim::cuda_rt {

inline constexpr unsigned long long no_bad_position = ~0ull;

unsigned long long* arm_bad_position(const context& ctx, const char* who);

void defer_bad_position(const context& ctx, unsigned long long* word,
                        std::function<error(std::int64_t)> make_error);

}  // namespace parprim::cuda_rt
