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

template <class K>
void merge_runs(const context& ctx, span<const K> keys, std::int64_t mid, span<K> out,
                const void* values_in, void* values_out, std::size_t value_bytes,
                detail::key_order order) {
  using U = detail::key_word_t<K>;
  const U* in = reinterpret_cast<const U*>(keys.data());
  U* dst = reinterpret_cast<U*>(out.data());
  const std::int64_t n = keys.size();
  // Stretches large enough that the merge-path search per stretch costs little.
  constexpr std::int64_t stretch = 1 << 12;
  auto merge = [&](auto* vin, auto* vout) {
    blocked_for(ctx, n, stretch, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      detail::merge_stretch(in, mid, n, begin, end - begin, dst, vin, vout, order);
    });
  };
  if (value_bytes == 8)
    merge(static_cast<const std::uint64_t*>(values_in), static_cast<std::uint64_t*>(values_out));
  else if (value_bytes == 4)
    merge(static_cast<const std::uint32_t*>(values_in), static_cast<std::uint32_t*>(values_out));
  else
    merge(static_cast<const std::uint32_t*>(nullptr), static_cast<std::uint32_t*>(nullptr));
}

#define PARPRIM_INSTANTIATE(T)                                                            \
  template void apply_prefix<T>(const context&, span<T>, T, op);                          \
  template void count_at_most<T>(const context&, span<const T>, detail::key_order,        \
                                 const std::vector<std::uint64_t>&, std::vector<std::int64_t>&); \
  template void merge_runs<T>(const context&, span<const T>, std::int64_t, span<T>,          \
                              const void*, void*, std::size_t, detail::key_order);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
