// The OpenMP loop behind the header-side parallel layer (parprim/detail/cpu/parallel.hpp).
#include "parprim/detail/cpu/parallel.hpp"

#include <algorithm>
#include <atomic>

#include "cpu/parallel.hpp"

namespace parprim::detail::cpu {

namespace {

// Runs body over blocks [0, blocks) on t threads, each thread taking the next block from one
// counter when it finishes one: blocks start in increasing order whoever runs them, and a
// thread that is descheduled holds up only the block it has while the others take its share
// of the rest. A fixed deal (schedule(static) or round-robin) runs at the pace of the slowest
// thread: on the GPU machine's shared 16-thread host, with a thread descheduled now and then,
// the chained scan under a round-robin deal spread from 19 to 47 ms around a 26 ms median at
// 2^27 (bench/results/2026-11-22-cpu16-late.md). One relaxed atomic per block of 2^15-2^16
// elements costs nothing measurable.
void deal_blocks(int t, std::int64_t n, std::int64_t block, block_body body, void* state) {
  const std::int64_t blocks = block_count(n, block);
  std::atomic<std::int64_t> next{0};
#pragma omp parallel num_threads(t) if (t > 1)
  for (std::int64_t b = next.fetch_add(1, std::memory_order_relaxed); b < blocks;
       b = next.fetch_add(1, std::memory_order_relaxed))
    body(state, b, b * block, std::min(n, (b + 1) * block));
}

}  // namespace

void run_blocks(const context& ctx, std::int64_t n, std::int64_t block, block_body body,
                void* state) {
  deal_blocks(cpu_backend::workers_for(ctx, n), n, block, body, state);
}

}  // namespace parprim::detail::cpu
