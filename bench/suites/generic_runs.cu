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
// Every row's output (poisoned with 0xFF bytes, NaN for f32, before its timed calls) is copied
// back after them and checked against the sequential definition on the host, as the first
// table's rows are (generic.cu): keys, counts, u32 sums and prefixes (mod 2^32,
// reference/runs_ref.hpp), merges and positions bitwise; f32 sums and prefixes within
// sum_tolerance * sum|x| of the sums taken in double (compare_sums in checks.hpp); the matrix
// products bitwise against a sequential fold. Figure "matches_sequential" on the precompiled and
// the generic rows: a wrong row is reported and fails the run at its end, the other rows still
// measured.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "reference/runs_ref.hpp"

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

// The check of an output against the sequential sums of x over each segment
// [offsets[s], offsets[s+1]), or (prefixes) of each element's inclusive prefix within its
// segment: u32 bitwise (wrapping), f32 within sum_tolerance * sum|x| of the sums taken in
// double. The segment totals are taken once, here, for both rows of a pair; the n prefixes
// at each check, as the comparison walks (x and offsets outlive the check).
template <class T>
std::function<verdict(const std::vector<T>&)> segment_sums_check(const std::vector<T>& x,
                                                                const std::vector<std::int64_t>& offsets,
                                                                bool prefixes) {
  if constexpr (std::is_integral_v<T>) {
    auto want = prefixes ? reference::segmented_scan(x, offsets, op::plus, true, T(0), x)
                         : reference::segmented_reduce(x, offsets, T(0), op::plus);
    return [want = std::move(want)](const std::vector<T>& ours) { return exact(same_bits(ours, want)); };
  } else {
    if (prefixes)
      return [&x, &offsets](const std::vector<T>& ours) {
        return compare_segment_sums(ours.data(), nullptr, std::int64_t(ours.size()), x, offsets,
                                    sums_of::inclusive_prefixes);
      };
    return [d = sums_in_double(x, offsets, sums_of::total)](const std::vector<T>& ours) {
      if (ours.size() != d.exact.size()) return exact(false);
      return compare_sums(ours.data(), nullptr, d, std::int64_t(ours.size()));
    };
  }
}

// What a pair of rows measures.
struct pair_args {
  const char* primitive;
  const char* type;
  std::string shape;
  std::int64_t n;
  double bytes;
};
// Their times and checks.
struct pair_times {
  double pre_ms = nan;  // NaN: no precompiled counterpart
  double gen_ms = nan;
  verdict pre_check, gen_check;
};

void add_pair(session& s, table& t, const pair_args& a, const pair_times& p) {
  auto add = [&](const char* variant, double ms, double yard_ms, const verdict& check) {
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
    record_check(r, "matches_sequential", check);
    s.add(std::move(r));
  };
  if (!std::isnan(p.pre_ms)) add("precompiled", p.pre_ms, nan, p.pre_check);
  add("generic functor", p.gen_ms, p.pre_ms, p.gen_check);
  t.add({a.primitive, a.type, a.shape, fmt(p.pre_ms, 4), fmt(p.gen_ms, 4), fmt(p.pre_ms / p.gen_ms, 3),
         fmt(100.0 * a.bytes / (p.gen_ms * 1e6) / s.copy_gbps(), 1), check_cell(p.pre_check.matches),
         check_cell(p.gen_check.matches)});
}

// The precompiled call (none where `pre` is empty) and the generic one, each timed on outputs
// poisoned first and checked after its timing, and their rows.
void time_pair(session& s, table& t, const pair_args& a, const std::function<void()>& poison,
               const std::function<void()>& pre, const std::function<void()>& gen,
               const std::function<verdict()>& check) {
  auto timed = [&](const std::function<void()>& call, verdict& v) {
    poison();
    const double ms = s.time_ms(call);
    v = check();
    return ms;
  };
  pair_times p;
  if (pre) p.pre_ms = timed(pre, p.pre_check);
  p.gen_ms = timed(gen, p.gen_check);
  add_pair(s, t, a, p);
}

void by_key_rows(session& s, table& t, std::int64_t n) {
  const context& ctx = s.ctx();
  constexpr std::int64_t mean_run = 8;
  const std::string shape = "runs of " + std::to_string(mean_run);
  const auto host_keys = run_keys(n, mean_run, 7 + mean_run);
  const auto host_values = random_data<float>(n, 11);
  auto keys = buffer<std::uint32_t>::from_host(ctx, host_keys);
  auto values = buffer<float>::from_host(ctx, host_values);
  buffer<std::uint32_t> keys_out(ctx, n);
  buffer<float> values_out(ctx, n);
  workspace ws(ctx);

  // The sequential definition: the runs of equal keys, and each run's key.
  const std::vector<std::int64_t> offsets = run_offsets(host_keys);
  const std::int64_t want_runs = std::int64_t(offsets.size()) - 1;
  std::vector<std::uint32_t> want_keys(static_cast<std::size_t>(want_runs));
  for (std::int64_t g = 0; g < want_runs; ++g) want_keys[g] = host_keys[offsets[g]];
  const auto run_sums = segment_sums_check(host_values, offsets, false);
  const auto run_prefixes = segment_sums_check(host_values, offsets, true);
  std::int64_t runs = -1;  // what the last call returned
  auto poison = [&] {
    runs = -1;
    keys_out.fill_bytes(0xFF);
    values_out.fill_bytes(0xFF);
  };
  auto same_keys = [&] { return runs == want_runs && same_bits(head(ctx, keys_out, runs), want_keys); };

  time_pair(
      s, t, {"reduce_by_key", "u32/f32", shape, n, 8.0 * double(n) + 8.0 * double(want_runs)}, poison,
      [&] { runs = reduce_by_key<std::uint32_t, float>(ctx, keys, values, keys_out, values_out, op::plus, &ws); },
      [&] {
        runs = reduce_by_key(ctx, keys.view(), values.view(), keys_out.view(), values_out.view(),
                             plus_functor<float>{}, equal_to{}, &ws);
      },
      [&] { return same_keys() ? run_sums(head(ctx, values_out, runs)) : exact(false); });
  time_pair(
      s, t, {"inclusive_scan_by_key", "u32/f32", shape, n, 12.0 * double(n)}, poison,
      [&] { inclusive_scan_by_key<std::uint32_t, float>(ctx, keys, values, values_out, op::plus, &ws); },
      [&] {
        inclusive_scan_by_key(ctx, keys.view(), values.view(), values_out.view(), plus_functor<float>{},
                              equal_to{}, &ws);
      },
      [&] { return run_prefixes(values_out.to_host()); });
  time_pair(
      s, t, {"unique", "u32", shape, n, 4.0 * double(n) + 4.0 * double(want_runs)}, poison,
      [&] { runs = unique<std::uint32_t>(ctx, keys, keys_out, &ws); },
      [&] { runs = unique(ctx, keys.view(), keys_out.view(), u32_equal{}, &ws); },
      [&] { return exact(same_keys()); });
}

// segmented_reduce and segmented_inclusive_scan of T under a plus functor vs op::plus.
template <class T>
void segmented_rows(session& s, table& t, std::int64_t n, std::int64_t length) {
  const context& ctx = s.ctx();
  const std::string shape = "segments of " + std::to_string(length);
  const auto offsets = uniform_offsets(n, length);
  const std::int64_t segments = std::int64_t(offsets.size()) - 1;
  const auto x = random_data<T>(n, 3);
  auto off = buffer<std::int64_t>::from_host(ctx, offsets);
  auto in = buffer<T>::from_host(ctx, x);
  buffer<T> reduced(ctx, segments), scanned(ctx, n);
  workspace ws(ctx);
  const span<const std::int64_t> offs = off.view();
  const auto sums = segment_sums_check(x, offsets, false), prefixes = segment_sums_check(x, offsets, true);

  time_pair(
      s, t,
      {"segmented_reduce", type_name<T>(), shape, n,
       double(sizeof(T)) * double(n + segments) + 8.0 * double(segments)},
      [&] { reduced.fill_bytes(0xFF); },
      [&] { segmented_reduce<T>(ctx, in, off, reduced, T(0), op::plus, &ws); },
      [&] { segmented_reduce(ctx, in.view(), offs, reduced.view(), T(0), plus_functor<T>{}, &ws); },
      [&] { return sums(reduced.to_host()); });
  time_pair(
      s, t,
      {"segmented_inclusive_scan", type_name<T>(), shape, n,
       2.0 * double(sizeof(T)) * double(n) + 8.0 * double(segments)},
      [&] { scanned.fill_bytes(0xFF); },
      [&] { segmented_inclusive_scan<T>(ctx, in, off, scanned, op::plus, &ws); },
      [&] { segmented_inclusive_scan(ctx, in.view(), offs, scanned.view(), plus_functor<T>{}, &ws); },
      [&] { return prefixes(scanned.to_host()); });
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
  time_pair(
      s, t, {"segmented_reduce", "mat2x2 u32", shape, m, 16.0 * double(m + segments) + 8.0 * double(segments)},
      [&] { reduced.fill_bytes(0xFF); }, {},
      [&] { segmented_reduce(ctx, in.view(), offs, reduced.view(), identity, mat2_product{}, &ws); },
      [&] { return exact(reduced.to_host() == want_reduced); });
  time_pair(
      s, t, {"segmented_inclusive_scan", "mat2x2 u32", shape, m, 32.0 * double(m) + 8.0 * double(segments)},
      [&] { scanned.fill_bytes(0xFF); }, {},
      [&] { segmented_inclusive_scan(ctx, in.view(), offs, scanned.view(), mat2_product{}, &ws); },
      [&] { return exact(scanned.to_host() == want_scanned); });
}

void merge_search_rows(session& s, table& t, std::int64_t n) {
  const context& ctx = s.ctx();
  auto a = random_data<std::uint32_t>(n / 2, 5);
  auto b = random_data<std::uint32_t>(n - n / 2, 6);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::vector<std::uint32_t> want(static_cast<std::size_t>(n));
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  auto ba = buffer<std::uint32_t>::from_host(ctx, a);
  auto bb = buffer<std::uint32_t>::from_host(ctx, b);
  buffer<std::uint32_t> merged(ctx, n);
  workspace ws(ctx);
  time_pair(
      s, t, {"merge", "u32", "2 x " + fmt_int(n / 2), n, 8.0 * double(n)}, [&] { merged.fill_bytes(0xFF); },
      [&] { merge<std::uint32_t>(ctx, ba, bb, merged, sort_order::ascending, &ws); },
      [&] { merge<std::uint32_t>(ctx, ba, bb, merged, u32_less{}, &ws); },
      [&] { return exact(merged.to_host() == want); });

  // n / 16 sorted queries into the n merged keys, restored to the sequential merge (the merge
  // rows' output may be wrong; their check has said so).
  merged.copy_from_host(want.data(), n);
  auto qv = random_data<std::uint32_t>(n / 16, 9);
  std::sort(qv.begin(), qv.end());
  std::vector<std::int64_t> want_pos(qv.size());
  for (std::size_t i = 0; i < qv.size(); ++i)
    want_pos[i] = std::lower_bound(want.begin(), want.end(), qv[i]) - want.begin();
  auto q = buffer<std::uint32_t>::from_host(ctx, qv);
  buffer<std::int64_t> pos(ctx, q.size());
  const span<const std::uint32_t> sorted = merged.view();
  time_pair(
      s, t, {"lower_bound", "u32", fmt_int(q.size()) + " into " + fmt_int(n), q.size(), 12.0 * double(q.size())},
      [&] { pos.fill_bytes(0xFF); }, [&] { lower_bound<std::uint32_t>(ctx, merged, q, pos); },
      [&] { lower_bound(ctx, sorted, q.view(), pos.view(), u32_less{}); },
      [&] { return exact(pos.to_host() == want_pos); });
}

}  // namespace

// Called by the generic suite (generic.cu) with its n.
void run_generic_runs(session& s, std::int64_t n) {
  while (n > 4096 && !s.fits(n, 4, 5)) n /= 2;
  table t("generic functors vs precompiled: by key, segmented, merge, search, n=" + fmt_int(n) + " on " +
              s.ctx().name() + " (copy " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"primitive", "type", "shape", "precompiled ms", "generic ms", "precompiled/generic",
           "generic % of copy", "precompiled same as sequential", "generic same as sequential"});
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
