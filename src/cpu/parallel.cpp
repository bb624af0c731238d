// The OpenMP loop behind the header-side parallel layer (parprim/detail/cpu/parallel.hpp).
#include "parprim/detail/cpu/parallel.hpp"

#include <algorithm>
#include <atomic>

#include "cpu/parallel.hpp"

namespace parprim::detail::cpu {

void run_blocks(const context& ctx, std::int64_t n, std::int64_t block, block_body body,
                void* state) {
  cpu_backend::blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    body(state, b, begin, end);
  });
}

void run_blocks_in_order(const context& ctx, std::int64_t n, std::int64_t block, block_body body,
                         void* state) {
  const std::int64_t blocks = block_count(n, block);
  const int t = cpu_backend::workers_for(ctx, n);
  // Blocks are taken from one counter, so they start in increasing order whoever runs them.
  // A fixed round-robin deal (schedule(static, 1)) ran the chain at the pace of the slowest
  // thread: on the GPU machine's shared 16-thread host, with one thread descheduled now and
  // then, the chained scan's runs spread from 19 to 47 ms around a 26 ms median at 2^27
  // (bench/results/2026-11-22-cpu16-late.md). From a counter a delayed thread holds up only
  // the block it has, and the others take its share of the rest.
  std::atomic<std::int64_t> next{0};
#pragma omp parallel num_threads(t) if (t > 1)
  for (std::int64_t b = next.fetch_add(1, std::memory_order_relaxed); b < blocks;
       b = next.fetch_add(1, std::memory_order_relaxed))
    body(state, b, b * block, std::min(n, (b + 1) * block));
}

}  // namespace parprim::detail::cpu
