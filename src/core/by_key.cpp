// Front ends of reduce_by_key, inclusive_scan_by_key and exclusive_scan_by_key: validate,
// then run one runs_job (src/core/runs_job.hpp) on the context's backend.
#include "parprim/by_key.hpp"

#include "core/runs_dispatch.hpp"
#include "parprim/types.hpp"

namespace parprim {

template <class K, class V>
std::int64_t reduce_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, op o, workspace* ws) {
  detail::checker c(ctx, "reduce_by_key");
  detail::check_pairs_in_out(c, keys, values, keys_out, values_out);
  c.known_option(o, op::max, "op");
  detail::check_workspace(c, ws);
  if (keys.size() == 0) return 0;
  detail::runs_job<K, V> job;
  job.n = keys.size();
  job.keys = keys.data();
  job.values = values.data();
  job.o = o;
  job.keys_out = keys_out.data();
  job.reduced_out = values_out.data();
  auto fits_keys = detail::capacity_check(c, keys_out.size(), "keys_out");
  auto fits_values = detail::capacity_check(c, values_out.size(), "values_out");
  job.check_runs = [&](std::int64_t runs) {
    fits_keys(runs);
    fits_values(runs);
  };
  return detail::run_job(ctx, job, ws);
}

template <class K, class V>
static void scan_by_key(const char* name, const context& ctx, span<const K> keys,
                        span<const V> values, span<V> out, bool inclusive, V init, op o,
                        workspace* ws) {
  detail::checker c(ctx, name);
  c.valid(keys, "keys");
  c.valid(values, "values");
  c.valid(out, "out");
  c.same_size(keys.size(), "keys", values.size(), "values");
  c.same_size(values.size(), "values", out.size(), "out");
  c.no_overlap(values, "values", out, "out", true);
  c.no_overlap(keys, "keys", out, "out", false);
  c.known_option(o, op::max, "op");
  detail::check_workspace(c, ws);
  if (keys.size() == 0) return;
  detail::runs_job<K, V> job;
  job.n = keys.size();
  job.keys = keys.data();
  job.values = values.data();
  job.o = o;
  job.has_init = !inclusive;
  job.init = init;
  job.scan_out = out.data();
  job.inclusive = inclusive;
  detail::run_job(ctx, job, ws);
}

template <class K, class V>
void inclusive_scan_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<V> out, op o, workspace* ws) {
  scan_by_key("inclusive_scan_by_key", ctx, keys, values, out, true, V{}, o, ws);
}

template <class K, class V>
void exclusive_scan_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<V> out, V init, op o, workspace* ws) {
  scan_by_key("exclusive_scan_by_key", ctx, keys, values, out, false, init, o, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                           \
  template std::int64_t reduce_by_key<K, V>(const context&, span<const K>, span<const V>,      \
                                            span<K>, span<V>, op, workspace*);                 \
  template void inclusive_scan_by_key<K, V>(const context&, span<const K>, span<const V>,      \
                                            span<V>, op, workspace*);                          \
  template void exclusive_scan_by_key<K, V>(const context&, span<const K>, span<const V>,      \
                                            span<V>, V, op, workspace*);
#define PARPRIM_INSTANTIATE(K)              \
  PARPRIM_INSTANTIATE_KV(K, std::int32_t)   \
  PARPRIM_INSTANTIATE_KV(K, std::uint32_t)  \
  PARPRIM_INSTANTIATE_KV(K, std::int64_t)   \
  PARPRIM_INSTANTIATE_KV(K, std::uint64_t)  \
  PARPRIM_INSTANTIATE_KV(K, float)          \
  PARPRIM_INSTANTIATE_KV(K, double)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim
