// The front-end half shared by the generic and the precompiled by-key, unique and run-length
// entry points: argument checks, and one call of a body with the run count checked against
// the outputs indexed by run afterwards.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/by_key.hpp"
#include "parprim/detail/runs.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/workspace.hpp"

namespace parprim::detail {

// Primitives that read (keys, values) and write one (key, value) per run: four valid spans,
// equal input sizes, and no output overlapping an input or the other output.
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

// The scans by key: out may alias values exactly (in place).
template <class K, class V>
void check_scan_by_key(checker& c, span<const K> keys, span<const V> values, span<V> out) {
  c.valid(keys, "keys");
  c.valid(values, "values");
  c.valid(out, "out");
  c.same_size(keys.size(), "keys", values.size(), "values");
  c.same_size(values.size(), "values", out.size(), "out");
  c.no_overlap(values, "values", out, "out", true);
  c.no_overlap(keys, "keys", out, "out", false);
}

// Up to two outputs indexed by run, by name and size (name null: absent).
struct run_outputs {
  const char* name[2] = {nullptr, nullptr};
  std::int64_t size[2] = {0, 0};
  std::int64_t capacity() const {
    std::int64_t c = INT64_MAX;
    for (int i = 0; i < 2; ++i)
      if (name[i] && size[i] < c) c = size[i];
    return c;
  }
};

// The job of a call that reads (keys, values) and writes one key and one value per run: the
// inputs and outputs, and both outputs named for the size check after the run.
template <class K, class V>
struct pairs_job {
  runs_io<K, V> io;
  run_outputs outs;
};

template <class K, class V>
pairs_job<K, V> pairs_job_of(span<const K> keys, span<const V> values, span<K> keys_out,
                             span<V> values_out) {
  pairs_job<K, V> job;
  job.io.n = keys.size();
  job.io.keys = keys.data();
  job.io.values = values.data();
  job.io.keys_out = keys_out.data();
  job.io.values_out = values_out.data();
  job.outs.name[0] = "keys_out";
  job.outs.size[0] = keys_out.size();
  job.outs.name[1] = "values_out";
  job.outs.size[1] = values_out.size();
  job.io.capacity = job.outs.capacity();
  return job;
}

// Runs the call on the context's backend (`cuda` runs it on a CUDA context and returns the
// run count); then fails when an output indexed by run is too small. The bodies never write
// past io.capacity, so such an output then holds the first size() runs.
template <runs_kind Kind, class K, class V, class Eq, class Op, class Cuda>
std::int64_t run_runs(const checker& c, const runs_io<K, V>& io, Eq eq, Op op,
                      const run_outputs& outs, Cuda&& cuda) {
  if (io.n == 0) return 0;
  const std::int64_t runs =
      c.ctx().kind() == backend::cuda ? cuda() : cpu::runs<Kind>(c.ctx(), io, eq, op);
  if constexpr (Kind != runs_kind::scan) {
    for (int i = 0; i < 2; ++i)
      if (outs.name[i] && runs > outs.size[i])
        c.fail(std::string(outs.name[i]) + ".size()=" + std::to_string(outs.size[i]) +
               " but the input has " + std::to_string(runs) + " runs");
  }
  return runs;
}

// Keys are only compared for equality; under ==, integers compare equal exactly when their
// bits do, so the precompiled entry points run signed keys as their unsigned type.
template <class K>
using equality_key_t = std::conditional_t<std::is_same_v<K, std::int32_t>, std::uint32_t,
                       std::conditional_t<std::is_same_v<K, std::int64_t>, std::uint64_t, K>>;

// The same call with keys retyped as C and values as W, each of its own size (same bits).
template <class C, class W, class K, class V>
runs_io<C, W> retype(const runs_io<K, V>& io) {
  static_assert(sizeof(C) == sizeof(K) && sizeof(W) == sizeof(V), "the same bits");
  runs_io<C, W> r;
  r.n = io.n;
  r.keys = reinterpret_cast<const C*>(io.keys);
  r.values = reinterpret_cast<const W*>(io.values);
  r.keys_out = reinterpret_cast<C*>(io.keys_out);
  r.values_out = reinterpret_cast<W*>(io.values_out);
  r.capacity = io.capacity;
  r.inclusive = io.inclusive;
  std::memcpy(&r.init, &io.init, sizeof(W));
  return r;
}

template <class C, class K, class V>
runs_io<C, V> rekey(const runs_io<K, V>& io) {
  return retype<C, V>(io);
}

// The precompiled entry points run values through a few word types.
template <class W, class K, class V>
runs_io<K, W> revalue(const runs_io<K, V>& io) {
  return retype<K, W>(io);
}

}  // namespace parprim::detail
