// Precompiled unique, unique_by_key, unique_count and run_length_encode: the checks of the
// generic front ends, then the generic bodies with == (see runs_precompiled.hpp).
#include "parprim/unique.hpp"

#include "core/runs_precompiled.hpp"
#include "parprim/types.hpp"

namespace parprim::detail {

template <class K>
std::int64_t unique_precompiled(const context& ctx, span<const K> in, span<K> out, workspace* ws) {
  checker c(ctx, "unique");
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  runs_io<K, no_value> io;
  io.n = in.size();
  io.keys = in.data();
  io.keys_out = out.data();
  run_outputs outs;
  outs.name[0] = "out";
  outs.size[0] = out.size();
  io.capacity = outs.capacity();
  return run_precompiled<runs_kind::heads>(c, io, op::plus, outs, ws);
}

template <class K, class V>
std::int64_t unique_by_key_precompiled(const context& ctx, span<const K> keys,
                                       span<const V> values, span<K> keys_out,
                                       span<V> values_out, workspace* ws) {
  checker c(ctx, "unique_by_key");
  check_pairs_in_out(c, keys, values, keys_out, values_out);
  const auto [io, outs] = pairs_job_of(keys, values, keys_out, values_out);
  return run_precompiled<runs_kind::heads>(c, io, op::plus, outs, ws);
}

template <class K>
std::int64_t unique_count_precompiled(const context& ctx, span<const K> in, workspace* ws) {
  checker c(ctx, "unique_count");
  c.valid(in, "in");
  runs_io<K, no_value> io;
  io.n = in.size();
  io.keys = in.data();
  return run_precompiled<runs_kind::heads>(c, io, op::plus, run_outputs{},
                                                           ws);
}

template <class K>
std::int64_t run_length_encode_precompiled(const context& ctx, span<const K> in,
                                           span<K> unique_out, span<std::int64_t> lengths,
                                           workspace* ws) {
  checker c(ctx, "run_length_encode");
  c.valid(in, "in");
  c.valid(unique_out, "unique_out");
  c.valid(lengths, "lengths");
  c.no_overlap(in, "in", unique_out, "unique_out", false);
  c.no_overlap(in, "in", lengths, "lengths", false);
  c.no_overlap(unique_out, "unique_out", lengths, "lengths", false);
  // Lengths are 64-bit whatever n is: a run may be longer than 2^32 elements.
  runs_io<K, std::int64_t> io;
  io.n = in.size();
  io.keys = in.data();
  io.keys_out = unique_out.data();
  io.values_out = lengths.data();
  run_outputs outs;
  outs.name[0] = "unique_out";
  outs.size[0] = unique_out.size();
  outs.name[1] = "lengths";
  outs.size[1] = lengths.size();
  io.capacity = outs.capacity();
  return run_precompiled<runs_kind::lengths>(c, io, op::plus, outs, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                       \
  template std::int64_t unique_by_key_precompiled<K, V>(const context&, span<const K>,     \
                                                        span<const V>, span<K>, span<V>,   \
                                                        workspace*);
#define PARPRIM_INSTANTIATE(K)                                                                 \
  template std::int64_t unique_precompiled<K>(const context&, span<const K>, span<K>,          \
                                              workspace*);                                     \
  template std::int64_t unique_count_precompiled<K>(const context&, span<const K>, workspace*); \
  template std::int64_t run_length_encode_precompiled<K>(const context&, span<const K>,        \
                                                         span<K>, span<std::int64_t>,          \
                                                         workspace*);                          \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_KV, K)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim::detail
