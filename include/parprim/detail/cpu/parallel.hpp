// The CPU backend's parallel loop as seen from header code: one call per fixed-size block,
// run on the library's OpenMP threads. The loop itself is compiled into the library
// (src/cpu/parallel.cpp), so a caller's file needs no OpenMP flags; the caller's body is
// reached through one indirect call per block (blocks are tens of thousands of elements).
//
// Blocks depend on n and `block` only, never on the thread count: algorithms that combine
// per-block results in block order are bitwise reproducible on any number of threads.
#pragma once

#include <cstdint>
#include <type_traits>

#include "parprim/context.hpp"

#if defined(_OPENMP)
#define PARPRIM_SIMD _Pragma("omp simd")
#else
#define PARPRIM_SIMD
#endif

namespace parprim::detail::cpu {

using block_body = void (*)(void* state, std::int64_t b, std::int64_t begin, std::int64_t end);

// Calls body(state, b, b * block, min(n, (b + 1) * block)) for every block b, in parallel.
void run_blocks(const context& ctx, std::int64_t n, std::int64_t block, block_body body,
                void* state);

inline std::int64_t block_count(std::int64_t n, std::int64_t block) {
  return (n + block - 1) / block;
}

template <class F>
void blocked_for(const context& ctx, std::int64_t n, std::int64_t block, F&& f) {
  using Fn = std::remove_reference_t<F>;
  run_blocks(
      ctx, n, block,
      [](void* state, std::int64_t b, std::int64_t begin, std::int64_t end) {
        (*static_cast<Fn*>(state))(b, begin, end);
      },
      const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace parprim::detail::cpu
