// `parprim bench top_k`: the k largest of n f32 (k = 1, 32, 1024, 2^16, sorted output) by
// radix select, against sorting all n and slicing (CUB DeviceRadixSort::SortKeysDescending on
// the GPU; std::partial_sort, the sequential baseline, on the CPU); segmented_top_k over
// segments of 4096 (k = 1, 32, 1024) vs parprim's segmented_sort of a copy (the slice not timed).
// Every row's output (filled with 0xFF bytes, NaNs, before the timed calls) must be bitwise the
// yardstick's first k keys, of each segment for segmented_top_k ("matches_segmented_sort"):
// check_figure in engine.hpp.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
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

void run_top_k(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 28};
  if (!s.on_gpu()) defaults = {1 << 24};
  const char* yard = s.on_gpu() ? "cub_sort_then_slice" : "sequential_partial_sort";
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
    for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(1024), std::int64_t(1) << 16}) {
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
      const verdict check = exact(same_bits(out.to_host(), y));
      row r;
      r.primitive = "top_k";
      r.variant = "radix_select";
      r.type = "f32";
      r.n = n;
      r.ms = ms;
      r.gbps = 4.0 * double(n) / (ms * 1e6);
      if (!std::isnan(yard_ms)) {
        r.yardstick = yard;
        r.yardstick_ms = yard_ms;
      }
      r.extra["k"] = double(k);
      record_check(r, s.on_gpu(), check);
      s.add(std::move(r));
      t.add({fmt_int(n), fmt_int(k), fmt(ms, 4), fmt(4.0 * double(n) / (ms * 1e6), 0), fmt(yard_ms, 4),
             fmt(yard_ms / ms, 2), check_cell(check.matches)});
    }
  }
  t.print();
}

// segmented_top_k (k largest of every segment, sorted) over segments of 4096 f32, against
// parprim's own segmented_sort of a copy of the keys (descending) with the slice left out:
// the sort-then-slice a caller would write otherwise.
void run_segmented_top_k(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {1 << 24};
  if (!s.on_gpu()) defaults = {1 << 20};
  table t("segmented_top_k (k largest of each segment of 4096, sorted), f32, on " + ctx.name(),
          {"n", "k", "ms", "GB/s", "segmented_sort ms", "vs yardstick", "same as segmented_sort"});
  constexpr std::int64_t length = 4096;
  for (std::int64_t n : s.sizes_or(defaults, 4 * 2)) {
    auto x = random_data<float>(n, 23);
    auto in = buffer<float>::from_host(ctx, x);
    std::vector<std::int64_t> offsets;
    for (std::int64_t p = 0; p < n; p += length) offsets.push_back(p);
    offsets.push_back(n);
    const std::int64_t segments = std::int64_t(offsets.size()) - 1;
    auto off = buffer<std::int64_t>::from_host(ctx, offsets);
    workspace ws(ctx);
    buffer<float> work(ctx, n);
    const double copy_ms = s.time_ms([&] { ctx.copy(work.data(), in.data(), in.bytes()); });
    const double sort_ms = std::max(s.time_ms([&] {
      ctx.copy(work.data(), in.data(), in.bytes());
      segmented_sort<float>(ctx, work, off, sort_order::descending, &ws);
    }) - copy_ms, 1e-6);
    const std::vector<float> sorted = work.to_host();  // each segment in descending order
    for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(1024)}) {
      buffer<float> out(ctx, segments * k);
      out.fill_bytes(0xFF);
      const double ms = s.time_ms([&] { segmented_top_k<float>(ctx, in, off, k, out, sort_order::descending, true, &ws); });
      // Each segment's first min(k, length) keys; slots past a shorter last segment keep
      // their 0xFF bytes.
      std::vector<float> want(std::size_t(segments * k));
      std::memset(want.data(), 0xFF, want.size() * sizeof(float));
      for (std::int64_t g = 0; g < segments; ++g)
        std::copy_n(sorted.begin() + offsets[g], std::min(k, offsets[g + 1] - offsets[g]), want.begin() + g * k);
      const verdict check = exact(same_bits(out.to_host(), want));
      row r;
      r.primitive = "segmented_top_k";
      r.variant = "len_4096";
      r.type = "f32";
      r.n = n;
      r.ms = ms;
      r.gbps = 4.0 * double(n) / (ms * 1e6);
      r.yardstick = "segmented_sort_then_slice";
      r.yardstick_ms = sort_ms;
      r.extra["k"] = double(k);
      record_check(r, "matches_segmented_sort", check);
      s.add(std::move(r));
      t.add({fmt_int(n), fmt_int(k), fmt(ms, 4), fmt(4.0 * double(n) / (ms * 1e6), 0), fmt(sort_ms, 4),
             fmt(sort_ms / ms, 2), check_cell(check.matches)});
    }
  }
  t.print();
}

void run_top_k_suite(session& s) {
  run_top_k(s);
  run_segmented_top_k(s);
}

}  // namespace

PARPRIM_BENCH_SUITE("top_k",
                    "top_k by radix select (k = 1, 32, 1024, 2^16) vs sort-then-slice; segmented_top_k vs segmented_sort",
                    48, run_top_k_suite);

}  // namespace parprim::bench
