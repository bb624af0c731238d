// The CPU runs engine (src/cpu/runs.hpp) for every key and value type, with `==` and the
// built-in operators.
#include "cpu/runs.hpp"

#include "cpu/runs_backend.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

template <class K, class V>
std::int64_t runs(const context& ctx, const detail::runs_job<K, V>& job) {
  auto equal = [](const K& a, const K& b) { return a == b; };
  return detail::with_op<V>(job.o, [&](auto op) { return runs_engine::run(ctx, job, equal, op); });
}

#define PARPRIM_INSTANTIATE_KV(K, V) \
  template std::int64_t runs<K, V>(const context&, const detail::runs_job<K, V>&);
#define PARPRIM_INSTANTIATE(V)                   \
  PARPRIM_INSTANTIATE_KV(std::uint32_t, V)       \
  PARPRIM_INSTANTIATE_KV(std::uint64_t, V)       \
  PARPRIM_INSTANTIATE_KV(float, V)               \
  PARPRIM_INSTANTIATE_KV(double, V)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim::cpu_backend
