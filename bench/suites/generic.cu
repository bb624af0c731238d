// `parprim bench generic`: the generic primitives with a caller's functor beside the
// precompiled ones, same data, same run (compiled by nvcc, as a CUDA user's code would be).
//
//   reduce, exclusive_scan, copy_if (u32, f32): precompiled op/predicate vs a plus / less
//     functor that the library knows nothing about (so reduce takes its ordered layout);
//   stats reduce: {min, max, sum} of f32 in one pass (transform_reduce), as % of copy
//     bandwidth counting only the bytes read.
// A second table (generic_runs.cu) covers by-key, unique, segmented, merge and lower_bound.
//
// Every row's output (poisoned with 0xFF bytes, NaN for f32, before its timed calls) is copied
// back after them and checked against the sequential definition on the host, as the reduce,
// scan and partition suites check theirs: u32 sums and prefixes bitwise (mod 2^32), f32 sums
// and prefixes within sum_tolerance * sum|x| of the sums taken in double (check_sums in
// checks.hpp), copy_if's count and selection bitwise, {min, max, sum}: min and max bitwise and
// the sum as an f32 sum. Figure "matches_sequential", on the precompiled and the generic rows.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "reference/partition_ref.hpp"

namespace parprim::bench {

void run_generic_runs(session& s, std::int64_t n);  // generic_runs.cu

namespace {

template <class T>
struct user_plus {
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T>
struct user_less {
  T limit;
  __host__ __device__ bool operator()(T x) const { return x < limit; }
};

struct min_max_sum {
  float min, max, sum;
};
struct to_min_max_sum {
  __host__ __device__ min_max_sum operator()(float x) const { return {x, x, x}; }
};
struct merge_min_max_sum {
  __host__ __device__ min_max_sum operator()(const min_max_sum& a, const min_max_sum& b) const {
    return {b.min < a.min ? b.min : a.min, a.max < b.max ? b.max : a.max, a.sum + b.sum};
  }
};

void add_row(session& s, const char* primitive, const char* variant, const char* type,
             std::int64_t n, double ms, double bytes, double precompiled_ms, const verdict& check) {
  row r;
  r.primitive = primitive;
  r.variant = variant;
  r.type = type;
  r.n = n;
  r.ms = ms;
  r.gbps = bytes / (ms * 1e6);
  if (!std::isnan(precompiled_ms)) {
    r.yardstick = "precompiled";
    r.yardstick_ms = precompiled_ms;
  }
  r.extra["copy_gbps"] = s.copy_gbps();
  r.extra["pct_of_copy"] = 100.0 * r.gbps / s.copy_gbps();
  record_check(r, "matches_sequential", check);
  s.add(std::move(r));
}

template <class T>
void pair_rows(session& s, table& t, std::int64_t n) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const context& ctx = s.ctx();
  const char* type = type_name<T>();
  const std::vector<T> x = random_data<T>(n, 5);
  auto in = buffer<T>::from_host(ctx, x);
  buffer<T> out(ctx, n);
  buffer<std::int64_t> count(ctx, 1);
  workspace ws(ctx);
  const double bytes = double(n) * sizeof(T);
  // The precompiled call, then the generic one, each timed on poisoned outputs and checked.
  auto report = [&](const char* primitive, double traffic, auto precompiled, auto generic, auto check) {
    auto timed = [&](auto call, verdict& v) {
      out.fill_bytes(0xFF);
      count.fill_bytes(0xFF);
      const double ms = s.time_ms(call);
      v = check();
      return ms;
    };
    verdict pre_check, gen_check;
    const double pre = timed(precompiled, pre_check);
    const double gen = timed(generic, gen_check);
    add_row(s, primitive, "precompiled", type, n, pre, traffic, nan, pre_check);
    add_row(s, primitive, "generic functor", type, n, gen, traffic, pre, gen_check);
    t.add({primitive, type, fmt(pre, 4), fmt(gen, 4), fmt(pre / gen, 3),
           fmt(100.0 * traffic / (gen * 1e6) / s.copy_gbps(), 1), check_cell(pre_check.matches),
           check_cell(gen_check.matches)});
  };
  const span<T> result = out.view().subspan(0, 1);
  report(
      "reduce", bytes, [&] { reduce_into<T>(ctx, in, result, op::plus, reduce_algorithm::production, &ws); },
      [&] { reduce_into(ctx, in.view(), result, T(0), user_plus<T>{}, &ws); },
      [&] { return check_sums(x, head(ctx, out, 1), sums_of::total); });
  report(
      "exclusive_scan", 2 * bytes,
      [&] { exclusive_scan<T>(ctx, in, out, T(0), op::plus, scan_algorithm::decoupled_lookback, &ws); },
      [&] { exclusive_scan(ctx, in.view(), out.view(), T(0), user_plus<T>{}, &ws); },
      [&] { return check_sums(x, out.to_host(), sums_of::exclusive_prefixes); });
  // random_data: integers over their range, floats in [0, 1): about half selected.
  const T limit = std::is_floating_point_v<T> ? T(0.5) : T(std::numeric_limits<T>::max() / 2);
  const std::vector<T> selected = reference::copy_if(x, predicate<T>{compare::less, limit});
  report(
      "copy_if", 1.5 * bytes,
      [&] { copy_if_into<T>(ctx, in, out, count, predicate<T>{compare::less, limit}, &ws); },
      [&] { copy_if_into(ctx, in.view(), out.view(), count.view(), user_less<T>{limit}, &ws); },
      [&] {
        const std::int64_t c = count.to_host()[0];
        return exact(c == std::int64_t(selected.size()) && same_bits(head(ctx, out, c), selected));
      });
}

// {min, max, sum} of f32 in one pass (reads 4n bytes): min and max bitwise, the sum as an f32
// sum (check_sums).
void stats_row(session& s, table& t, std::int64_t n) {
  const context& ctx = s.ctx();
  const std::vector<float> x = random_data<float>(n, 9);
  auto in = buffer<float>::from_host(ctx, x);
  buffer<min_max_sum> result(ctx, 1);
  result.fill_bytes(0xFF);
  workspace ws(ctx);
  const min_max_sum init{std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(), 0.0f};
  const double ms = s.time_ms([&] {
    transform_reduce_into(ctx, in.view(), result.view(), init, to_min_max_sum{}, merge_min_max_sum{}, &ws);
  });
  const min_max_sum ours = head(ctx, result, 1)[0];
  const auto [lowest, highest] = std::minmax_element(x.begin(), x.end());
  const verdict sum = check_sums(x, std::vector<float>{ours.sum}, sums_of::total);
  const bool extremes = same_bits(std::vector<float>{ours.min, ours.max}, std::vector<float>{*lowest, *highest});
  const verdict check{extremes && sum.matches == 1 ? 1.0 : 0.0, sum.max_rel_diff};
  const double bytes = double(n) * sizeof(float);
  add_row(s, "transform_reduce", "min_max_sum", "f32", n, ms, bytes, std::numeric_limits<double>::quiet_NaN(), check);
  t.add({"{min,max,sum} reduce", "f32", "-", fmt(ms, 4), "-", fmt(100.0 * bytes / (ms * 1e6) / s.copy_gbps(), 1),
         "-", check_cell(check.matches)});
}

void run_generic(session& s) {
  std::int64_t n = s.opts().sizes.empty() ? (std::int64_t(1) << 28) : s.opts().sizes.back();
  while (n > 1024 && !s.fits(n, 4, 3)) n /= 2;
  table t("generic functors vs precompiled, n=" + fmt_int(n) + " on " + s.ctx().name() +
              " (copy " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"primitive", "type", "precompiled ms", "generic ms", "precompiled/generic", "generic % of copy",
           "precompiled same as sequential", "generic same as sequential"});
  pair_rows<std::uint32_t>(s, t, n);
  pair_rows<float>(s, t, n);
  stats_row(s, t, n);
  t.print();
  run_generic_runs(s, n);
}

}  // namespace

PARPRIM_BENCH_SUITE("generic",
                    "generic functors vs precompiled: reduce, scan, copy_if; {min,max,sum}; by key, "
                    "unique, segmented (and 2x2 matrix products), merge, lower_bound",
                    25, run_generic);

}  // namespace parprim::bench
