// `parprim bench top_k`: the k largest of n f32 (k = 1, 32, 1024, 2^16, sorted output) by
// radix select, top_k and top_k_pairs (u32 values), against sorting all n and slicing (CUB
// DeviceRadixSort::SortKeysDescending / SortPairsDescending on the GPU; std::partial_sort, the
// sequential baseline, on the CPU); segmented_top_k over segments of 256 and of 4096, one
// segment, one long segment before segments of 4096, one segment of ascending keys (k = 1, 32,
// 1024) vs parprim's segmented_sort of a copy (the slice not timed).
// Every row's output (filled with 0xFF bytes, NaNs, before the timed calls) must be bitwise the
// yardstick's first k keys (and values), of each segment for segmented_top_k
// ("matches_segmented_sort"): check_figure in engine.hpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_runs.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The k values of the top_k and top_k_pairs rows.
constexpr std::int64_t ks[] = {1, 32, 1024, std::int64_t(1) << 16};

// What a top_k or top_k_pairs row measured.
struct top_k_args {
  const char* primitive;
  const char* type;
  std::int64_t n, k;
  double ms, yard_ms;
};

// One row against sort-then-slice. Bytes moved: the n keys, all that must be read (of the
// values of top_k_pairs only the k chosen ones).
void add_top_k_row(session& s, table& t, const top_k_args& a, const verdict& check) {
  row r;
  r.primitive = a.primitive;
  r.variant = "radix_select";
  r.type = a.type;
  r.n = a.n;
  r.ms = a.ms;
  r.gbps = 4.0 * double(a.n) / (a.ms * 1e6);
  const std::string gbps = fmt(r.gbps, 0);
  if (!std::isnan(a.yard_ms)) {
    r.yardstick = s.on_gpu() ? "cub_sort_then_slice" : "sequential_partial_sort";
    r.yardstick_ms = a.yard_ms;
  }
  r.extra["k"] = double(a.k);
  record_check(r, s.on_gpu(), check);
  s.add(std::move(r));
  t.add({fmt_int(a.n), fmt_int(a.k), fmt(a.ms, 4), gbps, fmt(a.yard_ms, 4), fmt(a.yard_ms / a.ms, 2),
         check_cell(check.matches)});
}

void run_top_k(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 28};
  if (!s.on_gpu()) defaults = {1 << 24};
  table t("top_k (k largest, sorted), f32, on " + ctx.name(),
          {"n", "k", "ms", "GB/s", s.on_gpu() ? "sort+slice ms" : "partial_sort ms", "vs yardstick",
           s.on_gpu() ? "same as CUB" : "same as sequential"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 2)) {
    auto x = random_data<float>(n, 21);
    auto in = buffer<float>::from_host(ctx, x);
    workspace ws(ctx);
    double sort_ms = nan;
    buffer<float> sorted(ctx, s.on_gpu() ? n : 0);  // CUB's descending sort of x
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) sort_ms = yardstick::cub_sort_then_slice_ms(s, in.data(), sorted.data(), n);
#endif
    for (std::int64_t k : ks) {
      if (k > n) continue;
      buffer<float> out(ctx, k);
      out.fill_bytes(0xFF);
      const double ms = s.time_ms([&] { top_k<float>(ctx, in, k, out, sort_order::descending, true, &ws); });
      double yard_ms = sort_ms;
      std::vector<float> y;  // the yardstick's k largest, in order
      if (s.on_gpu()) {
        y = head(ctx, sorted, k);
      } else {
        yard_ms = s.time_host_ms([&] {
          y = x;
          std::partial_sort(y.begin(), y.begin() + k, y.end(), std::greater<float>());
        }, 3);
        y.resize(std::size_t(k));
      }
      add_top_k_row(s, t, {"top_k", "f32", n, k, ms, yard_ms}, exact(same_bits(out.to_host(), y)));
    }
  }
  t.print();
}

// The sequential top_k_pairs: std::partial_sort of every (key, position) pair, the larger key
// first and of equal keys the earlier (top_k_pairs' ties), the first k kept. Building the pairs
// is part of its time, as the top_k row's oracle times its copy of the keys.
void partial_sort_pairs(const std::vector<float>& x, std::int64_t k, std::vector<float>& keys,
                        std::vector<std::uint32_t>& values) {
  std::vector<std::pair<float, std::uint32_t>> p(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) p[i] = {x[i], std::uint32_t(i)};
  std::partial_sort(p.begin(), p.begin() + k, p.end(), [](const auto& a, const auto& b) {
    return a.first > b.first || (a.first == b.first && a.second < b.second);
  });
  keys.resize(std::size_t(k));
  values.resize(std::size_t(k));
  for (std::size_t i = 0; i < std::size_t(k); ++i) keys[i] = p[i].first, values[i] = p[i].second;
}

// top_k_pairs of the same keys with u32 values, each key's position: the check then sees which
// of equal keys were taken and in what order, which must be the stable sort's (CUB's radix sort
// is stable). At the default sizes there are many: uniform f32 in [0, 1) are 2^-24 apart near 1,
// so the 2^16 largest of 2^24 fall on about 2^16 values (a key on each on average, many of them
// repeated), and those of 2^28 on about 16 keys to a value.
void run_top_k_pairs(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 28};
  if (!s.on_gpu()) defaults = {1 << 24};
  table t("top_k_pairs (k largest keys with their values, sorted), f32/u32, on " + ctx.name(),
          {"n", "k", "ms", "GB/s", s.on_gpu() ? "sort+slice ms" : "partial_sort ms", "vs yardstick",
           s.on_gpu() ? "same as CUB" : "same as sequential"});
  // Keys and values, their sorted copies on the GPU, and about as much again of CUB's temp.
  for (std::int64_t n : s.sizes_or(defaults, 4 * 6)) {
    auto x = random_data<float>(n, 21);
    std::vector<std::uint32_t> positions(static_cast<std::size_t>(n));
    std::iota(positions.begin(), positions.end(), 0u);
    auto keys = buffer<float>::from_host(ctx, x);
    auto values = buffer<std::uint32_t>::from_host(ctx, positions);
    workspace ws(ctx);
    double sort_ms = nan;
    buffer<float> sorted_keys(ctx, s.on_gpu() ? n : 0);  // CUB's descending sort of the pairs
    buffer<std::uint32_t> sorted_values(ctx, s.on_gpu() ? n : 0);
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu())
      sort_ms = yardstick::cub_sort_pairs_then_slice_ms(s, keys.data(), values.data(), sorted_keys.data(),
                                                        sorted_values.data(), n);
#endif
    for (std::int64_t k : ks) {
      if (k > n) continue;
      buffer<float> keys_out(ctx, k);
      buffer<std::uint32_t> values_out(ctx, k);
      keys_out.fill_bytes(0xFF);
      values_out.fill_bytes(0xFF);
      const double ms = s.time_ms([&] {
        top_k_pairs<float, std::uint32_t>(ctx, keys, values, k, keys_out, values_out, sort_order::descending, true,
                                          &ws);
      });
      double yard_ms = sort_ms;
      std::vector<float> yk;  // the yardstick's k largest keys and their values, in order
      std::vector<std::uint32_t> yv;
      if (s.on_gpu()) {
        yk = head(ctx, sorted_keys, k);
        yv = head(ctx, sorted_values, k);
      } else {
        yard_ms = s.time_host_ms([&] { partial_sort_pairs(x, k, yk, yv); }, 3);
      }
      add_top_k_row(s, t, {"top_k_pairs", "f32/u32", n, k, ms, yard_ms},
                    exact(same_bits(keys_out.to_host(), yk) && same_bits(values_out.to_host(), yv)));
    }
  }
  t.print();
}

// The segment layouts of the segmented_top_k rows: segments of 256 and of 4096, a single
// segment, half of the keys in one segment followed by segments of 4096, and a single segment
// of the keys in ascending order (every key beats the k largest seen before it: the worst case
// of a select that keeps a running list).
std::vector<std::int64_t> segment_offsets(const std::string& layout, std::int64_t n) {
  const std::int64_t length = layout == "len_256" ? 256 : 4096;
  std::vector<std::int64_t> offsets{0};
  if (layout == "one_segment" || layout == "ascending") {
    offsets.push_back(n);
    return offsets;
  }
  if (layout == "skewed") offsets.push_back(n / 2);
  for (std::int64_t p = offsets.back() + length; p < n; p += length) offsets.push_back(p);
  offsets.push_back(n);
  return offsets;
}

// segmented_top_k (k largest of every segment, sorted) in each layout above, f32, against
// parprim's own segmented_sort of a copy of the keys (descending) with the slice left out:
// the sort-then-slice a caller would write otherwise.
void run_segmented_top_k(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 24};
  if (!s.on_gpu()) defaults = {1 << 20};
  table t("segmented_top_k (k largest of each segment, sorted), f32, on " + ctx.name() +
              "; layouts: len_256 / len_4096 = segments of 256 / 4096, one_segment, skewed = half "
              "the keys in one segment and the rest in segments of 4096, ascending = one segment of "
              "ascending keys",
          {"layout", "n", "k", "ms", "GB/s", "segmented_sort ms", "vs yardstick", "same as segmented_sort"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 2)) {
    auto x = random_data<float>(n, 23);
    const auto random_keys = buffer<float>::from_host(ctx, x);
    std::sort(x.begin(), x.end());
    const auto ascending_keys = buffer<float>::from_host(ctx, x);
    workspace ws(ctx);
    buffer<float> work(ctx, n);
    const double copy_ms = s.time_ms([&] { ctx.copy(work.data(), random_keys.data(), random_keys.bytes()); });
    for (const std::string layout : {"len_256", "len_4096", "one_segment", "skewed", "ascending"}) {
      const buffer<float>& in = layout == "ascending" ? ascending_keys : random_keys;
      const std::vector<std::int64_t> offsets = segment_offsets(layout, n);
      const std::int64_t segments = std::int64_t(offsets.size()) - 1;
      auto off = buffer<std::int64_t>::from_host(ctx, offsets);
      const double sort_ms = std::max(s.time_ms([&] {
        ctx.copy(work.data(), in.data(), in.bytes());
        segmented_sort<float>(ctx, work, off, sort_order::descending, &ws);
      }) - copy_ms, 1e-6);
      const std::vector<float> sorted = work.to_host();  // each segment in descending order
      for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(1024)}) {
        buffer<float> out(ctx, segments * k);
        out.fill_bytes(0xFF);
        const double ms =
            s.time_ms([&] { segmented_top_k<float>(ctx, in, off, k, out, sort_order::descending, true, &ws); });
        // Each segment's first min(k, length) keys; slots past a shorter segment keep their
        // 0xFF bytes.
        std::vector<float> want(std::size_t(segments * k));
        std::memset(want.data(), 0xFF, want.size() * sizeof(float));
        for (std::int64_t g = 0; g < segments; ++g)
          std::copy_n(sorted.begin() + offsets[g], std::min(k, offsets[g + 1] - offsets[g]), want.begin() + g * k);
        const verdict check = exact(same_bits(out.to_host(), want));
        row r;
        r.primitive = "segmented_top_k";
        r.variant = layout;
        r.type = "f32";
        r.n = n;
        r.ms = ms;
        r.gbps = 4.0 * double(n) / (ms * 1e6);
        r.yardstick = "segmented_sort_then_slice";
        r.yardstick_ms = sort_ms;
        r.extra["k"] = double(k);
        record_check(r, "matches_segmented_sort", check);
        s.add(std::move(r));
        t.add({layout, fmt_int(n), fmt_int(k), fmt(ms, 4), fmt(4.0 * double(n) / (ms * 1e6), 0), fmt(sort_ms, 4),
               fmt(sort_ms / ms, 2), check_cell(check.matches)});
      }
    }
  }
  t.print();
}

void run_top_k_suite(session& s) {
  run_top_k(s);
  run_top_k_pairs(s);
  run_segmented_top_k(s);
}

}  // namespace

PARPRIM_BENCH_SUITE("top_k",
                    "top_k and top_k_pairs by radix select (k = 1, 32, 1024, 2^16) vs sort-then-slice; "
                    "segmented_top_k vs segmented_sort",
                    48, run_top_k_suite);

}  // namespace parprim::bench
