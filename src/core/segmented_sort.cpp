// Front end of segmented_sort and segmented_sort_pairs: validate (offsets included), erase the
// key and value types to raw words (core/sort_keys.hpp), then dispatch to the backend.
#include "parprim/segmented_sort.hpp"

#include <string>

#include "core/sort_keys.hpp"
#include "cpu/segmented_sort_backend.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runs_backend.hpp"
#include "cuda/segmented_sort_backend.hpp"
#endif

namespace parprim {

namespace {

// The first offset that is negative, beyond n, or followed by a smaller one, else -1. Offsets
// live on the context's backend; CUDA checks them with a kernel.
std::int64_t first_bad_offset([[maybe_unused]] const context& ctx, span<const std::int64_t> offsets,
                              std::int64_t n) {
  const std::int64_t segments = offsets.size() - 1;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::check_offsets(ctx, offsets.data(), segments, n).bad;
#endif
  const std::int64_t* o = offsets.data();
  for (std::int64_t s = 0; s <= segments; ++s)
    if (o[s] < 0 || o[s] > n || (s < segments && o[s + 1] < o[s])) return s;
  return -1;
}

template <class K>
detail::sort_request check_segmented_sort(const detail::checker& c, span<K> keys,
                                          span<const std::int64_t> offsets, sort_order order,
                                          workspace* ws) {
  c.valid(keys, "keys");
  c.valid(offsets, "offsets");
  c.known_option(order, sort_order::descending, "order");
  c.own_workspace(ws);
  if (offsets.size() < 1) c.fail("offsets.size()=0 but must be segments + 1 >= 1");
  c.no_overlap(keys, "keys", offsets, "offsets", /*allow_same=*/false);
  detail::sort_request r;
  r.keys = keys.data();
  r.n = keys.size();
  r.key_bytes = int(sizeof(K));
  r.kind = detail::kind_of<K>();
  r.descending = order == sort_order::descending;
  r.begin_bit = 0;
  r.end_bit = int(sizeof(K) * 8);
  return r;
}

// Offsets are checked last, once every cheap check has passed: on CUDA it waits for the device.
void check_offsets_and_dispatch(const detail::checker& c, const detail::sort_request& r,
                                span<const std::int64_t> offsets, workspace* ws) {
  const std::int64_t bad = first_bad_offset(c.ctx(), offsets, r.n);
  if (bad >= 0)
    c.fail("offsets[" + std::to_string(bad) + "] or offsets[" + std::to_string(bad + 1) +
           "] is outside [0, " + std::to_string(r.n) + "] or the offsets decrease there");
  const std::int64_t segments = offsets.size() - 1;
  if (segments == 0 || r.n == 0) return;
#if PARPRIM_HAVE_CUDA
  if (c.ctx().kind() == backend::cuda)
    return cuda_backend::segmented_sort(c.ctx(), r, offsets.data(), segments, ws);
#endif
  cpu_backend::segmented_sort(c.ctx(), r, offsets.data(), segments, ws);
}

}  // namespace

template <class K>
void segmented_sort(const context& ctx, span<K> keys, span<const std::int64_t> offsets,
                    sort_order order, workspace* ws) {
  detail::checker c(ctx, "segmented_sort");
  auto r = check_segmented_sort(c, keys, offsets, order, ws);
  check_offsets_and_dispatch(c, r, offsets, ws);
}

template <class K, class V>
void segmented_sort_pairs(const context& ctx, span<K> keys, span<V> values,
                          span<const std::int64_t> offsets, sort_order order, workspace* ws) {
  static_assert(sizeof(V) == sizeof(K), "values have the width of the keys");
  detail::checker c(ctx, "segmented_sort_pairs");
  c.valid(values, "values");
  c.same_size(keys.size(), "keys", values.size(), "values");
  auto r = check_segmented_sort(c, keys, offsets, order, ws);
  c.no_overlap(keys, "keys", values, "values", /*allow_same=*/false);
  c.no_overlap(values, "values", offsets, "offsets", /*allow_same=*/false);
  r.values = values.data();
  r.value_bytes = int(sizeof(V));
  check_offsets_and_dispatch(c, r, offsets, ws);
}

#define PARPRIM_INSTANTIATE_PAIRS(K, V)                                                      \
  template void segmented_sort_pairs<K, V>(const context&, span<K>, span<V>,                \
                                           span<const std::int64_t>, sort_order, workspace*);
#define PARPRIM_INSTANTIATE_4(K)                                                             \
  template void segmented_sort<K>(const context&, span<K>, span<const std::int64_t>,        \
                                  sort_order, workspace*);                                   \
  PARPRIM_INSTANTIATE_PAIRS(K, std::int32_t)                                                 \
  PARPRIM_INSTANTIATE_PAIRS(K, std::uint32_t)                                                \
  PARPRIM_INSTANTIATE_PAIRS(K, float)
#define PARPRIM_INSTANTIATE_8(K)                                                             \
  template void segmented_sort<K>(const context&, span<K>, span<const std::int64_t>,        \
                                  sort_order, workspace*);                                   \
  PARPRIM_INSTANTIATE_PAIRS(K, std::int64_t)                                                 \
  PARPRIM_INSTANTIATE_PAIRS(K, std::uint64_t)                                                \
  PARPRIM_INSTANTIATE_PAIRS(K, double)
PARPRIM_INSTANTIATE_4(std::int32_t)
PARPRIM_INSTANTIATE_4(std::uint32_t)
PARPRIM_INSTANTIATE_4(float)
PARPRIM_INSTANTIATE_8(std::int64_t)
PARPRIM_INSTANTIATE_8(std::uint64_t)
PARPRIM_INSTANTIATE_8(double)
#undef PARPRIM_INSTANTIATE_4
#undef PARPRIM_INSTANTIATE_8
#undef PARPRIM_INSTANTIATE_PAIRS

}  // namespace parprim
