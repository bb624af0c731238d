// The second table of `parprim bench generic`: the newer generic entry points with a caller's
// functor beside their precompiled counterparts, on the same buffers in the same run.
//
//   reduce_by_key, inclusive_scan_by_key (u32 keys, f32 values, runs of mean length 8): a plus
//     functor vs op::plus; unique (u32, the same keys): an equality functor vs `==`;
//   segmented_reduce, segmented_inclusive_scan by offsets (u32, f32; segments of 32 and 4096):
//     a plus functor vs op::plus;
//   the same two over 2x2 u32 matrices under their product (not commutative; no precompiled
//     counterpart): % of copy bandwidth, checked against a sequential fold on the host;
//   merge (two sorted u32 halves) and lower_bound (n/16 sorted u32 queries into n sorted
//     keys): a less-than comparator vs the default order.
//
// Every generic output is compared with the precompiled one (or the host fold) after its
// timing: integers bitwise, floats within a relative tolerance (see close_enough). A mismatch
// throws, so no row times a wrong answer.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

template <class T>
struct plus_functor {
  __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
struct u32_equal {
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const { return a == b; }
};
struct u32_less {
  __host__ __device__ bool operator()(std::uint32_t a, std::uint32_t b) const { return a < b; }
};

// A 2x2 matrix of u32 (wrapping) and its product: associative, not commutative.
struct mat2 {
  std::uint32_t a, b, c, d;
  bool operator==(const mat2& o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
struct mat2_product {
  __host__ __device__ mat2 operator()(const mat2& x, const mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  }
};

// Keys of runs with random lengths in [1, 2 mean - 1], run r holding the key r (as the by_key
// suite's), so neighbouring runs differ.
std::vector<std::uint32_t> run_keys(std::int64_t n, std::int64_t mean_run, std::uint64_t seed) {
  std::vector<std::uint32_t> k(static_cast<std::size_t>(n));
  std::uint32_t key = 0;
  for (std::int64_t i = 0; i < n; ++key) {
    const std::int64_t len = 1 + std::int64_t(splitmix64(seed + i) % std::uint64_t(2 * mean_run - 1));
    for (std::int64_t j = i; j < std::min(n, i + len); ++j) k[j] = key;
    i += len;
  }
  return k;
}

std::vector<std::int64_t> uniform_offsets(std::int64_t n, std::int64_t length) {
  std::vector<std::int64_t> o;
  for (std::int64_t x = 0; x < n; x += length) o.push_back(x);
  o.push_back(n);
  return o;
}

// Floats: the generic bodies fold in their own fixed order (tiles, runs, segments), the
// precompiled ones in theirs (e.g. 16-byte vectors strided over a block for long segments),
// so sums of the same [0, 1) values round differently. All terms are positive, so a relative
// bound is meaningful: 1e-3 is far above the rounding of 4096 terms in any order seen in
// practice and far below any wrong element or segment boundary.
bool close_enough(float got, float want) {
  return std::fabs(double(got) - double(want)) <= 1e-3 * std::max(1.0, std::fabs(double(want)));
}
template <class T>
void check_same(const std::vector<T>& got, const std::vector<T>& want, std::int64_t count,
                const std::string& what) {
  for (std::int64_t i = 0; i < count; ++i) {
    bool ok;
    if constexpr (std::is_floating_point_v<T>) ok = close_enough(got[i], want[i]);
    else ok = got[i] == want[i];
    if (!ok)
      throw std::runtime_error("bench generic: " + what + " differs from the precompiled result at " +
                               std::to_string(i));
  }
}
void check_count(std::int64_t got, std::int64_t want, const std::string& what) {
  if (got != want)
    throw std::runtime_error("bench generic: " + what + " returned " + std::to_string(got) +
                             " runs, the precompiled call " + std::to_string(want));
}

struct pair_args {
  const char* primitive;
  const char* type;
  std::string shape;
  std::int64_t n;
  double bytes;
  double pre_ms;  // NaN: no precompiled counterpart
  double gen_ms;
};

void add_pair(session& s, table& t, const pair_args& a) {
  auto add = [&](const char* variant, double ms, double yard_ms) {
    row r;
    r.primitive = a.primitive;
    r.variant = std::string(variant) + " " + a.shape;
    r.type = a.type;
    r.n = a.n;
    r.ms = ms;
    r.gbps = a.bytes / (ms * 1e6);
    if (!std::isnan(yard_ms)) {
      r.yardstick = "precompiled";
      r.yardstick_ms = yard_ms;
    }
    r.extra["copy_gbps"] = s.copy_gbps();
    r.extra["pct_of_copy"] = 100.0 * r.gbps / s.copy_gbps();
    s.add(std::move(r));
  };
  if (!std::isnan(a.pre_ms)) add("precompiled", a.pre_ms, nan);
  add("generic functor", a.gen_ms, a.pre_ms);
  t.add({a.primitive, a.type, a.shape, fmt(a.pre_ms, 4), fmt(a.gen_ms, 4), fmt(a.pre_ms / a.gen_ms, 3),
         fmt(100.0 * a.bytes / (a.gen_ms * 1e6) / s.copy_gbps(), 1)});
}

void by_key_rows(session& s, table& t, std::int64_t n) {
  const context& ctx = s.ctx();
  constexpr std::int64_t mean_run = 8;
  const std::string shape = "runs of " + std::to_string(mean_run);
  auto keys = buffer<std::uint32_t>::from_host(ctx, run_keys(n, mean_run, 7 + mean_run));
  auto values = buffer<float>::from_host(ctx, random_data<float>(n, 11));
  buffer<std::uint32_t> keys_out(ctx, n);
  buffer<float> values_out(ctx, n);
  workspace ws(ctx);

  std::int64_t runs = 0, generic_runs = 0;
  const double pre = s.time_ms([&] {
    runs = reduce_by_key<std::uint32_t, float>(ctx, keys, values, keys_out, values_out, op::plus, &ws);
  });
  const auto want_keys = keys_out.to_host();
  const auto want_values = values_out.to_host();
  const double gen = s.time_ms([&] {
    generic_runs = reduce_by_key(ctx, keys.view(), values.view(), keys_out.view(), values_out.view(),
                                 plus_functor<float>{}, equal_to{}, &ws);
  });
  check_count(generic_runs, runs, "reduce_by_key");
  check_same(keys_out.to_host(), want_keys, runs, "reduce_by_key keys");
  check_same(values_out.to_host(), want_values, runs, "reduce_by_key values");
  const double reduce_bytes = 8.0 * double(n) + 8.0 * double(runs);
  add_pair(s, t, {"reduce_by_key", "u32/f32", shape, n, reduce_bytes, pre, gen});

  const double scan_pre = s.time_ms([&] {
    inclusive_scan_by_key<std::uint32_t, float>(ctx, keys, values, values_out, op::plus, &ws);
  });
  const auto want_scan = values_out.to_host();
  const double scan_gen = s.time_ms([&] {
    inclusive_scan_by_key(ctx, keys.view(), values.view(), values_out.view(), plus_functor<float>{},
                          equal_to{}, &ws);
  });
  check_same(values_out.to_host(), want_scan, n, "inclusive_scan_by_key");
  add_pair(s, t, {"inclusive_scan_by_key", "u32/f32", shape, n, 12.0 * double(n), scan_pre, scan_gen});

  const double unique_pre = s.time_ms([&] { runs = unique<std::uint32_t>(ctx, keys, keys_out, &ws); });
  const auto want_unique = keys_out.to_host();
  const double unique_gen = s.time_ms([&] {
    generic_runs = unique(ctx, keys.view(), keys_out.view(), u32_equal{}, &ws);
  });
  check_count(generic_runs, runs, "unique");
  check_same(keys_out.to_host(), want_unique, runs, "unique");
  add_pair(s, t, {"unique", "u32", shape, n, 4.0 * double(n) + 4.0 * double(runs), unique_pre, unique_gen});
}

// segmented_reduce and segmented_inclusive_scan of T under a plus functor vs op::plus.
template <class T>
void segmented_rows(session& s, table& t, std::int64_t n, std::int64_t length) {
  const context& ctx = s.ctx();
  const std::string shape = "segments of " + std::to_string(length);
  const auto offsets = uniform_offsets(n, length);
  const std::int64_t segments = std::int64_t(offsets.size()) - 1;
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  auto in = buffer<T>::from_host(ctx, random_data<T>(n, 3));
  buffer<T> reduced(ctx, segments), scanned(ctx, n);
  workspace ws(ctx);
  const span<const std::int64_t> offs = off.view();

  const double pre = s.time_ms([&] { segmented_reduce<T>(ctx, in, off, reduced, T(0), op::plus, &ws); });
  const auto want = reduced.to_host();
  const double gen = s.time_ms([&] {
    segmented_reduce(ctx, in.view(), offs, reduced.view(), T(0), plus_functor<T>{}, &ws);
  });
  check_same(reduced.to_host(), want, segments, "segmented_reduce");
  add_pair(s, t, {"segmented_reduce", type_name<T>(), shape, n,
                  double(sizeof(T)) * double(n + segments) + 8.0 * double(segments), pre, gen});

  const double scan_pre = s.time_ms([&] {
    segmented_inclusive_scan<T>(ctx, in, off, scanned, op::plus, &ws);
  });
  const auto want_scan = scanned.to_host();
  const double scan_gen = s.time_ms([&] {
    segmented_inclusive_scan(ctx, in.view(), offs, scanned.view(), plus_functor<T>{}, &ws);
  });
  check_same(scanned.to_host(), want_scan, n, "segmented_inclusive_scan");
  add_pair(s, t, {"segmented_inclusive_scan", type_name<T>(), shape, n,
                  2.0 * double(sizeof(T)) * double(n) + 8.0 * double(segments), scan_pre, scan_gen});
}

// 2x2 u32 matrix products over segments of 4096: m = n / 4 matrices, the bytes of n u32.
void matrix_rows(session& s, table& t, std::int64_t n) {
  const context& ctx = s.ctx();
  constexpr std::int64_t length = 4096;
  const std::int64_t m = n / 4;
  const auto words = random_data<std::uint32_t>(4 * m, 13);
  std::vector<mat2> host(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) host[i] = {words[4 * i], words[4 * i + 1], words[4 * i + 2], words[4 * i + 3]};
  const auto offsets = uniform_offsets(m, length);
  const std::int64_t segments = std::int64_t(offsets.size()) - 1;
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  auto in = buffer<mat2>::from_host(ctx, host);
  buffer<mat2> reduced(ctx, segments), scanned(ctx, m);
  workspace ws(ctx);
  const span<const std::int64_t> offs = off.view();
  const mat2 identity{1, 0, 0, 1};

  // The sequential folds, left to right within each segment.
  std::vector<mat2> want_reduced(static_cast<std::size_t>(segments)), want_scanned(host.size());
  for (std::int64_t g = 0; g < segments; ++g) {
    mat2 acc = identity;
    for (std::int64_t i = offsets[g]; i < offsets[g + 1]; ++i) {
      acc = i == offsets[g] ? host[i] : mat2_product{}(acc, host[i]);
      want_scanned[i] = acc;
    }
    want_reduced[g] = mat2_product{}(identity, acc);
  }
  const std::string shape = "segments of " + std::to_string(length);
  const double ms = s.time_ms([&] {
    segmented_reduce(ctx, in.view(), offs, reduced.view(), identity, mat2_product{}, &ws);
  });
  check_same(reduced.to_host(), want_reduced, segments, "segmented_reduce of 2x2 matrices");
  add_pair(s, t, {"segmented_reduce", "mat2x2 u32", shape, m,
                  16.0 * double(m + segments) + 8.0 * double(segments), nan, ms});
  const double scan_ms = s.time_ms([&] {
    segmented_inclusive_scan(ctx, in.view(), offs, scanned.view(), mat2_product{}, &ws);
  });
  check_same(scanned.to_host(), want_scanned, m, "segmented_inclusive_scan of 2x2 matrices");
  add_pair(s, t, {"segmented_inclusive_scan", "mat2x2 u32", shape, m,
                  32.0 * double(m) + 8.0 * double(segments), nan, scan_ms});
}

void merge_search_rows(session& s, table& t, std::int64_t n) {
  const context& ctx = s.ctx();
  auto a = random_data<std::uint32_t>(n / 2, 5);
  auto b = random_data<std::uint32_t>(n - n / 2, 6);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  auto ba = buffer<std::uint32_t>::from_host(ctx, a);
  auto bb = buffer<std::uint32_t>::from_host(ctx, b);
  buffer<std::uint32_t> merged(ctx, n);
  workspace ws(ctx);
  const double pre = s.time_ms([&] {
    merge<std::uint32_t>(ctx, ba, bb, merged, sort_order::ascending, &ws);
  });
  ctx.synchronize();  // raises the precompiled kernel's unsorted-input verdict, if any
  const auto want = merged.to_host();
  const double gen = s.time_ms([&] { merge<std::uint32_t>(ctx, ba, bb, merged, u32_less{}, &ws); });
  check_same(merged.to_host(), want, n, "merge");
  add_pair(s, t, {"merge", "u32", "2 x " + fmt_int(n / 2), n, 8.0 * double(n), pre, gen});

  // n / 16 sorted queries into the n merged keys (restored to the precompiled result).
  merged.copy_from_host(want.data(), n);
  auto qv = random_data<std::uint32_t>(n / 16, 9);
  std::sort(qv.begin(), qv.end());
  auto q = buffer<std::uint32_t>::from_host(ctx, qv);
  buffer<std::int64_t> pos(ctx, q.size());
  const double search_pre = s.time_ms([&] { lower_bound<std::uint32_t>(ctx, merged, q, pos); });
  const auto want_pos = pos.to_host();
  const span<const std::uint32_t> sorted = merged.view();
  const double search_gen = s.time_ms([&] {
    lower_bound(ctx, sorted, q.view(), pos.view(), u32_less{});
  });
  check_same(pos.to_host(), want_pos, q.size(), "lower_bound");
  add_pair(s, t, {"lower_bound", "u32", fmt_int(q.size()) + " into " + fmt_int(n), q.size(),
                  12.0 * double(q.size()), search_pre, search_gen});
}

}  // namespace

// Called by the generic suite (generic.cu) with its n.
void run_generic_runs(session& s, std::int64_t n) {
  while (n > 4096 && !s.fits(n, 4, 5)) n /= 2;
  table t("generic functors vs precompiled: by key, segmented, merge, search, n=" + fmt_int(n) + " on " +
              s.ctx().name() + " (copy " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"primitive", "type", "shape", "precompiled ms", "generic ms", "precompiled/generic",
           "generic % of copy"});
  by_key_rows(s, t, n);
  for (std::int64_t length : {std::int64_t(32), std::int64_t(4096)}) {
    segmented_rows<std::uint32_t>(s, t, n, length);
    segmented_rows<float>(s, t, n, length);
  }
  matrix_rows(s, t, n);
  merge_search_rows(s, t, n);
  t.print();
}

}  // namespace parprim::bench
