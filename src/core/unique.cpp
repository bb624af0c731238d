// Front ends of unique, unique_by_key, unique_count and run_length_encode: validate, then run
// one runs_job (src/core/runs_job.hpp) with keys as the head source and nothing folded.
#include "parprim/unique.hpp"

#include "core/runs_dispatch.hpp"
#include "parprim/types.hpp"

namespace parprim {

// Values are never folded here; u32 stands in for "no value type".
using no_value = std::uint32_t;

template <class K>
std::int64_t unique(const context& ctx, span<const K> in, span<K> out, workspace* ws) {
  detail::checker c(ctx, "unique");
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  detail::check_workspace(c, ws);
  if (in.size() == 0) return 0;
  detail::runs_job<K, no_value> job;
  job.n = in.size();
  job.keys = in.data();
  job.keys_out = out.data();
  job.check_runs = detail::capacity_check(c, out.size(), "out");
  return detail::run_job(ctx, job, ws);
}

template <class K, class V>
std::int64_t unique_by_key(const context& ctx, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out, workspace* ws) {
  detail::checker c(ctx, "unique_by_key");
  detail::check_pairs_in_out(c, keys, values, keys_out, values_out);
  detail::check_workspace(c, ws);
  if (keys.size() == 0) return 0;
  detail::runs_job<K, V> job;
  job.n = keys.size();
  job.keys = keys.data();
  job.keys_out = keys_out.data();
  job.head_values_out = values_out.data();
  auto fits_keys = detail::capacity_check(c, keys_out.size(), "keys_out");
  auto fits_values = detail::capacity_check(c, values_out.size(), "values_out");
  job.check_runs = [&](std::int64_t runs) {
    fits_keys(runs);
    fits_values(runs);
  };
  // The values are only copied: the engine reads them at heads, never folds them.
  job.values = nullptr;
  job.head_values_source = values.data();
  return detail::run_job(ctx, job, ws);
}

template <class K>
std::int64_t unique_count(const context& ctx, span<const K> in, workspace* ws) {
  detail::checker c(ctx, "unique_count");
  c.valid(in, "in");
  detail::check_workspace(c, ws);
  if (in.size() == 0) return 0;
  detail::runs_job<K, no_value> job;
  job.n = in.size();
  job.keys = in.data();
  job.check_runs = [](std::int64_t) {};  // asks for the count, writes nothing
  return detail::run_job(ctx, job, ws);
}

template <class K>
std::int64_t run_length_encode(const context& ctx, span<const K> in, span<K> unique_out,
                               span<std::int64_t> lengths, workspace* ws) {
  detail::checker c(ctx, "run_length_encode");
  c.valid(in, "in");
  c.valid(unique_out, "unique_out");
  c.valid(lengths, "lengths");
  c.no_overlap(in, "in", unique_out, "unique_out", false);
  c.no_overlap(in, "in", lengths, "lengths", false);
  c.no_overlap(unique_out, "unique_out", lengths, "lengths", false);
  detail::check_workspace(c, ws);
  if (in.size() == 0) return 0;
  detail::runs_job<K, no_value> job;
  job.n = in.size();
  job.keys = in.data();
  job.keys_out = unique_out.data();
  job.lengths_out = lengths.data();
  auto fits_keys = detail::capacity_check(c, unique_out.size(), "unique_out");
  auto fits_lengths = detail::capacity_check(c, lengths.size(), "lengths");
  job.check_runs = [&](std::int64_t runs) {
    fits_keys(runs);
    fits_lengths(runs);
  };
  return detail::run_job(ctx, job, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                        \
  template std::int64_t unique_by_key<K, V>(const context&, span<const K>, span<const V>,   \
                                            span<K>, span<V>, workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                \
  template std::int64_t unique<K>(const context&, span<const K>, span<K>, workspace*);        \
  template std::int64_t unique_count<K>(const context&, span<const K>, workspace*);           \
  template std::int64_t run_length_encode<K>(const context&, span<const K>, span<K>,          \
                                             span<std::int64_t>, workspace*);                 \
  PARPRIM_INSTANTIATE_KV(K, std::int32_t)                                                     \
  PARPRIM_INSTANTIATE_KV(K, std::uint32_t)                                                    \
  PARPRIM_INSTANTIATE_KV(K, std::int64_t)                                                     \
  PARPRIM_INSTANTIATE_KV(K, std::uint64_t)                                                    \
  PARPRIM_INSTANTIATE_KV(K, float)                                                            \
  PARPRIM_INSTANTIATE_KV(K, double)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim
