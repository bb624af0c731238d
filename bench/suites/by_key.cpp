// `parprim bench by_key`: reduce_by_key, inclusive_scan_by_key, unique and run_length_encode
// on u32 keys (f32 values) with average run lengths 1, 8 and 512, against CUB
// (DeviceReduce::ReduceByKey, DeviceScan::InclusiveSumByKey, DeviceSelect::Unique,
// DeviceRunLengthEncode::Encode) on the GPU and the sequential oracles on the CPU.
//
// reduce_by_key, unique and run_length_encode each have two rows: the plain form, which
// returns the run count to the host (a copy and a wait in every call), and the _into form
// (reduce_by_key_into, ...), which leaves it in device memory as CUB does: the like-for-like
// row. Both have the same yardstick time.
//
// Keys: run r holds the key r (so neighbouring runs differ) and has a random length in
// [1, 2L - 1]. Bytes moved: what one pass must read and write (keys and values in, one
// output per element or per run).
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

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
  s.add(std::move(r));
  t.add({a.primitive, fmt_int(a.n), fmt_int(a.mean_run), fmt(a.ms, 4), fmt(a.bytes / (a.ms * 1e6), 0),
         fmt(a.yard_ms, 4), fmt(a.yard_ms / a.ms, 2)});
}

// The plain form and the _into form of one primitive, against the one yardstick time.
void add_plain_and_into(session& s, table& t, const row_args& a, const char* into,
                        const std::function<void()>& plain_call,
                        const std::function<void()>& into_call) {
  row_args r = a;
  r.ms = s.time_ms(plain_call);
  add_row(s, t, r);
  r.primitive = into;
  r.ms = s.time_ms(into_call);
  add_row(s, t, r);
}

void run_by_key(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 26, 1 << 28};
  if (!s.on_gpu()) defaults = {1 << 22, 1 << 24};
  table t("by-key, unique and run-length encoding, u32 keys / f32 values, on " + ctx.name(),
          {"primitive", "n", "mean run", "ms", "GB/s", s.on_gpu() ? "CUB ms" : "sequential ms",
           "vs yardstick"});
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
      const double runs = double(keys.back()) + 1;
      double yard = nan;

#if PARPRIM_HAVE_CUDA
      if (s.on_gpu()) yard = yardstick::cub_reduce_by_key_ms(s, k.data(), v.data(), ko.data(), vo.data(), count.data(), n);
#endif
      if (!s.on_gpu()) yard = s.time_host_ms([&] { reference::reduce_by_key(keys, vals, op::plus); }, 3);
      add_plain_and_into(
          s, t, {"reduce_by_key", n, mean_run, nan, 8.0 * double(n) + 8.0 * runs, yard}, "reduce_by_key_into",
          [&] { reduce_by_key<std::uint32_t, float>(ctx, k, v, ko, vo, op::plus, &ws); },
          [&] { reduce_by_key_into<std::uint32_t, float>(ctx, k, v, ko, vo, count, op::plus, &ws); });

      double ms = s.time_ms([&] { inclusive_scan_by_key<std::uint32_t, float>(ctx, k, v, vo, op::plus, &ws); });
#if PARPRIM_HAVE_CUDA
      if (s.on_gpu()) yard = yardstick::cub_inclusive_sum_by_key_ms(s, k.data(), v.data(), vo.data(), n);
#endif
      if (!s.on_gpu())
        yard = s.time_host_ms([&] { reference::scan_by_heads(reference::run_heads(keys), vals, op::plus, true, 0.0f); }, 3);
      add_row(s, t, {"inclusive_scan_by_key", n, mean_run, ms, 12.0 * double(n), yard});

#if PARPRIM_HAVE_CUDA
      if (s.on_gpu()) yard = yardstick::cub_unique_ms(s, k.data(), ko.data(), count.data(), n);
#endif
      if (!s.on_gpu()) yard = s.time_host_ms([&] { reference::run_length_encode(keys); }, 3);
      add_plain_and_into(
          s, t, {"unique", n, mean_run, nan, 4.0 * double(n) + 4.0 * runs, yard}, "unique_into",
          [&] { unique<std::uint32_t>(ctx, k, ko, &ws); },
          [&] { unique_into<std::uint32_t>(ctx, k, ko, count, &ws); });

#if PARPRIM_HAVE_CUDA
      if (s.on_gpu()) yard = yardstick::cub_run_length_encode_ms(s, k.data(), ko.data(), lengths.data(), count.data(), n);
#endif
      if (!s.on_gpu()) yard = s.time_host_ms([&] { reference::run_length_encode(keys); }, 3);
      add_plain_and_into(
          s, t, {"run_length_encode", n, mean_run, nan, 4.0 * double(n) + 12.0 * runs, yard},
          "run_length_encode_into",
          [&] { run_length_encode<std::uint32_t>(ctx, k, ko, lengths, &ws); },
          [&] { run_length_encode_into<std::uint32_t>(ctx, k, ko, lengths, count, &ws); });
    }
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("by_key", "reduce/scan by key, unique, run-length encoding (runs of 1, 8, 512) vs CUB",
                    45, run_by_key);

}  // namespace parprim::bench
