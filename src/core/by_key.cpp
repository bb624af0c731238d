// Precompiled reduce_by_key (and reduce_by_key_into), inclusive_scan_by_key and
// exclusive_scan_by_key: the checks of the generic front ends
// (parprim/detail/runs_front.hpp), then the generic bodies with == and the library's
// operators: detail/cpu/by_key.hpp on the CPU, parprim/cuda/by_key.cuh through
// src/cuda/kernels/by_key.cu on CUDA.
#include "parprim/by_key.hpp"

#include "core/runs_precompiled.hpp"
#include "parprim/types.hpp"

namespace parprim {

namespace detail {

template <class K, class V>
std::int64_t reduce_by_key_precompiled(const context& ctx, span<const K> keys,
                                       span<const V> values, span<K> keys_out,
                                       span<V> values_out, count_target to, op o, workspace* ws) {
  checker c(ctx, to.into ? "reduce_by_key_into" : "reduce_by_key");
  auto job = pairs_call(c, keys, values, keys_out, values_out);
  c.known_option(o, op::max, "op");
  target_count(c, to, "keys", job);
  return run_precompiled<runs_kind::reduce>(c, job.io, o, job.outs, ws);
}

template <class K, class V>
void scan_by_key_precompiled(const char* name, const context& ctx, span<const K> keys,
                             span<const V> values, span<V> out, bool inclusive, V init, op o,
                             workspace* ws) {
  checker c(ctx, name);
  check_scan_by_key(c, keys, values, out);
  c.known_option(o, op::max, "op");
  runs_io<K, V> io;
  io.n = keys.size();
  io.keys = keys.data();
  io.values = values.data();
  io.values_out = out.data();
  io.inclusive = inclusive;
  io.init = init;
  run_precompiled<runs_kind::scan>(c, io, o, run_outputs{}, ws);
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                             \
  template std::int64_t reduce_by_key_precompiled<K, V>(const context&, span<const K>,           \
                                                        span<const V>, span<K>, span<V>,         \
                                                        count_target, op, workspace*);           \
  template void scan_by_key_precompiled<K, V>(const char*, const context&, span<const K>,        \
                                              span<const V>, span<V>, bool, V, op, workspace*);
#define PARPRIM_INSTANTIATE(K)              \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_KV, K)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace detail
}  // namespace parprim
