// The OpenMP loop behind the header-side parallel layer (parprim/detail/cpu/parallel.hpp).
#include "parprim/detail/cpu/parallel.hpp"

#include <algorithm>

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
#pragma omp parallel for schedule(static, 1) num_threads(t) if (t > 1)
  for (std::int64_t b = 0; b < blocks; ++b) body(state, b, b * block, std::min(n, (b + 1) * block));
}

}  // namespace parprim::detail::cpu
