// The CPU backend's whole parallel layer: OpenMP behind two calls.
//
//   parallel_for(ctx, n, f(i))                       one call per index
//   blocked_for(ctx, n, block, f(b, begin, end))     one call per fixed-size block
//
// blocked_for's blocks depend on n and `block` only, never on the thread count: algorithms
// that combine per-block results in block order are therefore bitwise reproducible on any
// number of threads.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>

#include "parprim/context.hpp"

namespace parprim::cpu_backend {

// Below this many elements a call runs on the calling thread and opens no parallel region.
// Measured with `parprim bench reduce --backend cpu` (u32 sums, 2 cores under load,
// OMP_WAIT_POLICY=passive), the plain sequential loop against ours on two threads: 0.0138 vs
// 0.0184 ms at 2^17, 0.027 vs 0.030 ms at 2^18, 0.121 vs 0.105 ms at 2^20; waking the second
// thread costs about as much as a sequential pass over 2^17 elements. More threads pay off
// sooner, so the cutoff sits at 2^18. Results do not depend on it: blocked_for's blocks
// depend on n and the block size only. Under a spinning wait policy a region on a loaded
// machine costs whole scheduler ticks (32 ms for 2^18 elements), which is why the parprim
// program waits passively (apps/cli/main.cpp).
inline constexpr std::int64_t serial_cutoff = 1 << 18;

inline int workers_for(const context& ctx, std::int64_t work) {
  return work < serial_cutoff ? 1 : std::max(1, ctx.threads());
}

template <class F>
void parallel_for(const context& ctx, std::int64_t n, F&& f) {
  int t = workers_for(ctx, n);
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
  for (std::int64_t i = 0; i < n; ++i) f(i);
}

inline std::int64_t block_count(std::int64_t n, std::int64_t block) {
  return (n + block - 1) / block;
}

template <class F>
void blocked_for(const context& ctx, std::int64_t n, std::int64_t block, F&& f) {
  std::int64_t blocks = block_count(n, block);
  int t = workers_for(ctx, n);
#pragma omp parallel for schedule(static) num_threads(t) if (t > 1)
  for (std::int64_t b = 0; b < blocks; ++b) f(b, b * block, std::min(n, (b + 1) * block));
}

}  // namespace parprim::cpu_backend
