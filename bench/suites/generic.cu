// `parprim bench generic`: the generic primitives with a caller's functor beside the
// precompiled ones, same data, same run (compiled by nvcc, as a CUDA user's code would be).
//
//   reduce, exclusive_scan, copy_if (u32, f32): precompiled op/predicate vs a plus / less
//     functor that the library knows nothing about (so reduce takes its ordered layout);
//   stats reduce: {min, max, sum} of f32 in one pass (transform_reduce), as % of copy
//     bandwidth counting only the bytes read.
// A second table (generic_runs.cu) covers by-key, unique, segmented, merge and lower_bound.
#include <cmath>
#include <limits>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"

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
             std::int64_t n, double ms, double bytes, double precompiled_ms) {
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
  s.add(std::move(r));
}

template <class T>
void pair_rows(session& s, table& t, std::int64_t n) {
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  const char* type = type_name<T>();
  auto in = buffer<T>::from_host(s.ctx(), random_data<T>(n, 5));
  buffer<T> out(s.ctx(), n);
  buffer<std::int64_t> count(s.ctx(), 1);
  workspace ws(s.ctx());
  const double bytes = double(n) * sizeof(T);
  auto report = [&](const char* primitive, double traffic, double pre, double gen) {
    add_row(s, primitive, "precompiled", type, n, pre, traffic, nan);
    add_row(s, primitive, "generic functor", type, n, gen, traffic, pre);
    t.add({primitive, type, fmt(pre, 4), fmt(gen, 4), fmt(pre / gen, 3),
           fmt(100.0 * traffic / (gen * 1e6) / s.copy_gbps(), 1)});
  };
  const span<T> result = out.view().subspan(0, 1);
  report("reduce", bytes,
         s.time_ms([&] { reduce_into<T>(s.ctx(), in, result, op::plus, reduce_algorithm::production, &ws); }),
         s.time_ms([&] { reduce_into(s.ctx(), in.view(), result, T(0), user_plus<T>{}, &ws); }));
  report("exclusive_scan", 2 * bytes,
         s.time_ms([&] { exclusive_scan<T>(s.ctx(), in, out, T(0), op::plus,
                                           scan_algorithm::decoupled_lookback, &ws); }),
         s.time_ms([&] { exclusive_scan(s.ctx(), in.view(), out.view(), T(0), user_plus<T>{}, &ws); }));
  // random_data: integers over their range, floats in [0, 1): about half selected.
  const T limit = std::is_floating_point_v<T> ? T(0.5) : T(std::numeric_limits<T>::max() / 2);
  report("copy_if", 1.5 * bytes,
         s.time_ms([&] { copy_if_into<T>(s.ctx(), in, out, count, predicate<T>{compare::less, limit}, &ws); }),
         s.time_ms([&] { copy_if_into(s.ctx(), in.view(), out.view(), count.view(), user_less<T>{limit}, &ws); }));
}

void run_generic(session& s) {
  std::int64_t n = s.opts().sizes.empty() ? (std::int64_t(1) << 28) : s.opts().sizes.back();
  while (n > 1024 && !s.fits(n, 4, 3)) n /= 2;
  table t("generic functors vs precompiled, n=" + fmt_int(n) + " on " + s.ctx().name() +
              " (copy " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"primitive", "type", "precompiled ms", "generic ms", "precompiled/generic",
           "generic % of copy"});
  pair_rows<std::uint32_t>(s, t, n);
  pair_rows<float>(s, t, n);

  // {min, max, sum} in one pass: reads 4n bytes.
  auto in = buffer<float>::from_host(s.ctx(), random_data<float>(n, 9));
  buffer<min_max_sum> result(s.ctx(), 1);
  workspace ws(s.ctx());
  const min_max_sum init{std::numeric_limits<float>::infinity(),
                         -std::numeric_limits<float>::infinity(), 0.0f};
  const double ms = s.time_ms([&] {
    transform_reduce_into(s.ctx(), in.view(), result.view(), init, to_min_max_sum{},
                          merge_min_max_sum{}, &ws);
  });
  const double bytes = double(n) * sizeof(float);
  add_row(s, "transform_reduce", "min_max_sum", "f32", n, ms, bytes,
          std::numeric_limits<double>::quiet_NaN());
  t.add({"{min,max,sum} reduce", "f32", "-", fmt(ms, 4), "-",
         fmt(100.0 * bytes / (ms * 1e6) / s.copy_gbps(), 1)});
  t.print();
  run_generic_runs(s, n);
}

}  // namespace

PARPRIM_BENCH_SUITE("generic",
                    "generic functors vs precompiled: reduce, scan, copy_if; {min,max,sum}; by key, "
                    "unique, segmented (and 2x2 matrix products), merge, lower_bound",
                    25, run_generic);

}  // namespace parprim::bench
