// Precompiled unique, unique_by_key, unique_count and run_length_encode and their _into
// forms (one entry point each, `to` saying where the count goes): the checks of the generic
// front ends, then the generic bodies with == (see runs_precompiled.hpp).
#include "parprim/unique.hpp"

#include "core/runs_precompiled.hpp"
#include "parprim/types.hpp"

namespace parprim::detail {

template <class K>
std::int64_t unique_precompiled(const context& ctx, span<const K> in, span<K> out,
                                count_target to, workspace* ws) {
  checker c(ctx, to.into ? "unique_into" : "unique");
  auto job = unique_call(c, in, out);
  target_count(c, to, "in", job);
  return run_precompiled<runs_kind::heads>(c, job.io, op::plus, job.outs, ws);
}

template <class K, class V>
std::int64_t unique_by_key_precompiled(const context& ctx, span<const K> keys,
                                       span<const V> values, span<K> keys_out,
                                       span<V> values_out, count_target to, workspace* ws) {
  checker c(ctx, to.into ? "unique_by_key_into" : "unique_by_key");
  auto job = pairs_call(c, keys, values, keys_out, values_out);
  target_count(c, to, "keys", job);
  return run_precompiled<runs_kind::heads>(c, job.io, op::plus, job.outs, ws);
}

template <class K>
std::int64_t unique_count_precompiled(const context& ctx, span<const K> in, count_target to,
                                      workspace* ws) {
  checker c(ctx, to.into ? "unique_count_into" : "unique_count");
  auto job = unique_count_call(c, in);
  target_count(c, to, "in", job);
  return run_precompiled<runs_kind::heads>(c, job.io, op::plus, job.outs, ws);
}

template <class K>
std::int64_t run_length_encode_precompiled(const context& ctx, span<const K> in,
                                           span<K> unique_out, span<std::int64_t> lengths,
                                           count_target to, workspace* ws) {
  checker c(ctx, to.into ? "run_length_encode_into" : "run_length_encode");
  auto job = lengths_call(c, in, unique_out, lengths);
  target_count(c, to, "in", job);
  return run_precompiled<runs_kind::lengths>(c, job.io, op::plus, job.outs, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                         \
  template std::int64_t unique_by_key_precompiled<K, V>(const context&, span<const K>,       \
                                                        span<const V>, span<K>, span<V>,     \
                                                        count_target, workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                 \
  template std::int64_t unique_precompiled<K>(const context&, span<const K>, span<K>,          \
                                              count_target, workspace*);                       \
  template std::int64_t unique_count_precompiled<K>(const context&, span<const K>,             \
                                                    count_target, workspace*);                 \
  template std::int64_t run_length_encode_precompiled<K>(const context&, span<const K>,        \
                                                         span<K>, span<std::int64_t>,          \
                                                         count_target, workspace*);            \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_KV, K)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim::detail
