// `parprim bench by_key`: reduce_by_key, inclusive_scan_by_key, exclusive_scan_by_key, unique,
// unique_by_key, unique_count and run_length_encode on u32 keys (f32 values) with average run
// lengths 1, 8 and 512, against CUB (DeviceReduce::ReduceByKey, DeviceScan::InclusiveSumByKey
// and ExclusiveSumByKey, DeviceSelect::Unique and UniqueByKey, DeviceRunLengthEncode::Encode)
// on the GPU and the sequential oracles on the CPU.
//
// reduce_by_key, unique, unique_by_key, unique_count and run_length_encode each have two rows:
// the plain form, which returns the run count to the host (a copy and a wait in every call),
// and the _into form (reduce_by_key_into, ...), which leaves it in device memory as CUB does:
// the like-for-like row. Both have the same yardstick time.
//
// Every row's output is checked against the yardstick's (check_figure in engine.hpp): the
// yardstick runs first and its outputs are copied to the host (the oracle's result is kept from
// its last timed run on the CPU), then ours overwrites the same buffers (filled with all ones
// first) and is copied and compared after its timing. Keys, counts, lengths and the values
// unique_by_key keeps must be identical, f32 sums agree within sum_tolerance (checks.hpp);
// "max_rel_diff" records how far they were apart.
//
// Keys: run r holds the key r (so neighbouring runs differ) and has a random length in
// [1, 2L - 1]. Bytes moved: what one pass must read and write (keys and values in, one
// output per element or per run).
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "reference/runs_ref.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_runs.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::vector<std::uint32_t> run_keys(std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  std::vector<std::uint32_t> k(static_cast<std::size_t>(n));
  std::int64_t i = 0;
  std::uint32_t key = 0;
  while (i < n) {
    const std::int64_t len = 1 + std::int64_t(splitmix64(seed + i) % std::uint64_t(2 * mean_run - 1));
    for (std::int64_t j = i; j < std::min(n, i + len); ++j) k[j] = key;
    ++key;
    i += len;
  }
  return k;
}

struct row_args {
  const char* primitive;
  std::int64_t n;
  std::int64_t mean_run;
  double ms;
  double bytes;
  double yard_ms;
  verdict check;
};

void add_row(session& s, table& t, const row_args& a) {
  const char* yard = s.on_gpu() ? "cub" : "sequential";
  row r;
  r.primitive = a.primitive;
  // GPU: the single-pass look-back kernel; CPU: the three-phase blocked walk.
  r.variant = s.on_gpu() ? "single_pass" : "blocked";
  r.type = "u32/f32";
  r.n = a.n;
  r.ms = a.ms;
  r.gbps = a.bytes / (a.ms * 1e6);
  if (!std::isnan(a.yard_ms)) {
    r.yardstick = yard;
    r.yardstick_ms = a.yard_ms;
    if (!s.on_gpu()) r.extra["seq_cpu_ms"] = a.yard_ms;  // the sequential oracle, as elsewhere
  }
  r.extra["mean_run"] = double(a.mean_run);
  r.extra["copy_gbps"] = s.copy_gbps();
  record_check(r, s.on_gpu(), a.check);
  s.add(std::move(r));
  t.add({a.primitive, fmt_int(a.n), fmt_int(a.mean_run), fmt(a.ms, 4), fmt(a.bytes / (a.ms * 1e6), 0),
         fmt(a.yard_ms, 4), fmt(a.yard_ms / a.ms, 2), check_cell(a.check.matches)});
}

// What the yardstick produced: the run keys, the f32 sums (per run, or per element for the
// scan), the run lengths, and the run count.
struct expected {
  std::vector<std::uint32_t> keys;
  std::vector<float> values;
  std::vector<std::int64_t> lengths;
  std::int64_t count = 0;
};

// One input (keys with runs of one mean length, values, the runs' offsets) with the buffers
// every primitive writes.
struct by_key_case {
  const context& ctx;
  const std::vector<std::uint32_t>& keys;
  const std::vector<float>& vals;
  const buffer<std::uint32_t>& k;
  const buffer<float>& v;
  buffer<std::uint32_t>& ko;
  buffer<float>& vo;
  buffer<std::int64_t>& lengths;
  buffer<std::int64_t>& count;
  workspace& ws;
  const std::vector<std::int64_t>& offsets;  // of the runs

  std::int64_t device_count() const { return count.to_host()[0]; }
  // The runs a yardstick left in the outputs: the count, the keys, and the sums or lengths.
  expected device_runs(bool values, bool with_lengths) const {
    expected e;
    e.count = device_count();
    e.keys = head(ctx, ko, e.count);
    if (values) e.values = head(ctx, vo, e.count);
    if (with_lengths) e.lengths = head(ctx, lengths, e.count);
    return e;
  }
  // All ones in every output before ours runs (NaN values, keys and lengths no run has), so
  // an output ours leaves unwritten cannot pass as the yardstick's, still in the same buffer.
  void poison() const {
    ko.fill_bytes(0xFF);
    vo.fill_bytes(0xFF);
    lengths.fill_bytes(0xFF);
    count.fill_bytes(0xFF);
  }
  // Our keys (and lengths) against the expected ones, for `runs` runs.
  bool same_runs(const expected& e, std::int64_t runs, bool with_lengths) const {
    if (runs != e.count) return false;
    if (!same_prefix(head(ctx, ko, runs), e.keys, runs)) return false;
    return !with_lengths || same_prefix(head(ctx, lengths, runs), e.lengths, runs);
  }
  // Our count_out values against the yardstick's (e) and the sums in double (k: each run's
  // total, or each element's prefix in its run), summed as the comparison walks.
  verdict check_sums(const expected& e, std::int64_t count_out, sums_of k) const {
    const auto ours = head(ctx, vo, count_out);
    return compare_segment_sums(ours.data(), e.values.data(), count_out, vals, offsets, k);
  }
};

// The plain form and the _into form of one primitive, against the one yardstick time; check
// tells whether our outputs, for the given run count, are the yardstick's.
void add_plain_and_into(session& s, table& t, const row_args& a, const char* into,
                        const std::function<std::int64_t()>& plain_call,
                        const std::function<void()>& into_call, const by_key_case& c,
                        const std::function<verdict(std::int64_t)>& check) {
  row_args r = a;
  std::int64_t runs = -1;
  c.poison();
  r.ms = s.time_ms([&] { runs = plain_call(); });
  r.check = check(runs);
  add_row(s, t, r);
  r.primitive = into;
  c.poison();
  r.ms = s.time_ms(into_call);
  r.check = check(c.device_count());
  add_row(s, t, r);
}

// The check of a primitive that writes runs (keys, and lengths or f32 sums) and their count.
std::function<verdict(std::int64_t)> runs_check(const by_key_case& c, const expected& e, bool lengths,
                                                bool sums) {
  return [&c, &e, lengths, sums](std::int64_t runs) {
    if (!c.same_runs(e, runs, lengths)) return exact(false);
    return sums ? c.check_sums(e, runs, sums_of::total) : exact(true);
  };
}

void bench_reduce_by_key(session& s, table& t, by_key_case& c, std::int64_t mean_run) {
  const std::int64_t n = c.k.size();
  expected e;
  double yard = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard = yardstick::cub_reduce_by_key_ms(s, c.k.data(), c.v.data(), c.ko.data(), c.vo.data(), c.count.data(), n);
    e = c.device_runs(true, false);
  }
#endif
  if (!s.on_gpu()) {
    reference::by_key_result<std::uint32_t, float> ref;
    yard = s.time_host_ms([&] { ref = reference::reduce_by_key(c.keys, c.vals, op::plus); }, 3);
    e.count = std::int64_t(ref.keys.size());
    e.keys = std::move(ref.keys);
    e.values = std::move(ref.values);
  }
  const double runs = double(c.keys.back()) + 1;
  add_plain_and_into(
      s, t, {"reduce_by_key", n, mean_run, nan, 8.0 * double(n) + 8.0 * runs, yard, {}}, "reduce_by_key_into",
      [&] { return reduce_by_key<std::uint32_t, float>(c.ctx, c.k, c.v, c.ko, c.vo, op::plus, &c.ws); },
      [&] { reduce_by_key_into<std::uint32_t, float>(c.ctx, c.k, c.v, c.ko, c.vo, c.count, op::plus, &c.ws); },
      c, runs_check(c, e, false, true));
}

// inclusive_scan_by_key, or (inclusive false) exclusive_scan_by_key with init 0.
void bench_scan_by_key(session& s, table& t, by_key_case& c, std::int64_t mean_run, bool inclusive) {
  const std::int64_t n = c.k.size();
  expected e;
  double yard = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard = inclusive ? yardstick::cub_inclusive_sum_by_key_ms(s, c.k.data(), c.v.data(), c.vo.data(), n)
                     : yardstick::cub_exclusive_sum_by_key_ms(s, c.k.data(), c.v.data(), c.vo.data(), n);
    e.values = head(c.ctx, c.vo, n);
  }
#endif
  if (!s.on_gpu())
    yard = s.time_host_ms(
        [&] { e.values = reference::scan_by_heads(reference::run_heads(c.keys), c.vals, op::plus, inclusive, 0.0f); },
        3);
  c.poison();
  const double ms = s.time_ms([&] {
    if (inclusive) inclusive_scan_by_key<std::uint32_t, float>(c.ctx, c.k, c.v, c.vo, op::plus, &c.ws);
    else exclusive_scan_by_key<std::uint32_t, float>(c.ctx, c.k, c.v, c.vo, 0.0f, op::plus, &c.ws);
  });
  const sums_of prefixes = inclusive ? sums_of::inclusive_prefixes : sums_of::exclusive_prefixes;
  add_row(s, t, {inclusive ? "inclusive_scan_by_key" : "exclusive_scan_by_key", n, mean_run, ms, 12.0 * double(n),
                 yard, c.check_sums(e, n, prefixes)});
}

// unique (lengths false) or run_length_encode (true).
void bench_unique_or_rle(session& s, table& t, by_key_case& c, std::int64_t mean_run, bool lengths) {
  const std::int64_t n = c.k.size();
  expected e;
  double yard = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard = lengths ? yardstick::cub_run_length_encode_ms(s, c.k.data(), c.ko.data(), c.lengths.data(),
                                                         c.count.data(), n)
                   : yardstick::cub_unique_ms(s, c.k.data(), c.ko.data(), c.count.data(), n);
    e = c.device_runs(false, lengths);
  }
#endif
  if (!s.on_gpu()) {
    reference::by_key_result<std::uint32_t, std::int64_t> ref;
    yard = s.time_host_ms([&] { ref = reference::run_length_encode(c.keys); }, 3);
    e.count = std::int64_t(ref.keys.size());
    e.keys = std::move(ref.keys);
    e.lengths = std::move(ref.values);
  }
  const double runs = double(c.keys.back()) + 1;
  if (!lengths)
    add_plain_and_into(
        s, t, {"unique", n, mean_run, nan, 4.0 * double(n) + 4.0 * runs, yard, {}}, "unique_into",
        [&] { return unique<std::uint32_t>(c.ctx, c.k, c.ko, &c.ws); },
        [&] { unique_into<std::uint32_t>(c.ctx, c.k, c.ko, c.count, &c.ws); }, c, runs_check(c, e, false, false));
  else
    add_plain_and_into(
        s, t, {"run_length_encode", n, mean_run, nan, 4.0 * double(n) + 12.0 * runs, yard, {}},
        "run_length_encode_into",
        [&] { return run_length_encode<std::uint32_t>(c.ctx, c.k, c.ko, c.lengths, &c.ws); },
        [&] { run_length_encode_into<std::uint32_t>(c.ctx, c.k, c.ko, c.lengths, c.count, &c.ws); }, c,
        runs_check(c, e, true, false));
}

// The sequential unique_by_key: each run's first key and its value.
expected sequential_unique_by_key(const std::vector<std::uint32_t>& keys, const std::vector<float>& vals) {
  expected e;
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (i == 0 || keys[i - 1] != keys[i]) {
      e.keys.push_back(keys[i]);
      e.values.push_back(vals[i]);
    }
  e.count = std::int64_t(e.keys.size());
  return e;
}

void bench_unique_by_key(session& s, table& t, by_key_case& c, std::int64_t mean_run) {
  const std::int64_t n = c.k.size();
  expected e;
  double yard = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard = yardstick::cub_unique_by_key_ms(s, c.k.data(), c.v.data(), c.ko.data(), c.vo.data(), c.count.data(), n);
    e = c.device_runs(true, false);
  }
#endif
  if (!s.on_gpu()) yard = s.time_host_ms([&] { e = sequential_unique_by_key(c.keys, c.vals); }, 3);
  // The kept values are copies of input values: bitwise the yardstick's, no tolerance.
  auto check = [&c, &e](std::int64_t runs) {
    return exact(c.same_runs(e, runs, false) && same_bits(head(c.ctx, c.vo, runs), e.values));
  };
  const double runs = double(c.keys.back()) + 1;
  add_plain_and_into(
      s, t, {"unique_by_key", n, mean_run, nan, 8.0 * double(n) + 8.0 * runs, yard, {}}, "unique_by_key_into",
      [&] { return unique_by_key<std::uint32_t, float>(c.ctx, c.k, c.v, c.ko, c.vo, &c.ws); },
      [&] { unique_by_key_into<std::uint32_t, float>(c.ctx, c.k, c.v, c.ko, c.vo, c.count, &c.ws); }, c, check);
}

// unique_count against CUB's DeviceSelect::Unique, its run count being the figure compared. CUB
// has no count-only primitive; of its two that count runs, Unique does the least beyond the
// count (it reads the n keys and writes the R first keys), where DeviceRunLengthEncode::Encode
// also finds each run's end and writes R 8-byte lengths. Unique still writes 4 R bytes that
// unique_count does not (at mean run 1, all n keys again): that part of a speed-up is the
// yardstick's extra work, not a faster count.
void bench_unique_count(session& s, table& t, by_key_case& c, std::int64_t mean_run) {
  const std::int64_t n = c.k.size();
  std::int64_t want = -1;
  double yard = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard = yardstick::cub_unique_ms(s, c.k.data(), c.ko.data(), c.count.data(), n);
    want = c.device_count();
  }
#endif
  if (!s.on_gpu())
    yard = s.time_host_ms([&] {
      want = c.keys.empty() ? 0 : 1;
      for (std::size_t i = 1; i < c.keys.size(); ++i) want += c.keys[i - 1] != c.keys[i];
    }, 3);
  add_plain_and_into(
      s, t, {"unique_count", n, mean_run, nan, 4.0 * double(n), yard, {}}, "unique_count_into",
      [&] { return unique_count<std::uint32_t>(c.ctx, c.k, &c.ws); },
      [&] { unique_count_into<std::uint32_t>(c.ctx, c.k, c.count, &c.ws); }, c,
      [&want](std::int64_t runs) { return exact(runs == want); });
}

void run_by_key(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 26, 1 << 28};
  if (!s.on_gpu()) defaults = {1 << 22, 1 << 24};
  table t("by-key, unique and run-length encoding, u32 keys / f32 values, on " + ctx.name(),
          {"primitive", "n", "mean run", "ms", "GB/s", s.on_gpu() ? "CUB ms" : "sequential ms",
           "vs yardstick", s.on_gpu() ? "same as CUB" : "same as sequential"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 8)) {
    auto vals = random_data<float>(n, 11 + n);
    auto v = buffer<float>::from_host(ctx, vals);
    buffer<float> vo(ctx, n);
    buffer<std::uint32_t> ko(ctx, n);
    buffer<std::int64_t> lengths(ctx, n), count(ctx, 1);
    workspace ws(ctx);
    for (std::int64_t mean_run : {1, 8, 512}) {
      auto keys = run_keys(n, mean_run, 7 + mean_run);
      auto k = buffer<std::uint32_t>::from_host(ctx, keys);
      const auto offsets = run_offsets(keys);
      by_key_case c{ctx, keys, vals, k, v, ko, vo, lengths, count, ws, offsets};
      bench_reduce_by_key(s, t, c, mean_run);
      bench_scan_by_key(s, t, c, mean_run, true);
      bench_scan_by_key(s, t, c, mean_run, false);
      bench_unique_or_rle(s, t, c, mean_run, false);
      bench_unique_by_key(s, t, c, mean_run);
      bench_unique_count(s, t, c, mean_run);
      bench_unique_or_rle(s, t, c, mean_run, true);
    }
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("by_key",
                    "reduce/scan by key, unique (by key, count), run-length encoding (runs of 1, 8, 512) vs CUB",
                    45, run_by_key);

}  // namespace parprim::bench
