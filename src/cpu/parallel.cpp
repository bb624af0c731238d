// The OpenMP loop behind the header-side parallel layer (parprim/detail/cpu/parallel.hpp).
#include "parprim/detail/cpu/parallel.hpp"

#include "cpu/parallel.hpp"

namespace parprim::detail::cpu {

void run_blocks(const context& ctx, std::int64_t n, std::int64_t block, block_body body,
                void* state) {
  cpu_backend::blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    body(state, b, begin, end);
  });
}

}  // namespace parprim::detail::cpu
