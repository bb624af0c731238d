// CPU side of the distributed algorithms' element-wise steps (core/dist_local.hpp).
#include "core/dist_local.hpp"

#include <algorithm>
#include <cstring>

#include "parprim/detail/op_functors.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o) {
  detail::with_op<T>(o, [&](auto f) {
    T* x = data.data();
    parallel_for(ctx, data.size(), [&](std::int64_t i) { x[i] = f(prefix, x[i]); });
  });
}

template <class K>
void count_at_most(const context&, span<const K> sorted, detail::key_order order,
                   const std::vector<std::uint64_t>& bounds, std::vector<std::int64_t>& counts) {
  using U = detail::key_word_t<K>;
  const K* first = sorted.data();
  const K* last = first + sorted.size();
  for (std::size_t j = 0; j < bounds.size(); ++j) {
    const K* p = std::partition_point(first, last, [&](const K& k) {
      U raw;
      std::memcpy(&raw, &k, sizeof(K));
      return detail::order_field(raw, order) <= bounds[j];
    });
    counts[j] = p - first;
  }
}

void iota(const context& ctx, span<std::int64_t> out) {
  std::int64_t* y = out.data();
  parallel_for(ctx, out.size(), [&](std::int64_t i) { y[i] = i; });
}

#define PARPRIM_INSTANTIATE(T)                                                            \
  template void apply_prefix<T>(const context&, span<T>, T, op);                          \
  template void count_at_most<T>(const context&, span<const T>, detail::key_order,        \
                                 const std::vector<std::uint64_t>&, std::vector<std::int64_t>&);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
