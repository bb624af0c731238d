// `parprim bench segmented`: segmented_reduce and segmented_inclusive_scan (f32, plus) over
// segments of 1, 32, 256 and 4096 elements, a power-law mix and one segment holding all n, vs CUB
// DeviceSegmentedReduce::Sum and (the scan) DeviceScan::InclusiveSumByKey over the elements'
// segment ids, CUB having no scan by offsets (the ids are built outside the timing, which
// favours CUB), on the GPU and the sequential oracle on the CPU.
// `parprim bench merge_search`: merge of two sorted u32 ranges vs thrust::merge (and
// merge_by_key of u32/u32 pairs), and
// lower_bound of sorted (and of unsorted) u32 queries into a sorted range 16x larger vs
// thrust::lower_bound.
#include <algorithm>
#include <cmath>
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

// Offsets of segments of `length` elements, or (length 0) a power-law mix: lengths
// floor(u^(-1/1.1)) for uniform u, a Pareto tail with mean about 11 and a few huge segments.
std::vector<std::int64_t> make_offsets(std::int64_t n, std::int64_t length, std::uint64_t seed) {
  std::vector<std::int64_t> o{0};
  for (std::uint64_t i = 0; o.back() < n; ++i) {
    std::int64_t len = length;
    if (length == 0) {
      const double u = (double(splitmix64(seed + i) >> 11) + 1.0) * 0x1.0p-53;
      len = std::int64_t(std::min(double(n), std::pow(u, -1.0 / 1.1)));
    }
    o.push_back(std::min(n, o.back() + len));
  }
  return o;
}

void add_row(session& s, table& t, const std::string& primitive, const std::string& variant,
             std::int64_t n, double ms, double bytes, double yard_ms, const char* yard) {
  row r;
  r.primitive = primitive;
  r.variant = variant;
  r.type = primitive.find("merge") != std::string::npos || primitive.find("bound") != std::string::npos ? "u32" : "f32";
  r.n = n;
  r.ms = ms;
  r.gbps = bytes / (ms * 1e6);
  if (!std::isnan(yard_ms)) {
    r.yardstick = yard;
    r.yardstick_ms = yard_ms;
  }
  r.extra["copy_gbps"] = s.copy_gbps();
  s.add(std::move(r));
  t.add({primitive, variant, fmt_int(n), fmt(ms, 4), fmt(bytes / (ms * 1e6), 0), fmt(yard_ms, 4),
         fmt(yard_ms / ms, 2)});
}

#if PARPRIM_HAVE_CUDA
// Element i's segment number (segments are consecutive and non-empty ones differ, so the runs
// of equal ids are the segments).
std::vector<std::uint32_t> segment_ids(const std::vector<std::int64_t>& offsets) {
  std::vector<std::uint32_t> ids(std::size_t(offsets.back() - offsets.front()));
  for (std::size_t seg = 0; seg + 1 < offsets.size(); ++seg)
    for (std::int64_t i = offsets[seg]; i < offsets[seg + 1]; ++i)
      ids[std::size_t(i - offsets.front())] = std::uint32_t(seg);
  return ids;
}
#endif

void run_segmented(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 26};
  if (!s.on_gpu()) defaults = {1 << 22};
  const char* yard = s.on_gpu() ? "cub" : "sequential";
  table t("segmented reduce / scan, f32 plus, on " + ctx.name(),
          {"primitive", "segments", "n", "ms", "GB/s", s.on_gpu() ? "CUB ms" : "sequential ms", "vs yardstick"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 4)) {
    auto x = random_data<float>(n, 3 + n);
    auto in = buffer<float>::from_host(ctx, x);
    buffer<float> out(ctx, n);
    workspace ws(ctx);
    // 32 and 256: one warp per segment on CUDA (segment_warps_tuning); 4096: one block per
    // segment (segment_blocks_tuning).
    for (std::int64_t length : {std::int64_t(1), std::int64_t(32), std::int64_t(256), std::int64_t(4096), std::int64_t(0), n}) {
      auto offsets = make_offsets(n, length, 17);
      const std::int64_t segments = std::int64_t(offsets.size()) - 1;
      auto off = buffer<std::int64_t>::from_host(ctx, offsets);
      buffer<float> red(ctx, segments);
      const std::string shape = length == 0 ? "power_law" : length == n ? "one_segment" : "len_" + std::to_string(length);
      double ms = s.time_ms([&] { segmented_reduce<float>(ctx, in, off, red, 0.0f, op::plus, &ws); });
      double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
      if (s.on_gpu()) yard_ms = yardstick::cub_segmented_sum_ms(s, in.data(), red.data(), off.data(), segments);
#endif
      if (!s.on_gpu()) yard_ms = s.time_host_ms([&] { reference::segmented_reduce(x, offsets, 0.0f, op::plus); }, 3);
      add_row(s, t, "segmented_reduce", shape, n, ms, 4.0 * double(n) + 12.0 * double(segments), yard_ms, yard);

      ms = s.time_ms([&] { segmented_inclusive_scan<float>(ctx, in, off, out, op::plus, &ws); });
      yard_ms = nan;
#if PARPRIM_HAVE_CUDA
      if (s.on_gpu()) {
        auto ids = buffer<std::uint32_t>::from_host(ctx, segment_ids(offsets));
        yard_ms = yardstick::cub_inclusive_sum_by_key_ms(s, ids.data(), in.data(), out.data(), n);
      }
#endif
      if (!s.on_gpu())
        yard_ms = s.time_host_ms([&] { reference::segmented_scan(x, offsets, op::plus, true, 0.0f, x); }, 3);
      add_row(s, t, "segmented_inclusive_scan", shape, n, ms, 8.0 * double(n) + 8.0 * double(segments), yard_ms, yard);
    }
  }
  t.print();
}

void run_merge_search(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {std::int64_t(1) << 27};
  if (!s.on_gpu()) defaults = {1 << 23};
  const char* yard = s.on_gpu() ? "thrust" : "sequential";
  table t("merge and lower_bound, u32, on " + ctx.name(),
          {"primitive", "shape", "n", "ms", "GB/s", s.on_gpu() ? "Thrust ms" : "sequential ms", "vs yardstick"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 8)) {  // a, b, out (2n), out_values (2n), keys (2n)
    auto a = random_data<std::uint32_t>(n, 5);
    auto b = random_data<std::uint32_t>(n, 6);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    auto ba = buffer<std::uint32_t>::from_host(ctx, a);
    auto bb = buffer<std::uint32_t>::from_host(ctx, b);
    buffer<std::uint32_t> out(ctx, 2 * n);
    workspace ws(ctx);
    double ms = s.time_ms([&] { merge<std::uint32_t>(ctx, ba, bb, out, sort_order::ascending, &ws); });
    double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) yard_ms = yardstick::thrust_merge_ms(s, ba.data(), n, bb.data(), n, out.data());
#endif
    std::vector<std::uint32_t> host_out(static_cast<std::size_t>(2 * n));
    if (!s.on_gpu()) yard_ms = s.time_host_ms([&] { std::merge(a.begin(), a.end(), b.begin(), b.end(), host_out.begin()); }, 3);
    add_row(s, t, "merge", "2 x " + fmt_int(n), 2 * n, ms, 16.0 * double(n), yard_ms, yard);

    // merge_by_key, u32 keys with u32 values (the values are the keys): no yardstick, the
    // bytes moved against the copy bandwidth.
    buffer<std::uint32_t> out_values(ctx, 2 * n);
    ms = s.time_ms([&] {
      merge_by_key<std::uint32_t, std::uint32_t>(ctx, ba, ba, bb, bb, out, out_values,
                                                 sort_order::ascending, &ws);
    });
    add_row(s, t, "merge_by_key", "2 x " + fmt_int(n) + " u32/u32", 2 * n, ms, 32.0 * double(n), nan, yard);

    // lower_bound: n / 8 sorted queries into the 2n merged keys (2^24 into 2^28 at the default).
    std::vector<std::uint32_t> merged(static_cast<std::size_t>(2 * n));
    std::merge(a.begin(), a.end(), b.begin(), b.end(), merged.begin());
    auto keys = buffer<std::uint32_t>::from_host(ctx, merged);
    auto qv = random_data<std::uint32_t>(n / 8, 9);
    std::sort(qv.begin(), qv.end());
    auto q = buffer<std::uint32_t>::from_host(ctx, qv);
    buffer<std::int64_t> pos(ctx, q.size());
    ms = s.time_ms([&] { lower_bound<std::uint32_t>(ctx, keys, q, pos); });
    yard_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) yard_ms = yardstick::thrust_lower_bound_ms(s, keys.data(), 2 * n, q.data(), q.size(), pos.data());
#endif
    std::vector<std::int64_t> host_pos(qv.size());
    if (!s.on_gpu())
      yard_ms = s.time_host_ms([&] {
        for (std::size_t i = 0; i < qv.size(); ++i)
          host_pos[i] = std::lower_bound(merged.begin(), merged.end(), qv[i]) - merged.begin();
      }, 3);
    add_row(s, t, "lower_bound", fmt_int(q.size()) + " sorted queries", 2 * n, ms, 12.0 * double(q.size()), yard_ms, yard);

    // The same queries shuffled: every tile of queries spans the whole key range, so the GPU
    // kernel takes its per-query binary search (the path that must not lose to the yardstick).
    std::vector<std::uint32_t> shuffled = random_data<std::uint32_t>(n / 8, 9);
    auto qs = buffer<std::uint32_t>::from_host(ctx, shuffled);
    ms = s.time_ms([&] { lower_bound<std::uint32_t>(ctx, keys, qs, pos); });
    yard_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) yard_ms = yardstick::thrust_lower_bound_ms(s, keys.data(), 2 * n, qs.data(), qs.size(), pos.data());
#endif
    if (!s.on_gpu())
      yard_ms = s.time_host_ms([&] {
        for (std::size_t i = 0; i < shuffled.size(); ++i)
          host_pos[i] = std::lower_bound(merged.begin(), merged.end(), shuffled[i]) - merged.begin();
      }, 3);
    add_row(s, t, "lower_bound", fmt_int(qs.size()) + " unsorted queries", 2 * n, ms, 12.0 * double(qs.size()), yard_ms, yard);
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("segmented", "segmented reduce / scan (segments of 1, 32, 256, 4096, power law, one segment) vs CUB",
                    46, run_segmented);
PARPRIM_BENCH_SUITE("merge_search", "merge of two sorted ranges vs thrust::merge; lower_bound vs thrust::lower_bound",
                    47, run_merge_search);

}  // namespace parprim::bench
