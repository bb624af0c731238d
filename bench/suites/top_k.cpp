// `parprim bench top_k`: the k largest of n f32 (k = 1, 32, 1024, 2^16, sorted output) by
// radix select, against sorting all n and slicing (CUB DeviceRadixSort::SortKeysDescending on
// the GPU; std::partial_sort, the sequential baseline, on the CPU); segmented_top_k over
// segments of 4096 (k = 1, 32, 1024) vs parprim's segmented_sort of a copy (the slice not timed).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

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
          {"n", "k", "ms", "GB/s", s.on_gpu() ? "sort+slice ms" : "partial_sort ms", "vs yardstick"});
  for (std::int64_t n : s.sizes_or(defaults, 4 * 2)) {
    auto x = random_data<float>(n, 21);
    auto in = buffer<float>::from_host(ctx, x);
    workspace ws(ctx);
    double sort_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) {
      buffer<float> sorted(ctx, n);
      sort_ms = yardstick::cub_sort_then_slice_ms(s, in.data(), sorted.data(), n);
    }
#endif
    for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(1024), std::int64_t(1) << 16}) {
      if (k > n) continue;
      buffer<float> out(ctx, k);
      const double ms = s.time_ms([&] { top_k<float>(ctx, in, k, out, sort_order::descending, true, &ws); });
      double yard_ms = sort_ms;
      if (!s.on_gpu()) {
        std::vector<float> y;
        yard_ms = s.time_host_ms([&] {
          y = x;
          std::partial_sort(y.begin(), y.begin() + k, y.end(), std::greater<float>());
        }, 3);
      }
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
      s.add(std::move(r));
      t.add({fmt_int(n), fmt_int(k), fmt(ms, 4), fmt(4.0 * double(n) / (ms * 1e6), 0), fmt(yard_ms, 4),
             fmt(yard_ms / ms, 2)});
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
          {"n", "k", "ms", "GB/s", "segmented_sort ms", "vs yardstick"});
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
    for (std::int64_t k : {std::int64_t(1), std::int64_t(32), std::int64_t(1024)}) {
      buffer<float> out(ctx, segments * k);
      const double ms = s.time_ms([&] { segmented_top_k<float>(ctx, in, off, k, out, sort_order::descending, true, &ws); });
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
      s.add(std::move(r));
      t.add({fmt_int(n), fmt_int(k), fmt(ms, 4), fmt(4.0 * double(n) / (ms * 1e6), 0), fmt(sort_ms, 4),
             fmt(sort_ms / ms, 2)});
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
