// `parprim bench reduce` and `parprim bench scan`.
//
// Two views per primitive:
//  1. The seed's Table 2: n, sequential CPU ms, our ms on the chosen backend, speedup, GB/s,
//     the copy bandwidth of the same run, and (on CUDA) CUB's ms beside ours.
//  2. The ladder (--variants, and always at the largest size on CUDA): every variant with
//     time, GB/s, speedup over the first variant and ratio against CUB, for u32 and f32.
// Every row's output is checked against the sequential definition, copied back after the
// timed calls and before the yardstick reuses the output buffer: u32 results (mod 2^32)
// exactly, f32 sums and prefixes within sum_tolerance * sum|x| of the sums taken in double
// (checks.hpp). Figure "matches_sequential" on both backends (check_figure in engine.hpp).
#include <cmath>
#include <limits>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "reference/reduce_scan_ref.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_reduce_scan.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::vector<std::int64_t> table2_sizes() {
  std::vector<std::int64_t> s;
  for (int k = 10; k <= 24; k += 2) s.push_back(std::int64_t(1) << k);
  s.push_back(std::int64_t(1) << 28);
  return s;
}

enum class kind { reduce, exclusive_scan, inclusive_scan };

const char* name_of(kind k) {
  return k == kind::reduce ? "reduce" : k == kind::exclusive_scan ? "exclusive_scan" : "inclusive_scan";
}

// Bytes the primitive must move: reduce reads n; a scan reads n and writes n.
template <class T>
double bytes_moved(kind k, std::int64_t n) {
  return double(n) * sizeof(T) * (k == kind::reduce ? 1 : 2);
}

// Runs one variant of one primitive on device data; no host synchronization.
template <class T>
void run_ours(session& s, kind k, int variant, const buffer<T>& in, buffer<T>& out, workspace& ws) {
  if (k == kind::reduce)
    reduce_into<T>(s.ctx(), in, out.view().subspan(0, 1), op::plus,
                   static_cast<reduce_algorithm>(variant), &ws);
  else if (k == kind::exclusive_scan)
    exclusive_scan<T>(s.ctx(), in, out, T(0), op::plus, static_cast<scan_algorithm>(variant), &ws);
  else
    inclusive_scan<T>(s.ctx(), in, out, op::plus, static_cast<scan_algorithm>(variant), &ws);
}

int production_variant(kind k) {
  return k == kind::reduce ? int(reduce_algorithm::production)
                           : int(scan_algorithm::decoupled_lookback);
}
int variant_count(kind k) { return k == kind::reduce ? 3 : 4; }
std::string variant_name(kind k, int v) {
  return k == kind::reduce ? to_string(static_cast<reduce_algorithm>(v))
                           : to_string(static_cast<scan_algorithm>(v));
}

// CUB's time for the same work in the same run, or NaN where there is no yardstick.
template <class T>
double yardstick_ms(session& s, kind k, const buffer<T>& in, buffer<T>& out) {
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    if (k == kind::reduce) return yardstick::cub_reduce_sum_ms<T>(s, in.data(), out.data(), in.size());
    if (k == kind::exclusive_scan) return yardstick::cub_exclusive_sum_ms<T>(s, in.data(), out.data(), in.size());
    return yardstick::cub_inclusive_sum_ms<T>(s, in.data(), out.data(), in.size());
  }
#endif
  (void)s, (void)k, (void)in, (void)out;
  return nan;
}

template <class T>
double sequential_ms(session& s, kind k, const std::vector<T>& x, std::vector<T>& y) {
  const std::int64_t n = std::int64_t(x.size());
  volatile T sink{};
  return s.time_host_ms([&] {
    if (k == kind::reduce) sink = reference::sequential_sum(x.data(), n);
    else if (k == kind::exclusive_scan) reference::sequential_exclusive_sum(x.data(), y.data(), n);
    else reference::sequential_inclusive_sum(x.data(), y.data(), n);
  });
}

// Our output (one element for reduce, n for a scan) against the sequential definition.
template <class T>
verdict check_output(const context& ctx, kind k, const std::vector<T>& x, const buffer<T>& out) {
  const std::int64_t n = std::int64_t(x.size());
  const sums_of which = k == kind::reduce           ? sums_of::total
                        : k == kind::exclusive_scan ? sums_of::exclusive_prefixes
                                                    : sums_of::inclusive_prefixes;
  return check_sums(x, head(ctx, out, k == kind::reduce ? 1 : n), which);
}

void add_row(session& s, kind k, const std::string& variant, const char* type, std::int64_t n,
             double ms, double bytes, const char* yard, double yard_ms, double seq_ms,
             const verdict& check) {
  row r;
  r.primitive = name_of(k);
  r.variant = variant;
  r.type = type;
  r.n = n;
  r.ms = ms;
  r.gbps = bytes / (ms * 1e6);
  if (yard && !std::isnan(yard_ms)) {
    r.yardstick = yard;
    r.yardstick_ms = yard_ms;
  }
  if (!std::isnan(seq_ms)) r.extra["seq_cpu_ms"] = seq_ms;
  r.extra["copy_gbps"] = s.copy_gbps();
  r.extra["pct_of_copy"] = 100.0 * r.gbps / s.copy_gbps();
  record_check(r, "matches_sequential", check);
  s.add(std::move(r));
}

// The seed's Table 2 for one primitive and type.
template <class T>
void table2(session& s, kind k) {
  const char* yard = s.on_gpu() ? "cub" : "sequential";
  table t(std::string(name_of(k)) + " " + type_name<T>() + " on " + s.ctx().name() +
              " (Table 2 of the course; copy bandwidth " + fmt(s.copy_gbps(), 0) + " GB/s)",
          s.on_gpu() ? std::vector<std::string>{"n", "seq CPU ms", s.ctx().name() + " ms", "speedup",
                                                "GB/s", "% of copy", "CUB ms", "vs CUB", "same as seq"}
                     : std::vector<std::string>{"n", "seq CPU ms", s.ctx().name() + " ms", "speedup",
                                                "GB/s", "% of copy", "same as seq"});
  for (std::int64_t n : s.sizes_or(table2_sizes(), 2 * sizeof(T))) {
    auto x = random_data<T>(n, 7 + n);
    std::vector<T> y(static_cast<std::size_t>(n));
    double seq = sequential_ms(s, k, x, y);
    auto in = buffer<T>::from_host(s.ctx(), x);
    buffer<T> out(s.ctx(), n);
    out.fill_bytes(0xA5);
    workspace ws(s.ctx());
    double ms = s.time_ms([&] { run_ours(s, k, production_variant(k), in, out, ws); });
    const verdict check = check_output(s.ctx(), k, x, out);
    double yard_ms = s.on_gpu() ? yardstick_ms(s, k, in, out) : seq;
    double bytes = bytes_moved<T>(k, n);
    add_row(s, k, variant_name(k, production_variant(k)), type_name<T>(), n, ms, bytes, yard, yard_ms, seq,
            check);
    std::vector<std::string> cells{fmt_int(n), fmt(seq, 4), fmt(ms, 4), fmt(seq / ms, 1),
                                   fmt(bytes / (ms * 1e6), 0),
                                   fmt(100.0 * bytes / (ms * 1e6) / s.copy_gbps(), 0)};
    if (s.on_gpu()) {
      cells.push_back(fmt(yard_ms, 4));
      cells.push_back(fmt(yard_ms / ms, 2));
    }
    cells.push_back(check_cell(check.matches));
    t.add(std::move(cells));
  }
  t.print();
}

// The ladder: every variant at one size, against CUB (and Thrust for the exclusive scan).
template <class T>
void ladder(session& s, kind k) {
  std::int64_t n = s.opts().sizes.empty() ? (std::int64_t(1) << 28) : s.opts().sizes.back();
  while (n > 1024 && !s.fits(n, sizeof(T), 3)) n /= 2;
  auto x = random_data<T>(n, 11);
  auto in = buffer<T>::from_host(s.ctx(), x);
  buffer<T> out(s.ctx(), n);
  workspace ws(s.ctx());
  double bytes = bytes_moved<T>(k, n);
  double yard = yardstick_ms(s, k, in, out);
  table t(std::string(name_of(k)) + " " + type_name<T>() + " n=" + fmt_int(n) + " on " +
              s.ctx().name() + ": the ladder of variants (copy " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"variant", "ms", "GB/s", "% of copy", "speedup vs first", "vs CUB", "same as seq"});
  double first = nan;
  for (int v = 0; v < variant_count(k); ++v) {
    out.fill_bytes(0xA5);
    double ms = s.time_ms([&] { run_ours(s, k, v, in, out, ws); });
    const verdict check = check_output(s.ctx(), k, x, out);
    if (std::isnan(first)) first = ms;
    add_row(s, k, variant_name(k, v), type_name<T>(), n, ms, bytes, std::isnan(yard) ? nullptr : "cub", yard, nan,
            check);
    t.add({variant_name(k, v), fmt(ms, 4), fmt(bytes / (ms * 1e6), 0),
           fmt(100.0 * bytes / (ms * 1e6) / s.copy_gbps(), 1), fmt(first / ms, 2),
           std::isnan(yard) ? "" : fmt(yard / ms, 3), check_cell(check.matches)});
  }
  if (!std::isnan(yard)) {
    add_row(s, k, "cub", type_name<T>(), n, yard, bytes, nullptr, nan, nan, verdict{});
    t.add({"CUB", fmt(yard, 4), fmt(bytes / (yard * 1e6), 0),
           fmt(100.0 * bytes / (yard * 1e6) / s.copy_gbps(), 1), fmt(first / yard, 2), "1.000", "-"});
  }
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu() && k == kind::exclusive_scan) {
    double th = yardstick::thrust_exclusive_scan_ms<T>(s, in.data(), out.data(), n);
    add_row(s, k, "thrust", type_name<T>(), n, th, bytes, "cub", yard, nan, verdict{});
    t.add({"Thrust", fmt(th, 4), fmt(bytes / (th * 1e6), 0),
           fmt(100.0 * bytes / (th * 1e6) / s.copy_gbps(), 1), fmt(first / th, 2), fmt(yard / th, 3), "-"});
  }
#endif
  t.print();
}

void run(session& s, kind k) {
  if (!s.opts().variants) {
    table2<std::uint32_t>(s, k);
    if (k == kind::reduce) table2<float>(s, k);
    // 8-byte scans take the other status-word encoding (cuda/detail/tile_status.cuh).
    if (k != kind::reduce && s.on_gpu()) {
      table2<std::uint64_t>(s, k);
      table2<double>(s, k);
    }
  }
  // The ladder compares GPU kernels; on the CPU every variant runs the same blocked loop.
  if (s.on_gpu() || s.opts().variants) {
    ladder<std::uint32_t>(s, k);
    ladder<float>(s, k);
  }
}

void run_reduce(session& s) { run(s, kind::reduce); }
void run_scan(session& s) {
  run(s, kind::exclusive_scan);
  run(s, kind::inclusive_scan);
}

}  // namespace

PARPRIM_BENCH_SUITE("reduce", "reduce (plus): Table 2 vs sequential CPU and CUB; every variant", 10,
                    run_reduce);
PARPRIM_BENCH_SUITE("scan", "exclusive/inclusive scan: Table 2 vs sequential CPU and CUB; every variant",
                    20, run_scan);

}  // namespace parprim::bench
