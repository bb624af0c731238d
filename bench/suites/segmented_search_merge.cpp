// `parprim bench segmented`: segmented_reduce and segmented_inclusive_scan (f32, plus) over
// segments of 1, 32, 256 and 4096 elements, a power-law mix and one segment holding all n, vs CUB
// DeviceSegmentedReduce::Sum and (the scan) DeviceScan::InclusiveSumByKey over the elements'
// segment ids, CUB having no scan by offsets (the ids are built outside the timing, which
// favours CUB), on the GPU and the sequential oracle on the CPU.
// `parprim bench merge_search`: merge of two sorted u32 ranges vs thrust::merge (and
// merge_by_key of u32/u32 pairs), and
// lower_bound of sorted (and of unsorted) u32 queries into a sorted range 16x larger vs
// thrust::lower_bound.
//
// Every row's output is checked against the yardstick's (check_figure in engine.hpp): the
// yardstick runs first and its output is copied to the host (the CPU oracle's is kept from its
// last timed run), then ours overwrites the same buffer (filled with all ones first) and is
// copied and compared after its timing. Merged keys and positions must be identical; f32 sums agree within sum_tolerance
// (checks.hpp), "max_rel_diff" saying how far apart they were. merge_by_key has no yardstick
// time; its keys and values (the values are the keys) are checked against the merge row's
// yardstick output.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
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
             std::int64_t n, double ms, double bytes, double yard_ms, const char* yard, const verdict& check) {
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
  record_check(r, s.on_gpu(), check);
  s.add(std::move(r));
  t.add({primitive, variant, fmt_int(n), fmt(ms, 4), fmt(bytes / (ms * 1e6), 0), fmt(yard_ms, 4),
         fmt(yard_ms / ms, 2), check_cell(check.matches)});
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

// One segment shape: segmented_reduce and segmented_inclusive_scan of x (on the device: in)
// into out, against the yardstick.
void bench_segment_shape(session& s, table& t, const std::vector<float>& x, const buffer<float>& in,
                         buffer<float>& out, workspace& ws, std::int64_t length) {
  const context& ctx = s.ctx();
  const std::int64_t n = in.size();
  const char* yard = s.on_gpu() ? "cub" : "sequential";
  auto offsets = make_offsets(n, length, 17);
  const std::int64_t segments = std::int64_t(offsets.size()) - 1;
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  buffer<float> red(ctx, segments);
  const std::string shape = length == 0 ? "power_law" : length == n ? "one_segment" : "len_" + std::to_string(length);
  std::vector<float> expect;
  double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_ms = yardstick::cub_segmented_sum_ms(s, in.data(), red.data(), off.data(), segments);
    expect = red.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms([&] { expect = reference::segmented_reduce(x, offsets, 0.0f, op::plus); }, 3);
  red.fill_bytes(0xFF);  // NaN: an output left unwritten cannot pass as the yardstick's
  double ms = s.time_ms([&] { segmented_reduce<float>(ctx, in, off, red, 0.0f, op::plus, &ws); });
  verdict check = compare_sums(red.to_host().data(), expect.data(), sums_in_double(x, offsets, false), segments);
  add_row(s, t, "segmented_reduce", shape, n, ms, 4.0 * double(n) + 12.0 * double(segments), yard_ms, yard, check);

  yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    auto ids = buffer<std::uint32_t>::from_host(ctx, segment_ids(offsets));
    yard_ms = yardstick::cub_inclusive_sum_by_key_ms(s, ids.data(), in.data(), out.data(), n);
    expect = out.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms([&] { expect = reference::segmented_scan(x, offsets, op::plus, true, 0.0f, x); }, 3);
  out.fill_bytes(0xFF);
  ms = s.time_ms([&] { segmented_inclusive_scan<float>(ctx, in, off, out, op::plus, &ws); });
  check = compare_sums(out.to_host().data(), expect.data(), sums_in_double(x, offsets, true), n);
  add_row(s, t, "segmented_inclusive_scan", shape, n, ms, 8.0 * double(n) + 8.0 * double(segments), yard_ms, yard,
          check);
}

void run_segmented(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 26};
  if (!s.on_gpu()) defaults = {1 << 22};
  table t("segmented reduce / scan, f32 plus, on " + ctx.name(),
          {"primitive", "segments", "n", "ms", "GB/s", s.on_gpu() ? "CUB ms" : "sequential ms", "vs yardstick",
           s.on_gpu() ? "same as CUB" : "same as sequential"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 4)) {
    auto x = random_data<float>(n, 3 + n);
    auto in = buffer<float>::from_host(ctx, x);
    buffer<float> out(ctx, n);
    workspace ws(ctx);
    // 32 and 256: one warp per segment on CUDA (segment_warps_tuning); 4096: one block per
    // segment (segment_blocks_tuning).
    for (std::int64_t length : {std::int64_t(1), std::int64_t(32), std::int64_t(256), std::int64_t(4096), std::int64_t(0), n})
      bench_segment_shape(s, t, x, in, out, ws, length);
  }
  t.print();
}

// Two sorted u32 ranges, their merge by the yardstick (on the host), and our buffers.
struct merge_case {
  std::vector<std::uint32_t> a, b, merged;
  buffer<std::uint32_t> ba, bb, out;
};

// merge against the yardstick, then merge_by_key (no yardstick) checked against its output.
void bench_merge(session& s, table& t, merge_case& m, workspace& ws) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(m.a.size());
  const char* yard = s.on_gpu() ? "thrust" : "sequential";
  double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_ms = yardstick::thrust_merge_ms(s, m.ba.data(), n, m.bb.data(), n, m.out.data());
    m.merged = m.out.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms([&] { std::merge(m.a.begin(), m.a.end(), m.b.begin(), m.b.end(), m.merged.begin()); }, 3);
  m.out.fill_bytes(0xFF);  // all ones: an output left unwritten cannot pass as the yardstick's
  double ms = s.time_ms([&] { merge<std::uint32_t>(ctx, m.ba, m.bb, m.out, sort_order::ascending, &ws); });
  add_row(s, t, "merge", "2 x " + fmt_int(n), 2 * n, ms, 16.0 * double(n), yard_ms, yard,
          exact(m.out.to_host() == m.merged));

  // merge_by_key, u32 keys with u32 values (the values are the keys): no yardstick, the
  // bytes moved against the copy bandwidth.
  buffer<std::uint32_t> out_values(ctx, 2 * n);
  m.out.fill_bytes(0xFF);
  out_values.fill_bytes(0xFF);
  ms = s.time_ms([&] {
    merge_by_key<std::uint32_t, std::uint32_t>(ctx, m.ba, m.ba, m.bb, m.bb, m.out, out_values,
                                               sort_order::ascending, &ws);
  });
  add_row(s, t, "merge_by_key", "2 x " + fmt_int(n) + " u32/u32", 2 * n, ms, 32.0 * double(n), nan, yard,
          exact(m.out.to_host() == m.merged && out_values.to_host() == m.merged));
}

// lower_bound of the queries into the merged keys, against the yardstick.
void bench_lower_bound(session& s, table& t, const std::vector<std::uint32_t>& merged,
                       const buffer<std::uint32_t>& keys, const std::vector<std::uint32_t>& queries,
                       const std::string& shape) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(merged.size());
  auto q = buffer<std::uint32_t>::from_host(ctx, queries);
  buffer<std::int64_t> pos(ctx, q.size());
  std::vector<std::int64_t> expect(queries.size());
  double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_ms = yardstick::thrust_lower_bound_ms(s, keys.data(), n, q.data(), q.size(), pos.data());
    expect = pos.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms([&] {
      for (std::size_t i = 0; i < queries.size(); ++i)
        expect[i] = std::lower_bound(merged.begin(), merged.end(), queries[i]) - merged.begin();
    }, 3);
  pos.fill_bytes(0xFF);  // -1: an output left unwritten cannot pass as the yardstick's
  const double ms = s.time_ms([&] { lower_bound<std::uint32_t>(ctx, keys, q, pos); });
  add_row(s, t, "lower_bound", fmt_int(q.size()) + " " + shape, n, ms, 12.0 * double(q.size()), yard_ms,
          s.on_gpu() ? "thrust" : "sequential", exact(pos.to_host() == expect));
}

void run_merge_search(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {std::int64_t(1) << 27};
  if (!s.on_gpu()) defaults = {1 << 23};
  table t("merge and lower_bound, u32, on " + ctx.name(),
          {"primitive", "shape", "n", "ms", "GB/s", s.on_gpu() ? "Thrust ms" : "sequential ms", "vs yardstick",
           s.on_gpu() ? "same as Thrust" : "same as sequential"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 8)) {  // a, b, out (2n), out_values (2n), keys (2n)
    auto a = random_data<std::uint32_t>(n, 5);
    auto b = random_data<std::uint32_t>(n, 6);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    auto ba = buffer<std::uint32_t>::from_host(ctx, a);
    auto bb = buffer<std::uint32_t>::from_host(ctx, b);
    merge_case m{std::move(a), std::move(b), std::vector<std::uint32_t>(std::size_t(2 * n)), std::move(ba),
                 std::move(bb), buffer<std::uint32_t>(ctx, 2 * n)};
    workspace ws(ctx);
    bench_merge(s, t, m, ws);

    // lower_bound: n / 8 sorted queries into the 2n merged keys (2^24 into 2^28 at the default),
    // the yardstick's merge (which the merge row has compared ours with).
    auto keys = buffer<std::uint32_t>::from_host(ctx, m.merged);
    auto queries = random_data<std::uint32_t>(n / 8, 9);
    // The same queries shuffled: every tile of queries spans the whole key range, so the GPU
    // kernel takes its per-query binary search (the path that must not lose to the yardstick).
    auto sorted_queries = queries;
    std::sort(sorted_queries.begin(), sorted_queries.end());
    bench_lower_bound(s, t, m.merged, keys, sorted_queries, "sorted queries");
    bench_lower_bound(s, t, m.merged, keys, queries, "unsorted queries");
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("segmented", "segmented reduce / scan (segments of 1, 32, 256, 4096, power law, one segment) vs CUB",
                    46, run_segmented);
PARPRIM_BENCH_SUITE("merge_search", "merge of two sorted ranges vs thrust::merge; lower_bound vs thrust::lower_bound",
                    47, run_merge_search);

}  // namespace parprim::bench
