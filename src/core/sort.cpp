// Front end of radix_sort, radix_sort_pairs and argsort: validate, erase the key type to its
// raw word (core/sort_keys.hpp), then dispatch to the backend and algorithm.
#include "parprim/sort.hpp"

#include <limits>
#include <string>

#include "core/sort_keys.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/sort_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/sort_backend.hpp"
#endif

namespace parprim {

const char* to_string(sort_order o) noexcept {
  return o == sort_order::descending ? "descending" : "ascending";
}

const char* to_string(sort_algorithm a) noexcept {
  return a == sort_algorithm::split_1bit ? "split_1bit" : "onesweep";
}

namespace {

// The checks every sort shares; the request without its pointers.
template <class K>
detail::sort_request check_sort(const detail::checker& c, span<const K> keys, sort_order order,
                                int begin_bit, int end_bit, sort_algorithm alg, workspace* ws) {
  c.valid(keys, "keys");
  c.known_option(order, sort_order::descending, "order");
  c.known_option(alg, sort_algorithm::onesweep, "algorithm");
  const int bits = int(sizeof(K) * 8);
  if (begin_bit < 0) c.fail("begin_bit=" + std::to_string(begin_bit) + " is negative");
  if (end_bit != -1 && (end_bit < 0 || end_bit > bits))
    c.fail("end_bit=" + std::to_string(end_bit) + " is outside [0, " + std::to_string(bits) +
           "] for " + detail::key_type_name<K>() + " keys (-1 means all bits)");
  const int end = end_bit == -1 ? bits : end_bit;
  if (begin_bit >= end)
    c.fail("begin_bit=" + std::to_string(begin_bit) + " is not below end_bit=" +
           std::to_string(end) + " for " + detail::key_type_name<K>() + " keys");
  c.own_workspace(ws);
  detail::sort_request r;
  r.n = keys.size();
  r.key_bytes = int(sizeof(K));
  r.kind = detail::kind_of<K>();
  r.descending = order == sort_order::descending;
  r.begin_bit = begin_bit;
  r.end_bit = end;
  return r;
}

void dispatch(const context& ctx, const detail::sort_request& r, sort_algorithm alg,
              workspace* ws) {
  if (r.n <= 1) return;  // nothing to move
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    if (alg == sort_algorithm::split_1bit) return cuda_backend::radix_sort_split_1bit(ctx, r, ws);
    return cuda_backend::radix_sort_onesweep(ctx, r, ws);
  }
#endif
  if (alg == sort_algorithm::split_1bit) return cpu_backend::radix_sort_split_1bit(ctx, r, ws);
  cpu_backend::radix_sort_lsd(ctx, r, ws);
}

}  // namespace

namespace detail {

template <class K>
void radix_sort_keys(const context& ctx, span<K> keys, sort_order order, int begin_bit,
                     int end_bit, sort_algorithm alg, workspace* ws) {
  detail::checker c(ctx, "radix_sort");
  auto r = check_sort<K>(c, keys, order, begin_bit, end_bit, alg, ws);
  r.keys = keys.data();
  dispatch(ctx, r, alg, ws);
}

template <class K, class V>
void radix_sort_keys_values(const context& ctx, span<K> keys, span<V> values, sort_order order,
                            int begin_bit, int end_bit, sort_algorithm alg, workspace* ws) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values are 4- or 8-byte words");
  detail::checker c(ctx, "radix_sort_pairs");
  c.valid(values, "values");
  c.same_size(keys.size(), "keys", values.size(), "values");
  auto r = check_sort<K>(c, keys, order, begin_bit, end_bit, alg, ws);
  c.no_overlap(keys, "keys", values, "values", /*allow_same=*/false);
  r.keys = keys.data();
  r.values = values.data();
  r.value_bytes = int(sizeof(V));
  dispatch(ctx, r, alg, ws);
}

// The sort of a scratch copy of the keys with the indices as values, which the backends make
// themselves (sort_request::argsort_keys). The scratch and then the sort's own temporaries
// are leased from the workspace, one above the other.
template <class K, class I>
void argsort_keys(const context& ctx, span<const K> keys, span<I> indices, sort_order order,
                  int begin_bit, int end_bit, workspace* ws) {
  detail::checker c(ctx, "argsort");
  c.valid(indices, "indices");
  c.same_size(keys.size(), "keys", indices.size(), "indices");
  auto r = check_sort<K>(c, keys, order, begin_bit, end_bit, sort_algorithm::onesweep, ws);
  c.no_overlap(keys, "keys", span<const I>(indices), "indices", /*allow_same=*/false);
  constexpr auto largest = std::uint64_t(std::numeric_limits<I>::max());
  if (keys.size() > 0 && std::uint64_t(keys.size() - 1) > largest)
    c.fail("keys.size()=" + std::to_string(keys.size()) + " has indices past the largest " +
           type_name<I>() + " (" + std::to_string(largest) + ")");
  if (r.n == 0) return;
  if (r.n == 1) return ctx.fill_bytes(indices.data(), 0, sizeof(I));  // index 0
  detail::temp_memory scratch(ctx, ws, detail::align_up(std::size_t(r.n) * sizeof(K)));
  r.argsort_keys = keys.data();
  r.keys = scratch.get();
  r.values = indices.data();
  r.value_bytes = int(sizeof(I));
  dispatch(ctx, r, sort_algorithm::onesweep, ws);
}

#define PARPRIM_INSTANTIATE_ARGSORT(K, I)                                                      \
  template void argsort_keys<K, I>(const context&, span<const K>, span<I>, sort_order, int, int, \
                                   workspace*);
#define PARPRIM_INSTANTIATE_PAIRS(K, V)                                                    \
  template void radix_sort_keys_values<K, V>(const context&, span<K>, span<V>, sort_order, \
                                             int, int, sort_algorithm, workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                \
  template void radix_sort_keys<K>(const context&, span<K>, sort_order, int, int,            \
                                   sort_algorithm, workspace*);                               \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_PAIRS, K)                                    \
  PARPRIM_INSTANTIATE_ARGSORT(K, std::int32_t)                                                \
  PARPRIM_INSTANTIATE_ARGSORT(K, std::uint32_t)                                               \
  PARPRIM_INSTANTIATE_ARGSORT(K, std::int64_t)                                                \
  PARPRIM_INSTANTIATE_ARGSORT(K, std::uint64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
PARPRIM_INSTANTIATE(std::int8_t)
PARPRIM_INSTANTIATE(std::uint8_t)
PARPRIM_INSTANTIATE(std::int16_t)
PARPRIM_INSTANTIATE(std::uint16_t)
PARPRIM_INSTANTIATE(f16)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_PAIRS
#undef PARPRIM_INSTANTIATE_ARGSORT

}  // namespace detail
}  // namespace parprim
