// `parprim bench partition`: copy_if, partition and unstable_partition at 50% selectivity
// against CUB DeviceSelect::If and DevicePartition::If (GPU) or sequential std::copy_if,
// std::stable_partition and std::partition (CPU); split into 256 buckets by the top byte
// against CUB's radix sort of that byte alone (GPU) or the sequential split (CPU).
//
// Input: uniform random u32, predicate x < 2^31 (half the elements). Bytes moved: copy_if
// reads n and writes the selected half; the partitions read n and write n. (Our stable
// partition reads the input twice to keep the rejected elements in order; unstable_partition
// writes them in reverse in one pass, as CUB's DevicePartition::If does: the like-for-like
// row.)
//
// Every row's output is checked against the sequential oracle of its contract (the count and
// all n elements, or the selected prefix for copy_if), outside the timed calls: figure
// "matches_sequential" on both backends (check_figure in engine.hpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "reference/partition_ref.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_select.hpp"
#include "yardsticks/cub_sort.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint32_t pivot = 1u << 31;

// out's first `compared` elements (and the count, where one is returned) against the
// sequential oracle's (reference/partition_ref.hpp).
verdict check_output(const buffer<std::uint32_t>& out, const std::vector<std::uint32_t>& want,
                     std::int64_t compared, std::int64_t count, std::int64_t want_count) {
  return exact(count == want_count && same_prefix(out.to_host(), want, compared));
}

void add_row(session& s, const char* primitive, const char* variant, std::int64_t n, double ms,
             double bytes, const char* yard, double yard_ms, double selected, const verdict& check) {
  row r;
  r.primitive = primitive;
  r.variant = variant;
  r.type = "u32";
  r.n = n;
  r.ms = ms;
  r.gbps = bytes / (ms * 1e6);
  if (yard && !std::isnan(yard_ms)) {
    r.yardstick = yard;
    r.yardstick_ms = yard_ms;
  }
  r.extra["gelem_per_s"] = double(n) / (ms * 1e6);
  r.extra["selectivity"] = selected / double(std::max<std::int64_t>(n, 1));
  r.extra["copy_gbps"] = s.copy_gbps();
  r.extra["pct_of_copy"] = 100.0 * r.gbps / s.copy_gbps();
  record_check(r, "matches_sequential", check);
  s.add(std::move(r));
}

// One measured row, into the JSON (add_row) and the printed table under `label`; a row
// without a yardstick (yard null) leaves those two cells empty.
void report(session& s, table& t, const char* label, const char* primitive, const char* variant,
            std::int64_t n, double ms, double bytes, const char* yard, double yard_ms,
            double selected, const verdict& check) {
  add_row(s, primitive, variant, n, ms, bytes, yard, yard_ms, selected, check);
  const double gbps = bytes / (ms * 1e6);
  t.add({label, fmt_int(n), fmt(ms, 4), fmt(double(n) / (ms * 1e6), 1), fmt(gbps, 0),
         fmt(100.0 * gbps / s.copy_gbps(), 0), yard ? fmt(yard_ms, 4) : "",
         yard ? fmt(yard_ms / ms, 2) : "", check_cell(check.matches)});
}

void run_partition(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 20, 1 << 24, 1 << 28};
  if (!s.on_gpu()) defaults = {1 << 20, 1 << 24};
  table t("copy_if / partition at 50% selectivity (x < 2^31), u32, on " + ctx.name() +
              " (copy " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"primitive", "n", "ms", "Gelem/s", "GB/s", "% of copy",
           s.on_gpu() ? "CUB ms" : "sequential ms", "vs yardstick", "same as sequential"});
  const char* yard = s.on_gpu() ? "cub" : "sequential";
  for (std::int64_t n : s.sizes_or(defaults, 4 * 4)) {
    auto x = random_data<std::uint32_t>(n, 5 + n);
    const predicate<std::uint32_t> pred{compare::less, pivot};
    const std::vector<std::uint32_t> want_selected = reference::copy_if(x, pred);
    const std::int64_t n_selected = std::int64_t(want_selected.size());
    const double selected = double(n_selected);
    auto in = buffer<std::uint32_t>::from_host(ctx, x);
    buffer<std::uint32_t> out(ctx, n);
    out.fill_bytes(0xA5);  // and before every row below: an unwritten output cannot pass
    buffer<std::int64_t> count(ctx, 1);
    workspace ws(ctx);

    // copy_if (count left on the device: no host round trip inside the timing).
    double ms = s.time_ms([&] { copy_if_into<std::uint32_t>(ctx, in, out, count, pred, &ws); });
    verdict check = check_output(out, want_selected, n_selected, count.to_host()[0], n_selected);
    double yard_ms = nan;
    std::vector<std::uint32_t> host_out;
    if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
      buffer<std::uint32_t> cub_out(ctx, n);
      yard_ms = yardstick::cub_select_if_ms(s, in.data(), cub_out.data(), count.data(), n, pivot);
#endif
    } else {
      yard_ms = s.time_host_ms([&] {
        host_out.clear();
        host_out.reserve(x.size());
        std::copy_if(x.begin(), x.end(), std::back_inserter(host_out), [](std::uint32_t v) { return v < pivot; });
      });
    }
    double bytes = 4.0 * (double(n) + selected);
    report(s, t, "copy_if", "copy_if", "single_pass", n, ms, bytes, yard, yard_ms, selected, check);

    // partition and unstable_partition (both return the count to the host, as their callers
    // see it). On the GPU both rows have the one CUB DevicePartition::If time as yardstick.
    bytes = 8.0 * double(n);
    const auto below_pivot = [](std::uint32_t v) { return v < pivot; };
    std::vector<std::uint32_t> y;
    double cub_partition_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) {
      buffer<std::uint32_t> cub_out(ctx, n);
      cub_partition_ms = yardstick::cub_partition_if_ms(s, in.data(), cub_out.data(), count.data(), n, pivot);
    }
#endif
    std::int64_t returned = -1;
    out.fill_bytes(0xA5);
    ms = s.time_ms([&] { returned = partition<std::uint32_t>(ctx, in, out, pred, &ws); });
    check = check_output(out, reference::partition(x, pred), n, returned, n_selected);
    yard_ms = s.on_gpu() ? cub_partition_ms : s.time_host_ms([&] {
      y = x;
      std::stable_partition(y.begin(), y.end(), below_pivot);
    });
    report(s, t, "partition", "partition", "stable", n, ms, bytes, yard, yard_ms, selected, check);

    out.fill_bytes(0xA5);
    ms = s.time_ms([&] { returned = unstable_partition<std::uint32_t>(ctx, in, out, pred, &ws); });
    check = check_output(out, reference::unstable_partition(x, pred), n, returned, n_selected);
    yard_ms = s.on_gpu() ? cub_partition_ms : s.time_host_ms([&] {
      y = x;
      std::partition(y.begin(), y.end(), below_pivot);
    });
    report(s, t, "unstable_partition", "partition", "unstable", n, ms, bytes, yard, yard_ms, selected,
           check);

    // split into 256 buckets by the top key byte. On the GPU its yardstick is CUB's radix sort
    // of bits 24..31 alone: a stable split by the same byte, the same output (checked too).
    const bucket_fn top_byte = bucket_fn::key_bits(24, 8);
    const std::vector<std::uint32_t> want_split = reference::split(x, top_byte, nullptr);
    out.fill_bytes(0xA5);
    ms = s.time_ms([&] { split<std::uint32_t>(ctx, in, out, top_byte, {}, &ws); });
    check = check_output(out, want_split, n, 0, 0);
    if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
      buffer<std::uint32_t> cub_out(ctx, n);
      cub_out.fill_bytes(0xA5);
      yard_ms = yardstick::cub_sort_keys_ms<std::uint32_t>(s, in.data(), cub_out.data(), n, 24, 32);
      if (cub_out.to_host() != want_split) check = exact(false);
#endif
    } else {
      yard_ms = s.time_host_ms([&] { y = reference::split(x, top_byte, nullptr); });
    }
    report(s, t, "split (256 buckets)", "split", "buckets_256", n, ms, bytes, yard, yard_ms, double(n),
           check);
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("partition",
                    "copy_if, partition and unstable_partition at 50% selectivity vs CUB; split into 256 "
                    "buckets vs CUB's sort of that byte",
                    41, run_partition);

}  // namespace parprim::bench
