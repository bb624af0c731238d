// Front ends of top_k and top_k_pairs: validate, select the k elements in input order on the
// backend (radix select on raw key words), then sort those k when asked to (small inputs on
// CUDA: the chunked select for k <= 32, an argsort of one tile otherwise, each in the order
// asked). Segmented top-k: validate, then the backend does all of it.
#include "parprim/top_k.hpp"

#include <string>

#include "core/segment_offsets.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/top_k_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/top_k_backend.hpp"
#endif

namespace parprim {

namespace {

// The parameter names that messages give the key spans: in and out for top_k and
// segmented_top_k, keys and keys_out for their pairs forms.
struct key_names {
  const char* in;
  const char* out;
};
constexpr key_names keys_only{"in", "out"};
constexpr key_names keys_of_pairs{"keys", "keys_out"};

// What every top-k entry point checks first: the keys in and out, the order, the workspace.
template <class K>
void check_keys(const detail::checker& c, span<const K> in, span<K> out, key_names names,
                sort_order order, workspace* ws) {
  c.valid(in, names.in);
  c.valid(out, names.out);
  c.no_overlap(in, names.in, out, names.out, false);
  c.known_option(order, sort_order::descending, "order");
  c.own_workspace(ws);
}

// The k chosen elements in input order on the backend (radix select on raw key words), then
// sorted when asked; on CUDA, small inputs take the chunked select of segmented_top_k (k <= 32)
// or an argsort instead, which order them themselves.
template <class K, class V>
void select_front_end(const detail::checker& c, span<const K> in, const V* values,
                      std::int64_t k, span<K> out, V* out_values, key_names names,
                      sort_order order, bool sorted, workspace* ws) {
  const context& ctx = c.ctx();
  check_keys(c, in, out, names, order, ws);
  if (k < 1 || k > in.size())
    c.fail("k=" + std::to_string(k) + " is outside [1, " + names.in + ".size()=" + std::to_string(in.size()) + "]");
  if (out.size() != k)
    c.fail(std::string(names.out) + ".size()=" + std::to_string(out.size()) + " but k=" + std::to_string(k));
  using U = detail::key_word_t<K>;
  using W = detail::key_word_t<V>;
  auto* x = reinterpret_cast<const U*>(in.data());
  auto* xv = reinterpret_cast<const W*>(values);
  auto* o = reinterpret_cast<U*>(out.data());
  auto* ov = reinterpret_cast<W*>(out_values);
  const bool largest = order == sort_order::descending;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    if (cuda_backend::top_k_by_chunks(ctx, in.data(), xv, in.size(), k, out.data(), ov, largest, sorted, ws) ||
        cuda_backend::top_k_by_argsort(ctx, in.data(), xv, in.size(), k, out.data(), ov, largest, sorted, ws))
      return;
    cuda_backend::top_k(ctx, x, xv, in.size(), k, o, ov, detail::kind_of<K>(), largest, ws);
  } else
#endif
  {
    cpu_backend::top_k(ctx, x, xv, in.size(), k, o, ov, detail::kind_of<K>(), largest);
  }
  if (!sorted) return;
  if (out_values)
    radix_sort_pairs<K, V>(ctx, out, span<V>(out_values, k), order, 0, -1, sort_algorithm::onesweep, ws);
  else
    radix_sort<K>(ctx, out, order, 0, -1, sort_algorithm::onesweep, ws);
}

// The values of the _pairs entry points: one per key on each side, and apart from every other
// span (the keys are checked by the front ends).
template <class K, class V>
void check_values(const detail::checker& c, span<const K> keys, span<const V> values,
                  span<K> keys_out, span<V> values_out) {
  c.valid(values, "values");
  c.valid(values_out, "values_out");
  c.same_size(keys.size(), "keys", values.size(), "values");
  c.same_size(keys_out.size(), "keys_out", values_out.size(), "values_out");
  c.no_overlap(values, "values", values_out, "values_out", false);
  c.no_overlap(keys, "keys", values_out, "values_out", false);
  c.no_overlap(keys_out, "keys_out", values_out, "values_out", false);
}

// Segmented: validate (offsets included), then each backend's segmented top-k.
template <class K, class V>
void segmented_front_end(const detail::checker& c, span<const K> in, const V* values,
                         span<const std::int64_t> offsets, std::int64_t k, span<K> out,
                         V* out_values, key_names names, sort_order order, bool sorted,
                         workspace* ws) {
  const context& ctx = c.ctx();
  check_keys(c, in, out, names, order, ws);
  if (k < 1) c.fail("k=" + std::to_string(k) + " but must be >= 1");
  const std::int64_t segments = offsets.size() - 1;
  if (offsets.size() >= 1 && (out.size() % k != 0 || out.size() / k != segments))
    c.fail(std::string(names.out) + ".size()=" + std::to_string(out.size()) + " but offsets.size()=" +
           std::to_string(offsets.size()) + " describes " + std::to_string(segments) +
           " segments of k=" + std::to_string(k) + " slots");
  const detail::covered range = detail::check_offsets(c, offsets, in.size());
  if (segments == 0) return;
  const bool largest = order == sort_order::descending;
  using U = detail::key_word_t<K>;
  using W = detail::key_word_t<V>;
  auto* xv = reinterpret_cast<const W*>(values);
  auto* ov = reinterpret_cast<W*>(out_values);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    if (sizeof(K) == 4 && range.last > (std::int64_t(1) << 32))
      c.fail("offsets[S]=" + std::to_string(range.last) + " but 4-byte keys take positions below 2^32 on CUDA");
    return cuda_backend::segmented_top_k(ctx, in.data(), xv, offsets.data(), segments, range.first,
                                         range.last, k, out.data(), ov, largest, sorted, ws);
  }
#endif
  (void)range;
  cpu_backend::segmented_top_k(ctx, reinterpret_cast<const U*>(in.data()), xv, offsets.data(), segments, k,
                               reinterpret_cast<U*>(out.data()), ov, detail::kind_of<K>(), largest, sorted);
}

}  // namespace

template <class T>
void segmented_top_k(const context& ctx, span<const T> in, span<const std::int64_t> offsets,
                     std::int64_t k, span<T> out, sort_order order, bool sorted, workspace* ws) {
  detail::checker c(ctx, "segmented_top_k");
  segmented_front_end<T, T>(c, in, nullptr, offsets, k, out, nullptr, keys_only, order, sorted, ws);
}

template <class K, class V>
void segmented_top_k_pairs(const context& ctx, span<const K> keys, span<const V> values,
                           span<const std::int64_t> offsets, std::int64_t k, span<K> keys_out,
                           span<V> values_out, sort_order order, bool sorted, workspace* ws) {
  detail::checker c(ctx, "segmented_top_k_pairs");
  check_values(c, keys, values, keys_out, values_out);
  segmented_front_end<K, V>(c, keys, values.data(), offsets, k, keys_out, values_out.data(),
                            keys_of_pairs, order, sorted, ws);
}

template <class T>
void top_k(const context& ctx, span<const T> in, std::int64_t k, span<T> out, sort_order order,
           bool sorted, workspace* ws) {
  detail::checker c(ctx, "top_k");
  select_front_end<T, T>(c, in, nullptr, k, out, nullptr, keys_only, order, sorted, ws);
}

template <class K, class V>
void top_k_pairs(const context& ctx, span<const K> keys, span<const V> values, std::int64_t k,
                 span<K> keys_out, span<V> values_out, sort_order order, bool sorted,
                 workspace* ws) {
  detail::checker c(ctx, "top_k_pairs");
  check_values(c, keys, values, keys_out, values_out);
  select_front_end<K, V>(c, keys, values.data(), k, keys_out, values_out.data(), keys_of_pairs,
                         order, sorted, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                          \
  template void top_k_pairs<K, V>(const context&, span<const K>, span<const V>, std::int64_t, \
                                  span<K>, span<V>, sort_order, bool, workspace*);            \
  template void segmented_top_k_pairs<K, V>(const context&, span<const K>, span<const V>,     \
                                            span<const std::int64_t>, std::int64_t, span<K>,  \
                                            span<V>, sort_order, bool, workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                    \
  template void top_k<K>(const context&, span<const K>, std::int64_t, span<K>, sort_order, bool, \
                         workspace*);                                                             \
  template void segmented_top_k<K>(const context&, span<const K>, span<const std::int64_t>,       \
                                   std::int64_t, span<K>, sort_order, bool, workspace*);          \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_KV, K)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim
