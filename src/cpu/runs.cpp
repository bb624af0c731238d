// The CPU body of the segmented primitives (parprim/detail/cpu/segmented.hpp) for every value
// type with the built-in operators (segmented primitives: K = u32).
#include "parprim/detail/cpu/segmented.hpp"

#include "cpu/runs_backend.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

template <class K, class V>
void runs(const context& ctx, const detail::runs_job<K, V>& job) {
  detail::with_op<V>(job.o, [&](auto op) { detail::cpu::segments::run(ctx, job, op); });
}

#define PARPRIM_INSTANTIATE(V) \
  template void runs<std::uint32_t, V>(const context&, const detail::runs_job<std::uint32_t, V>&);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
