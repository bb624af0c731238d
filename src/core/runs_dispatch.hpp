// Front-end helpers shared by by_key.cpp, unique.cpp and segmented.cpp: key types mapped to
// the few the engines are compiled for, and the dispatch of a runs_job to a backend.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "core/runs_job.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/runs_backend.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runs_backend.hpp"
#endif

namespace parprim::detail {

// Keys are only compared for equality, which for integers is equality of their bits: signed
// keys run as their unsigned type, so the engines are compiled for u32 u64 f32 f64 only.
template <class K>
using equality_key_t = std::conditional_t<std::is_same_v<K, std::int32_t>, std::uint32_t,
                       std::conditional_t<std::is_same_v<K, std::int64_t>, std::uint64_t, K>>;

template <class C, class K, class V>
runs_job<C, V> rekey(const runs_job<K, V>& j) {
  runs_job<C, V> r;
  r.n = j.n;
  r.keys = reinterpret_cast<const C*>(j.keys);
  r.flags = j.flags;
  r.offsets = j.offsets;
  r.segments = j.segments;
  r.values = j.values;
  r.o = j.o;
  r.has_init = j.has_init;
  r.init = j.init;
  r.keys_out = reinterpret_cast<C*>(j.keys_out);
  r.head_values_source = j.head_values_source;
  r.head_values_out = j.head_values_out;
  r.reduced_out = j.reduced_out;
  r.lengths_out = j.lengths_out;
  r.scan_out = j.scan_out;
  r.inclusive = j.inclusive;
  r.by_segment = j.by_segment;
  r.check_runs = j.check_runs;
  return r;
}

// Runs the job on ctx's backend; returns the number of runs.
template <class K, class V>
std::int64_t run_job(const context& ctx, const runs_job<K, V>& job, workspace* ws) {
  auto j = rekey<equality_key_t<K>>(job);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::runs(ctx, j, ws);
#endif
  (void)ws;
  return cpu_backend::runs(ctx, j);
}

// A check_runs that fails when R exceeds the size of an output indexed by run.
inline auto capacity_check(const checker& c, std::int64_t capacity, const char* what) {
  return [&c, capacity, what](std::int64_t runs) {
    if (runs > capacity)
      c.fail(std::string(what) + ".size()=" + std::to_string(capacity) + " but the input has " +
             std::to_string(runs) + " runs");
  };
}

inline void check_workspace(const checker& c, workspace* ws) {
  if (ws && &ws->ctx().state() != &c.ctx().state()) c.fail("workspace belongs to another context");
}

// The argument checks shared by the primitives that read (keys, values) and write one
// (key, value) per run: four valid spans, equal input sizes, and no output overlapping an
// input or the other output.
template <class K, class V>
void check_pairs_in_out(checker& c, span<const K> keys, span<const V> values, span<K> keys_out,
                        span<V> values_out) {
  c.valid(keys, "keys");
  c.valid(values, "values");
  c.valid(keys_out, "keys_out");
  c.valid(values_out, "values_out");
  c.same_size(keys.size(), "keys", values.size(), "values");
  c.no_overlap(keys, "keys", keys_out, "keys_out", false);
  c.no_overlap(keys, "keys", values_out, "values_out", false);
  c.no_overlap(values, "values", keys_out, "keys_out", false);
  c.no_overlap(values, "values", values_out, "values_out", false);
  c.no_overlap(keys_out, "keys_out", values_out, "values_out", false);
}

}  // namespace parprim::detail
