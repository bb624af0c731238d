// Front ends of top_k and top_k_pairs: validate, select the k elements in input order on the
// backend (radix select on raw key words), then sort those k when asked to.
#include "parprim/top_k.hpp"

#include <string>

#include "parprim/detail/validate.hpp"
#include "cpu/top_k_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/top_k_backend.hpp"
#endif

namespace parprim {

namespace {

template <class K, class V>
void select_front_end(const detail::checker& c, span<const K> in, const V* values,
                      std::int64_t k, span<K> out, V* out_values, sort_order order,
                      workspace* ws) {
  const context& ctx = c.ctx();
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  c.known_option(order, sort_order::descending, "order");
  if (ws && &ws->ctx().state() != &ctx.state()) c.fail("workspace belongs to another context");
  if (k < 1 || k > in.size())
    c.fail("k=" + std::to_string(k) + " is outside [1, in.size()=" + std::to_string(in.size()) + "]");
  if (out.size() != k) c.fail("out.size()=" + std::to_string(out.size()) + " but k=" + std::to_string(k));
  using U = detail::key_word_t<K>;
  using W = detail::key_word_t<V>;
  auto* x = reinterpret_cast<const U*>(in.data());
  auto* xv = reinterpret_cast<const W*>(values);
  auto* o = reinterpret_cast<U*>(out.data());
  auto* ov = reinterpret_cast<W*>(out_values);
  const bool largest = order == sort_order::descending;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::top_k(ctx, x, xv, in.size(), k, o, ov, detail::kind_of<K>(), largest, ws);
#endif
  cpu_backend::top_k(ctx, x, xv, in.size(), k, o, ov, detail::kind_of<K>(), largest);
}

}  // namespace

template <class T>
void top_k(const context& ctx, span<const T> in, std::int64_t k, span<T> out, sort_order order,
           bool sorted, workspace* ws) {
  detail::checker c(ctx, "top_k");
  select_front_end<T, T>(c, in, nullptr, k, out, nullptr, order, ws);
  if (sorted) radix_sort<T>(ctx, out, order, 0, -1, sort_algorithm::onesweep, ws);
}

template <class K, class V>
void top_k_pairs(const context& ctx, span<const K> keys, span<const V> values, std::int64_t k,
                 span<K> keys_out, span<V> values_out, sort_order order, bool sorted,
                 workspace* ws) {
  detail::checker c(ctx, "top_k_pairs");
  c.valid(values, "values");
  c.valid(values_out, "values_out");
  c.same_size(keys.size(), "keys", values.size(), "values");
  c.same_size(keys_out.size(), "keys_out", values_out.size(), "values_out");
  c.no_overlap(values, "values", values_out, "values_out", false);
  c.no_overlap(keys, "keys", values_out, "values_out", false);
  c.no_overlap(keys_out, "keys_out", values_out, "values_out", false);
  select_front_end<K, V>(c, keys, values.data(), k, keys_out, values_out.data(), order, ws);
  if (sorted) radix_sort_pairs<K, V>(ctx, keys_out, values_out, order, 0, -1, sort_algorithm::onesweep, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                          \
  template void top_k_pairs<K, V>(const context&, span<const K>, span<const V>, std::int64_t, \
                                  span<K>, span<V>, sort_order, bool, workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                    \
  template void top_k<K>(const context&, span<const K>, std::int64_t, span<K>, sort_order, bool, \
                         workspace*);                                                             \
  PARPRIM_INSTANTIATE_KV(K, std::int32_t)                                                         \
  PARPRIM_INSTANTIATE_KV(K, std::uint32_t)                                                        \
  PARPRIM_INSTANTIATE_KV(K, std::int64_t)                                                         \
  PARPRIM_INSTANTIATE_KV(K, std::uint64_t)                                                        \
  PARPRIM_INSTANTIATE_KV(K, float)                                                                \
  PARPRIM_INSTANTIATE_KV(K, double)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim
