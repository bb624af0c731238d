// `parprim bench segmented`: segmented_reduce, segmented_inclusive_scan and
// segmented_exclusive_scan (f32, plus) over segments of 1, 32, 256 and 4096 elements, a
// power-law mix and one segment holding all n, vs CUB DeviceSegmentedReduce::Sum and (the
// scans) DeviceScan::InclusiveSumByKey / ExclusiveSumByKey over the elements' segment ids, CUB
// having no scan by offsets (the ids are built outside the timing, which favours CUB), on the
// GPU and the sequential oracle on the CPU.
// `parprim bench merge_search`: merge of two sorted u32 ranges vs thrust::merge, merge_by_key
// of u32/u32 pairs vs thrust::merge_by_key, and lower_bound and upper_bound of sorted (and of
// unsorted) u32 queries into a sorted range 16x larger vs thrust::lower_bound / upper_bound.
//
// Every row's output is checked against the yardstick's (check_figure in engine.hpp): the
// yardstick runs first and its output is copied to the host (the CPU oracle's is kept from its
// last timed run), then ours overwrites the same buffer (filled with all ones first) and is
// copied and compared after its timing. Merged keys and values and positions must be
// identical; f32 sums agree within sum_tolerance (checks.hpp), "max_rel_diff" saying how far
// apart they were.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
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

// Element i's segment number, on the device: the keys of the GPU yardstick's scans by key
// (segments are consecutive and non-empty ones differ, so the runs of equal ids are the
// segments). Empty on the CPU, whose oracle takes the offsets.
buffer<std::uint32_t> segment_ids(const session& s, const std::vector<std::int64_t>& offsets) {
  if (!s.on_gpu()) return buffer<std::uint32_t>(s.ctx(), 0);
  std::vector<std::uint32_t> ids(std::size_t(offsets.back() - offsets.front()));
  for (std::size_t seg = 0; seg + 1 < offsets.size(); ++seg)
    for (std::int64_t i = offsets[seg]; i < offsets[seg + 1]; ++i)
      ids[std::size_t(i - offsets.front())] = std::uint32_t(seg);
  return buffer<std::uint32_t>::from_host(s.ctx(), ids);
}

// One segment shape: x (on the device: in), its segments (offsets, on the device off and ids),
// the scans' output and the workspace.
struct shape_case {
  const std::vector<float>& x;
  const buffer<float>& in;
  buffer<float>& out;
  workspace& ws;
  std::string name;
  std::vector<std::int64_t> offsets;
  buffer<std::int64_t> off;
  buffer<std::uint32_t> ids;
  std::int64_t segments() const { return std::int64_t(offsets.size()) - 1; }
};

void bench_segmented_reduce(session& s, table& t, const shape_case& c) {
  const context& ctx = s.ctx();
  const std::int64_t n = c.in.size(), segments = c.segments();
  buffer<float> red(ctx, segments);
  std::vector<float> expect;
  double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_ms = yardstick::cub_segmented_sum_ms(s, c.in.data(), red.data(), c.off.data(), segments);
    expect = red.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms([&] { expect = reference::segmented_reduce(c.x, c.offsets, 0.0f, op::plus); }, 3);
  red.fill_bytes(0xFF);  // NaN: an output left unwritten cannot pass as the yardstick's
  const double ms = s.time_ms([&] { segmented_reduce<float>(ctx, c.in, c.off, red, 0.0f, op::plus, &c.ws); });
  const verdict check =
      compare_segment_sums(red.to_host().data(), expect.data(), segments, c.x, c.offsets, sums_of::total);
  add_row(s, t, "segmented_reduce", c.name, n, ms, 4.0 * double(n) + 12.0 * double(segments), yard_ms,
          s.on_gpu() ? "cub" : "sequential", check);
}

// segmented_inclusive_scan, or (inclusive false) segmented_exclusive_scan with init 0.
void bench_segmented_scan(session& s, table& t, shape_case& c, bool inclusive) {
  const context& ctx = s.ctx();
  const std::int64_t n = c.in.size();
  std::vector<float> expect;
  double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_ms = inclusive ? yardstick::cub_inclusive_sum_by_key_ms(s, c.ids.data(), c.in.data(), c.out.data(), n)
                        : yardstick::cub_exclusive_sum_by_key_ms(s, c.ids.data(), c.in.data(), c.out.data(), n);
    expect = c.out.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms(
        [&] { expect = reference::segmented_scan(c.x, c.offsets, op::plus, inclusive, 0.0f, c.x); }, 3);
  c.out.fill_bytes(0xFF);
  const double ms = s.time_ms([&] {
    if (inclusive) segmented_inclusive_scan<float>(ctx, c.in, c.off, c.out, op::plus, &c.ws);
    else segmented_exclusive_scan<float>(ctx, c.in, c.off, c.out, 0.0f, op::plus, &c.ws);
  });
  const sums_of prefixes = inclusive ? sums_of::inclusive_prefixes : sums_of::exclusive_prefixes;
  const verdict check =
      compare_segment_sums(c.out.to_host().data(), expect.data(), n, c.x, c.offsets, prefixes);
  add_row(s, t, inclusive ? "segmented_inclusive_scan" : "segmented_exclusive_scan", c.name, n, ms,
          8.0 * double(n) + 8.0 * double(c.segments()), yard_ms, s.on_gpu() ? "cub" : "sequential", check);
}

// One segment shape: segmented_reduce and both segmented scans of x (on the device: in) into
// out, against the yardstick.
void bench_segment_shape(session& s, table& t, const std::vector<float>& x, const buffer<float>& in,
                         buffer<float>& out, workspace& ws, std::int64_t length) {
  const std::int64_t n = in.size();
  auto offsets = make_offsets(n, length, 17);
  auto off = buffer<std::int64_t>::from_host(s.ctx(), offsets);
  auto ids = segment_ids(s, offsets);  // built here, outside the yardstick's timing
  const std::string name = length == 0 ? "power_law" : length == n ? "one_segment" : "len_" + std::to_string(length);
  shape_case c{x, in, out, ws, name, std::move(offsets), std::move(off), std::move(ids)};
  bench_segmented_reduce(s, t, c);
  bench_segmented_scan(s, t, c, true);
  bench_segmented_scan(s, t, c, false);
}

void run_segmented(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 26};
  if (!s.on_gpu()) defaults = {1 << 22};
  table t("segmented reduce / scans, f32 plus, on " + ctx.name(),
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

// merge against the yardstick.
void bench_merge(session& s, table& t, merge_case& m, workspace& ws) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(m.a.size());
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
  const double ms = s.time_ms([&] { merge<std::uint32_t>(ctx, m.ba, m.bb, m.out, sort_order::ascending, &ws); });
  add_row(s, t, "merge", "2 x " + fmt_int(n), 2 * n, ms, 16.0 * double(n), yard_ms,
          s.on_gpu() ? "thrust" : "sequential", exact(m.out.to_host() == m.merged));
}

// The sequential merge_by_key: on equal keys a's pair first, each range in order.
void sequential_merge_by_key(const merge_case& m, const std::vector<std::uint32_t>& av,
                             const std::vector<std::uint32_t>& bv, std::vector<std::uint32_t>& keys,
                             std::vector<std::uint32_t>& values) {
  std::size_t i = 0, j = 0, o = 0;
  for (; i < m.a.size() && j < m.b.size(); ++o) {
    const bool from_b = m.b[j] < m.a[i];
    keys[o] = from_b ? m.b[j] : m.a[i];
    values[o] = from_b ? bv[j++] : av[i++];
  }
  for (; i < m.a.size(); ++i, ++o) keys[o] = m.a[i], values[o] = av[i];
  for (; j < m.b.size(); ++j, ++o) keys[o] = m.b[j], values[o] = bv[j];
}

// merge_by_key of u32 keys with u32 values against the yardstick. The values are the elements'
// positions (a's 0 .. n-1, b's n .. 2n-1), so the check sees where every element went: equal
// keys (random u32 ranges share some) must come a's first, each range in its order.
void bench_merge_by_key(session& s, table& t, merge_case& m, workspace& ws) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(m.a.size());
  std::vector<std::uint32_t> av(static_cast<std::size_t>(n)), bv(static_cast<std::size_t>(n));
  std::iota(av.begin(), av.end(), 0u);
  std::iota(bv.begin(), bv.end(), std::uint32_t(n));
  auto bav = buffer<std::uint32_t>::from_host(ctx, av), bbv = buffer<std::uint32_t>::from_host(ctx, bv);
  buffer<std::uint32_t> out_values(ctx, 2 * n);
  std::vector<std::uint32_t> keys(std::size_t(2 * n)), values(std::size_t(2 * n));
  double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    yard_ms = yardstick::thrust_merge_by_key_ms(s, m.ba.data(), bav.data(), n, m.bb.data(), bbv.data(), n,
                                                m.out.data(), out_values.data());
    keys = m.out.to_host();
    values = out_values.to_host();
  }
#endif
  if (!s.on_gpu()) yard_ms = s.time_host_ms([&] { sequential_merge_by_key(m, av, bv, keys, values); }, 3);
  m.out.fill_bytes(0xFF);
  out_values.fill_bytes(0xFF);
  const double ms = s.time_ms([&] {
    merge_by_key<std::uint32_t, std::uint32_t>(ctx, m.ba, bav, m.bb, bbv, m.out, out_values, sort_order::ascending,
                                               &ws);
  });
  add_row(s, t, "merge_by_key", "2 x " + fmt_int(n) + " u32/u32", 2 * n, ms, 32.0 * double(n), yard_ms,
          s.on_gpu() ? "thrust" : "sequential", exact(m.out.to_host() == keys && out_values.to_host() == values));
}

// lower_bound, or (upper) upper_bound, of the queries into the merged keys, against the
// yardstick.
void bench_bound(session& s, table& t, bool upper, const std::vector<std::uint32_t>& merged,
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
    yard_ms = yardstick::thrust_bound_ms(s, upper, keys.data(), n, q.data(), q.size(), pos.data());
    expect = pos.to_host();
  }
#endif
  if (!s.on_gpu())
    yard_ms = s.time_host_ms([&] {
      for (std::size_t i = 0; i < queries.size(); ++i)
        expect[i] = (upper ? std::upper_bound(merged.begin(), merged.end(), queries[i])
                           : std::lower_bound(merged.begin(), merged.end(), queries[i])) -
                    merged.begin();
    }, 3);
  pos.fill_bytes(0xFF);  // -1: an output left unwritten cannot pass as the yardstick's
  const double ms = s.time_ms([&] {
    if (upper) upper_bound<std::uint32_t>(ctx, keys, q, pos);
    else lower_bound<std::uint32_t>(ctx, keys, q, pos);
  });
  add_row(s, t, upper ? "upper_bound" : "lower_bound", fmt_int(q.size()) + " " + shape, n, ms,
          12.0 * double(q.size()), yard_ms, s.on_gpu() ? "thrust" : "sequential", exact(pos.to_host() == expect));
}

void run_merge_search(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {std::int64_t(1) << 27};
  if (!s.on_gpu()) defaults = {1 << 23};
  table t("merge, merge_by_key, lower_bound and upper_bound, u32, on " + ctx.name(),
          {"primitive", "shape", "n", "ms", "GB/s", s.on_gpu() ? "Thrust ms" : "sequential ms", "vs yardstick",
           s.on_gpu() ? "same as Thrust" : "same as sequential"});
  // At most 8n u32 at a time: a, b, out (2n), and merge_by_key's input values (2n) and
  // out_values (2n) or, later, the searches' keys (2n) and queries.
  for (std::int64_t n : s.sizes_or(defaults, 4 * 8)) {
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
    bench_merge_by_key(s, t, m, ws);

    // Searches: n / 8 queries into the 2n merged keys (2^24 into 2^28 at the default), the
    // yardstick's merge (which the merge row has compared ours with). Every other query is one
    // of those keys, where lower_bound and upper_bound differ (random u32 alone would hardly
    // ever hit a key at small sizes, and a search that confused the two would pass its check);
    // the rest are random u32.
    auto keys = buffer<std::uint32_t>::from_host(ctx, m.merged);
    auto queries = random_data<std::uint32_t>(n / 8, 9);
    for (std::size_t i = 1; i < queries.size(); i += 2) queries[i] = m.merged[splitmix64(i) % m.merged.size()];
    // The queries unsorted: every tile of queries spans the whole key range, so the GPU kernel
    // takes its per-query binary search (the path that must not lose to the yardstick).
    auto sorted_queries = queries;
    std::sort(sorted_queries.begin(), sorted_queries.end());
    for (bool upper : {false, true}) {
      bench_bound(s, t, upper, m.merged, keys, sorted_queries, "sorted queries");
      bench_bound(s, t, upper, m.merged, keys, queries, "unsorted queries");
    }
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("segmented",
                    "segmented reduce / inclusive and exclusive scan (segments of 1, 32, 256, 4096, power law, "
                    "one segment) vs CUB",
                    46, run_segmented);
PARPRIM_BENCH_SUITE("merge_search",
                    "merge (and by key) of two sorted ranges vs thrust::merge(_by_key); lower/upper_bound vs thrust",
                    47, run_merge_search);

}  // namespace parprim::bench
