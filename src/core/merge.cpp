// Front ends of merge and merge_by_key: validate (on the CPU, sortedness too), then merge raw
// key words compared in radix_sort's order.
#include "parprim/merge.hpp"

#include <string>

#include "parprim/detail/validate.hpp"
#include "cpu/search_merge_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/search_merge_backend.hpp"
#endif

namespace parprim {

namespace {

// The entry point and the parameter names its messages use for the key spans.
struct merge_names {
  const char* function;
  const char* a;
  const char* b;
  const char* out;
  const char* sum;  // for the size check of the output
};
constexpr merge_names keys_only{"merge", "a", "b", "out", "a.size() + b"};
constexpr merge_names keys_of_pairs{"merge_by_key", "a_keys", "b_keys", "keys_out", "a_keys.size() + b_keys"};

template <class K, class V>
void merge_front_end(const merge_names& names, const context& ctx, span<const K> a, const V* a_values,
                     span<const K> b, const V* b_values, span<K> out, V* out_values,
                     sort_order order, workspace* ws) {
  const char* name = names.function;
  detail::checker c(ctx, name);
  c.valid(a, names.a);
  c.valid(b, names.b);
  c.valid(out, names.out);
  c.same_size(a.size() + b.size(), names.sum, out.size(), names.out);
  c.no_overlap(a, names.a, out, names.out, false);
  c.no_overlap(b, names.b, out, names.out, false);
  c.known_option(order, sort_order::descending, "order");
  c.own_workspace(ws);
  if (out.size() == 0) return;
  using U = detail::key_word_t<K>;
  using W = detail::key_word_t<V>;
  const detail::key_order<U> ord{detail::kind_of<K>(), order == sort_order::descending};
  auto* ak = reinterpret_cast<const U*>(a.data());
  auto* bk = reinterpret_cast<const U*>(b.data());
  auto* av = reinterpret_cast<const W*>(a_values);
  auto* bv = reinterpret_cast<const W*>(b_values);
  auto* ok = reinterpret_cast<U*>(out.data());
  auto* ov = reinterpret_cast<W*>(out_values);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::merge(ctx, ak, av, a.size(), bk, bv, b.size(), ok, ov, ord, name, names.a,
                               names.b, ws);
#endif
  const std::int64_t bad = cpu_backend::first_unsorted(ctx, ak, a.size(), bk, b.size(), ord);
  if (bad >= 0) {
    const bool in_a = bad < a.size();
    const std::int64_t p = in_a ? bad : bad - a.size();
    c.fail(std::string(in_a ? names.a : names.b) + " is not sorted (" + to_string(order) + "): element " +
           std::to_string(p + 1) + " comes before element " + std::to_string(p));
  }
  cpu_backend::merge(ctx, ak, av, a.size(), bk, bv, b.size(), ok, ov, ord);
}

}  // namespace

template <class T>
void merge(const context& ctx, span<const T> a, span<const T> b, span<T> out, sort_order order,
           workspace* ws) {
  merge_front_end<T, T>(keys_only, ctx, a, nullptr, b, nullptr, out, nullptr, order, ws);
}

template <class K, class V>
void merge_by_key(const context& ctx, span<const K> a_keys, span<const V> a_values,
                  span<const K> b_keys, span<const V> b_values, span<K> keys_out,
                  span<V> values_out, sort_order order, workspace* ws) {
  detail::checker c(ctx, "merge_by_key");
  c.valid(a_values, "a_values");
  c.valid(b_values, "b_values");
  c.valid(values_out, "values_out");
  c.same_size(a_keys.size(), "a_keys", a_values.size(), "a_values");
  c.same_size(b_keys.size(), "b_keys", b_values.size(), "b_values");
  c.same_size(keys_out.size(), "keys_out", values_out.size(), "values_out");
  c.no_overlap(a_values, "a_values", values_out, "values_out", false);
  c.no_overlap(b_values, "b_values", values_out, "values_out", false);
  c.no_overlap(keys_out, "keys_out", values_out, "values_out", false);
  c.no_overlap(a_keys, "a_keys", values_out, "values_out", false);
  c.no_overlap(b_keys, "b_keys", values_out, "values_out", false);
  merge_front_end<K, V>(keys_of_pairs, ctx, a_keys, a_values.data(), b_keys, b_values.data(),
                        keys_out, values_out.data(), order, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                           \
  template void merge_by_key<K, V>(const context&, span<const K>, span<const V>, span<const K>, \
                                   span<const V>, span<K>, span<V>, sort_order, workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                \
  template void merge<K>(const context&, span<const K>, span<const K>, span<K>, sort_order,  \
                         workspace*);                                                         \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_KV, K)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim
