// Front end of counting_sort and counting_sort_pairs: validate, then dispatch.
#include "parprim/counting_sort.hpp"

#include <limits>

#include "core/bad_position.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/gather_scatter_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/gather_scatter_backend.hpp"
#endif

namespace parprim {

namespace {
template <class K, class V>
void counting_sort_front_end(const char* name, const context& ctx, span<const K> keys_in,
                             span<const V> values_in, span<K> keys_out, span<V> values_out,
                             bool with_values, std::int64_t key_range, K min_key) {
  detail::checker c(ctx, name);
  c.valid(keys_in, "keys_in");
  c.valid(keys_out, "keys_out");
  c.same_size(keys_in.size(), "keys_in", keys_out.size(), "keys_out");
  c.no_overlap(keys_in, "keys_in", keys_out, "keys_out", false);
  if (with_values) {
    c.valid(values_in, "values_in");
    c.valid(values_out, "values_out");
    c.same_size(keys_in.size(), "keys_in", values_in.size(), "values_in");
    c.same_size(keys_in.size(), "keys_in", values_out.size(), "values_out");
    c.no_overlap(values_in, "values_in", values_out, "values_out", false);
    c.no_overlap(keys_in, "keys_in", values_out, "values_out", false);
    c.no_overlap(values_in, "values_in", keys_out, "keys_out", false);
    c.no_overlap(keys_out, "keys_out", values_out, "values_out", false);
  }
  if (key_range < 1 || key_range > max_counting_sort_range)
    c.fail("key_range=" + std::to_string(key_range) + " is outside [1, " +
           std::to_string(max_counting_sort_range) + "] (radix_sort serves wider keys)");
  const long long last = static_cast<long long>(min_key) + key_range - 1;
  if (last > static_cast<long long>(std::numeric_limits<K>::max()))
    c.fail("min_key=" + std::to_string(static_cast<long long>(min_key)) + " plus key_range=" +
           std::to_string(key_range) + " goes past the largest key");
  if (keys_in.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::counting_sort(ctx, keys_in, values_in, keys_out, values_out, key_range,
                                       min_key);
#endif
  std::int64_t bad = cpu_backend::first_key_outside(ctx, keys_in, min_key, key_range);
  if (bad >= 0)
    c.fail(detail::bad_key_what(bad, static_cast<long long>(min_key), key_range), errc::out_of_range);
  cpu_backend::counting_sort(ctx, keys_in, values_in, keys_out, values_out, key_range, min_key);
}
}  // namespace

template <class K>
void counting_sort(const context& ctx, span<const K> keys_in, span<K> keys_out,
                   std::int64_t key_range, K min_key) {
  counting_sort_front_end<K, K>("counting_sort", ctx, keys_in, span<const K>(), keys_out,
                                span<K>(), false, key_range, min_key);
}

template <class K, class V>
void counting_sort_pairs(const context& ctx, span<const K> keys_in, span<const V> values_in,
                         span<K> keys_out, span<V> values_out, std::int64_t key_range,
                         K min_key) {
  counting_sort_front_end<K, V>("counting_sort_pairs", ctx, keys_in, values_in, keys_out,
                                values_out, true, key_range, min_key);
}

#define PARPRIM_INSTANTIATE_PAIRS(K, V)                                                       \
  template void counting_sort_pairs<K, V>(const context&, span<const K>, span<const V>,       \
                                          span<K>, span<V>, std::int64_t, K);
#define PARPRIM_INSTANTIATE_PAIRS_I32(V) PARPRIM_INSTANTIATE_PAIRS(std::int32_t, V)
#define PARPRIM_INSTANTIATE_PAIRS_U32(V) PARPRIM_INSTANTIATE_PAIRS(std::uint32_t, V)
template void counting_sort<std::int32_t>(const context&, span<const std::int32_t>,
                                          span<std::int32_t>, std::int64_t, std::int32_t);
template void counting_sort<std::uint32_t>(const context&, span<const std::uint32_t>,
                                           span<std::uint32_t>, std::int64_t, std::uint32_t);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE_PAIRS_I32)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE_PAIRS_U32)
#undef PARPRIM_INSTANTIATE_PAIRS_U32
#undef PARPRIM_INSTANTIATE_PAIRS_I32
#undef PARPRIM_INSTANTIATE_PAIRS

}  // namespace parprim
