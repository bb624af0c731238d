// The front-end half shared by the generic and the precompiled by-key, unique and run-length
// entry points: argument checks, and one call of a body with the run count checked against
// the outputs indexed by run afterwards (the plain forms) or left on the backend (the _into
// forms, whose outputs are checked up front).
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
void check_pairs_in_out(const checker& c, span<const K> keys, span<const V> values,
                        span<K> keys_out, span<V> values_out) {
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
void check_scan_by_key(const checker& c, span<const K> keys, span<const V> values, span<V> out) {
  c.valid(keys, "keys");
  c.valid(values, "values");
  c.valid(out, "out");
  c.same_size(keys.size(), "keys", values.size(), "values");
  c.same_size(values.size(), "values", out.size(), "out");
  c.no_overlap(values, "values", out, "out", true);
  c.no_overlap(keys, "keys", out, "out", false);
}

// Up to two outputs indexed by run, by name and size (name null: absent). Slot 0 is the
// keys' output (io.keys_out), slot 1 the values' or lengths' (io.values_out).
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

// One checked call: the inputs and outputs, and the outputs indexed by run named for the
// size check.
template <class K, class V>
struct runs_call {
  runs_io<K, V> io;
  run_outputs outs;
};

// The value type of the calls that fold nothing and copy no value.
using no_value = std::uint32_t;

// reduce_by_key, unique_by_key: (keys, values) in, one key and one value per run out.
template <class K, class V>
runs_call<K, V> pairs_call(const checker& c, span<const K> keys, span<const V> values,
                           span<K> keys_out, span<V> values_out) {
  check_pairs_in_out(c, keys, values, keys_out, values_out);
  runs_call<K, V> job;
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

// unique: keys in, the first key of each run out.
template <class K>
runs_call<K, no_value> unique_call(const checker& c, span<const K> in, span<K> out) {
  c.valid(in, "in");
  c.valid(out, "out");
  c.no_overlap(in, "in", out, "out", false);
  runs_call<K, no_value> job;
  job.io.n = in.size();
  job.io.keys = in.data();
  job.io.keys_out = out.data();
  job.outs.name[0] = "out";
  job.outs.size[0] = out.size();
  job.io.capacity = job.outs.capacity();
  return job;
}

// unique_count: keys in, nothing written but the count.
template <class K>
runs_call<K, no_value> unique_count_call(const checker& c, span<const K> in) {
  c.valid(in, "in");
  runs_call<K, no_value> job;
  job.io.n = in.size();
  job.io.keys = in.data();
  return job;
}

// run_length_encode: keys in, the first key and the length of each run out. Lengths are
// 64-bit whatever n is: a run may be longer than 2^32 elements.
template <class K>
runs_call<K, std::int64_t> lengths_call(const checker& c, span<const K> in, span<K> unique_out,
                                        span<std::int64_t> lengths) {
  c.valid(in, "in");
  c.valid(unique_out, "unique_out");
  c.valid(lengths, "lengths");
  c.no_overlap(in, "in", unique_out, "unique_out", false);
  c.no_overlap(in, "in", lengths, "lengths", false);
  c.no_overlap(unique_out, "unique_out", lengths, "lengths", false);
  runs_call<K, std::int64_t> job;
  job.io.n = in.size();
  job.io.keys = in.data();
  job.io.keys_out = unique_out.data();
  job.io.values_out = lengths.data();
  job.outs.name[0] = "unique_out";
  job.outs.size[0] = unique_out.size();
  job.outs.name[1] = "lengths";
  job.outs.size[1] = lengths.size();
  job.io.capacity = job.outs.capacity();
  return job;
}

// Where a call leaves the run count: returned to the host (into = false: the plain forms,
// which wait for the device), or written to count[0] on the context's backend, stream-ordered
// (into = true: the _into forms).
struct count_target {
  bool into = false;
  span<std::int64_t> count;
};

// The _into forms' rules, then io.count_out = count.data(). No error can be raised once the
// kernels run without waiting for them, so what the plain forms check after the run is
// checked up front: every output indexed by run holds n elements (R <= n). count must hold
// at least one element on the backend and overlap no other argument (`keys` names the keys'
// input: "keys" or "in").
template <class K, class V>
void target_count(const checker& c, const count_target& to, const char* keys,
                  runs_call<K, V>& job) {
  if (!to.into) return;
  const runs_io<K, V>& io = job.io;
  for (int i = 0; i < 2; ++i)
    if (job.outs.name[i] && job.outs.size[i] < io.n)
      c.fail(std::string(job.outs.name[i]) + ".size()=" + std::to_string(job.outs.size[i]) +
             " is smaller than n=" + std::to_string(io.n) +
             " (every element may start a run, and the count is not known before the call "
             "returns)");
  c.valid(to.count, "count");
  if (to.count.size() < 1) c.fail("count.size()=0 but must be at least 1");
  c.no_overlap(span<const K>(io.keys, io.n), keys, to.count, "count", false);
  if (io.values) c.no_overlap(span<const V>(io.values, io.n), "values", to.count, "count", false);
  if (job.outs.name[0])
    c.no_overlap(span<K>(io.keys_out, job.outs.size[0]), job.outs.name[0], to.count, "count",
                 false);
  if (job.outs.name[1])
    c.no_overlap(span<V>(io.values_out, job.outs.size[1]), job.outs.name[1], to.count, "count",
                 false);
  job.io.count_out = to.count.data();
}

// Runs the call on the context's backend (`cuda` runs it on a CUDA context and returns the
// run count, or -1 where io.count_out receives it). With io.count_out the count goes there,
// stream-ordered (n = 0: a fill), and this returns it on the CPU and -1 on CUDA; without it,
// this fails when an output indexed by run is too small. The bodies never write past
// io.capacity, so such an output then holds the first size() runs.
template <runs_kind Kind, class K, class V, class Eq, class Op, class Cuda>
std::int64_t run_runs(const checker& c, const runs_io<K, V>& io, Eq eq, Op op,
                      const run_outputs& outs, Cuda&& cuda) {
  if (io.n == 0) {
    if (io.count_out) c.ctx().fill_bytes(io.count_out, 0, sizeof(std::int64_t));
    return 0;
  }
  const bool on_cpu = c.ctx().kind() != backend::cuda;
  const std::int64_t runs = on_cpu ? cpu::runs<Kind>(c.ctx(), io, eq, op) : cuda();
  if (io.count_out) {
    if (on_cpu) *io.count_out = runs;
    return runs;
  }
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
  r.count_out = io.count_out;
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
