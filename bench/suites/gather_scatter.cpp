// `parprim bench gather_scatter`: gather and scatter against the one-line naive kernels, and
// the multi-pass scatter for every k beside the cost model. Public API only: the library's
// calls always check their indices, so the naive (unchecked) kernel's time bounds what the
// check costs.
//
// Tables:
//  1. u32 values, i32 indices, random indices and a random permutation: ours, the naive
//     kernel (GPU) or a plain sequential loop (CPU).
//  2. Scatter by a random permutation at the largest size: single pass, multi-pass for
//     k = 1..16 with the model's predicted time beside each, and the k the model picks
//     (the title names the scheme the device runs: k sweeps, or binned).
//
// Every row's output (poisoned with 0xA5 bytes before the timed calls) is copied back after
// them and checked against the sequential definition (reference/gather_scatter_ref.hpp):
// gather, and scatter by a permutation, bitwise; scatter by random indices (repeats allowed,
// and which colliding value lands is unspecified) must hold at each named position one of the
// values sent there and the poison everywhere else. Figure "matches_sequential" on both
// backends. On the GPU the naive kernel's output is checked the same way (its time is worth
// comparing only if its result is right): "matches_sequential_naive" in the rows that carry
// its time.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/parprim.hpp"
#include "reference/gather_scatter_ref.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/naive_gather_scatter.hpp"
#endif

namespace parprim::bench {
namespace {

using T = std::uint32_t;
using I = std::int32_t;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr unsigned char poison = 0xA5;

double bytes_moved(std::int64_t n) { return double(n) * (sizeof(I) + 2 * sizeof(T)); }

// A uniformly random permutation of [0, n) (std::shuffle; a few seconds at 2^26).
std::vector<I> random_permutation(std::int64_t n, std::uint64_t seed) {
  std::vector<I> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), I(0));
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  return p;
}

// Random indices in [0, n), repeats allowed.
std::vector<I> random_indices(std::int64_t n, std::uint64_t seed) {
  std::vector<I> v(static_cast<std::size_t>(n));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i)
    v[static_cast<std::size_t>(i)] = static_cast<I>(splitmix64(seed ^ std::uint64_t(i)) % std::uint64_t(n));
  return v;
}

enum class kind { gather, scatter };

// What a scatter by unique indices leaves in an output poisoned beforehand.
std::vector<T> scattered(const std::vector<T>& values, const std::vector<I>& indices) {
  std::vector<T> out(values.size());
  std::memset(out.data(), poison, out.size() * sizeof(T));
  reference::scatter(values, indices, out);
  return out;
}

// A scatter by indices with repeats: each named position holds one of the values sent to it,
// every other position the poison.
bool scattered_with_repeats(const std::vector<T>& values, const std::vector<I>& indices,
                            const std::vector<T>& out) {
  std::vector<unsigned char> named(out.size(), 0), landed(out.size(), 0);
  for (std::size_t i = 0; i < indices.size(); ++i) {
    const auto p = static_cast<std::size_t>(indices[i]);
    named[p] = 1;
    if (out[p] == values[i]) landed[p] = 1;
  }
  T poisoned;
  std::memset(&poisoned, poison, sizeof(T));
  for (std::size_t p = 0; p < out.size(); ++p)
    if (named[p] ? !landed[p] : out[p] != poisoned) return false;
  return true;
}

// The check of one (kind, indices) pair: `want` is the exact output where there is one
// (gather; scatter by a permutation), empty for a scatter by indices with repeats.
struct oracle {
  const std::vector<T>& values;
  const std::vector<I>& indices;
  std::vector<T> want;
  verdict operator()(const std::vector<T>& out) const {
    return exact(want.empty() ? scattered_with_repeats(values, indices, out) : same_bits(out, want));
  }
};
oracle oracle_of(kind k, bool unique, const std::vector<T>& values, const std::vector<I>& indices) {
  if (k == kind::gather) return {values, indices, reference::gather(values, indices)};
  return {values, indices, unique ? scattered(values, indices) : std::vector<T>{}};
}

// Our call through the public API.
void run_ours(session& s, kind k, const buffer<T>& v, const buffer<I>& idx, buffer<T>& out,
              scatter_options o = {}) {
  const context& ctx = s.ctx();
  if (k == kind::gather) gather<T, I>(ctx, v, idx, out);
  else scatter<T, I>(ctx, v, idx, out, o);
}

// Our call, timed on an output poisoned first, and its check.
double time_ours(session& s, kind k, const buffer<T>& v, const buffer<I>& idx, buffer<T>& out,
                 const oracle& check, verdict& result, scatter_options o = {}) {
  out.fill_bytes(poison);
  const double ms = s.time_ms([&] { run_ours(s, k, v, idx, out, o); });
  result = check(out.to_host());
  return ms;
}

// The yardstick: the naive kernel on a GPU (its output poisoned first and checked into
// `naive`), a plain sequential loop on the CPU (the definition itself: not checked).
double yardstick_ms(session& s, kind k, const buffer<T>& v, const buffer<I>& idx, buffer<T>& out,
                    const oracle& check, verdict& naive) {
  const std::int64_t n = idx.size();
#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    out.fill_bytes(poison);
    const double ms = k == kind::gather
                          ? yardstick::naive_gather_ms<T, I>(s, v.data(), idx.data(), out.data(), n)
                          : yardstick::naive_scatter_ms<T, I>(s, v.data(), idx.data(), out.data(), n);
    naive = check(out.to_host());
    return ms;
  }
#endif
  (void)check, (void)naive;
  const T* x = v.data();
  const I* p = idx.data();
  T* y = out.data();
  return s.time_host_ms([&] {
    if (k == kind::gather)
      for (std::int64_t i = 0; i < n; ++i) y[i] = x[p[i]];
    else
      for (std::int64_t i = 0; i < n; ++i) y[p[i]] = x[i];
  });
}

row make_row(session& s, const std::string& primitive, const std::string& variant, std::int64_t n,
             double ms, const char* yard, double yard_ms, const verdict& check, const verdict& naive) {
  row r;
  r.primitive = primitive;
  r.variant = variant;
  r.type = "u32";
  r.n = n;
  r.ms = ms;
  r.gbps = bytes_moved(n) / (ms * 1e6);
  if (!std::isnan(yard_ms)) {
    r.yardstick = yard;
    r.yardstick_ms = yard_ms;
  }
  r.extra["copy_gbps"] = s.copy_gbps();
  record_check(r, "matches_sequential", check);
  record_check(r, "matches_sequential_naive", naive);
  return r;
}

// Table 1 at one size.
void naive_table(session& s, std::int64_t n) {
  const char* yard = s.on_gpu() ? "naive" : "sequential";
  const std::vector<T> values = random_data<T>(n, 3);
  auto v = buffer<T>::from_host(s.ctx(), values);
  buffer<T> out(s.ctx(), n);
  table t("gather / scatter u32 values, i32 indices, n=" + fmt_int(n) + " on " + s.ctx().name() +
              " (copy " + fmt(s.copy_gbps(), 0) + " GB/s; GB/s counts indices + values + output)",
          {"primitive", "indices", "ms", "GB/s", std::string(yard) + " ms", "vs " + std::string(yard),
           "same as sequential", "naive same as sequential"});
  for (const char* pattern : {"random", "permutation"}) {
    const bool perm = std::string(pattern) == "permutation";
    const std::vector<I> indices = perm ? random_permutation(n, 5) : random_indices(n, 5);
    auto idx = buffer<I>::from_host(s.ctx(), indices);
    for (kind k : {kind::gather, kind::scatter}) {
      const std::string prim = k == kind::gather ? "gather" : "scatter";
      const oracle check = oracle_of(k, perm, values, indices);
      verdict ours, naive;
      const double ms = time_ours(s, k, v, idx, out, check, ours);
      const double y = yardstick_ms(s, k, v, idx, out, check, naive);
      s.add(make_row(s, prim, std::string("single_pass/") + pattern, n, ms, yard, y, ours, naive));
      t.add({prim, pattern, fmt(ms, 4), fmt(bytes_moved(n) / (ms * 1e6), 0), fmt(y, 4), fmt(y / ms, 2),
             check_cell(ours.matches), check_cell(naive.matches)});
    }
  }
  t.print();
}

// Table 2's title: the model's formula for the scheme the device runs for k > 1
// (src/core/scatter_model.hpp).
std::string multi_pass_title(session& s, std::int64_t n, const scatter_plan& model) {
  const bool binned = plan_scatter(s.ctx(), n, n, sizeof(T), sizeof(I), 2).binned;
  const std::string formula = binned
                                  ? "binned: T(k) = 4*t_launch + (4|L| + 3|R|)/B_seq + |R|/B_rand(|out|/k)"
                                  : "T(k) = k*t_launch + (|L| + |R|*touched(k))*k/B_seq + |R|/B_rand(|out|/k)";
  return "multi-pass scatter by a random permutation, u32, n=" + fmt_int(n) + " on " + s.ctx().name() +
         ": " + formula + ", B_seq " + fmt(model.seq_gbps, 0) + " GB/s";
}

// Table 2: the multi-pass scatter by a random permutation. Every row carries the naive
// kernel's one time and verdict.
void multi_pass_table(session& s, std::int64_t n) {
  const char* yard = s.on_gpu() ? "naive" : "sequential";
  const std::vector<T> values = random_data<T>(n, 9);
  const std::vector<I> permutation = random_permutation(n, 11);
  auto v = buffer<T>::from_host(s.ctx(), values);
  auto idx = buffer<I>::from_host(s.ctx(), permutation);
  buffer<T> out(s.ctx(), n);
  const oracle check = oracle_of(kind::scatter, true, values, permutation);
  verdict ours, naive;
  const double y = yardstick_ms(s, kind::scatter, v, idx, out, check, naive);
  const double single = time_ours(s, kind::scatter, v, idx, out, check, ours);
  const scatter_plan model = plan_scatter(s.ctx(), n, n, sizeof(T), sizeof(I));
  table t(multi_pass_title(s, n, model),
          {"variant", "k", "ms", "predicted ms", "B_rand GB/s", "GB/s", "vs single pass",
           "vs " + std::string(yard), "same as sequential", "naive same as sequential"});
  s.add(make_row(s, "scatter", "single_pass/permutation", n, single, yard, y, ours, naive));
  t.add({"single pass", "1", fmt(single, 4), "", "", fmt(bytes_moved(n) / (single * 1e6), 0), "1.00",
         fmt(y / single, 2), check_cell(ours.matches), check_cell(naive.matches)});
  std::vector<int> ks;
  if (s.on_gpu()) {
    for (int k = 1; k <= 16; ++k) ks.push_back(k);
  } else {
    ks = {1, 2, 4, 8, 16};
  }
  double best_ms = std::numeric_limits<double>::infinity();
  int best_k = 1;
  for (int k : ks) {
    const scatter_options o{scatter_algorithm::multi_pass, k};
    const double ms = time_ours(s, kind::scatter, v, idx, out, check, ours, o);
    scatter_plan p = plan_scatter(s.ctx(), n, n, sizeof(T), sizeof(I), k);
    if (ms < best_ms) best_ms = ms, best_k = k;
    row r = make_row(s, "scatter", "multi_pass/k=" + std::to_string(k), n, ms, yard, y, ours, naive);
    r.extra["passes"] = k;
    r.extra["predicted_ms"] = p.predicted_ms;
    r.extra["rand_gbps"] = p.rand_gbps;
    r.extra["vs_single_pass"] = single / ms;
    s.add(r);
    t.add({"multi-pass", std::to_string(k), fmt(ms, 4), fmt(p.predicted_ms, 4), fmt(p.rand_gbps, 0),
           fmt(bytes_moved(n) / (ms * 1e6), 0), fmt(single / ms, 2), fmt(y / ms, 2), check_cell(ours.matches),
           check_cell(naive.matches)});
  }
  const double model_ms = time_ours(s, kind::scatter, v, idx, out, check, ours, {scatter_algorithm::multi_pass, 0});
  row r = make_row(s, "scatter", "multi_pass/model", n, model_ms, yard, y, ours, naive);
  r.extra["passes"] = model.passes;
  r.extra["predicted_ms"] = model.predicted_ms;
  r.extra["vs_single_pass"] = single / model_ms;
  r.extra["best_fixed_k"] = best_k;
  r.extra["best_fixed_ms"] = best_ms;
  r.extra["model_vs_best_pct"] = 100.0 * (model_ms - best_ms) / best_ms;
  s.add(r);
  t.add({"multi-pass, model's k", std::to_string(model.passes), fmt(model_ms, 4), fmt(model.predicted_ms, 4),
         fmt(model.rand_gbps, 0), fmt(bytes_moved(n) / (model_ms * 1e6), 0), fmt(single / model_ms, 2),
         fmt(y / model_ms, 2), check_cell(ours.matches), check_cell(naive.matches)});
  t.print();
  std::printf("  best fixed k = %d (%.4f ms); the model's k = %d is %.1f%% slower than it\n", best_k,
              best_ms, model.passes, 100.0 * (model_ms - best_ms) / best_ms);
}

void run_gather_scatter(session& s) {
  const std::vector<std::int64_t> defaults =
      s.on_gpu() ? std::vector<std::int64_t>{std::int64_t(1) << 22, std::int64_t(1) << 26}
                 : std::vector<std::int64_t>{std::int64_t(1) << 20, std::int64_t(1) << 22};
  auto sizes = s.sizes_or(defaults, 2 * sizeof(T) + sizeof(I));
  for (std::int64_t n : sizes) naive_table(s, n);
  if (!sizes.empty()) multi_pass_table(s, sizes.back());
}

}  // namespace

PARPRIM_BENCH_SUITE("gather_scatter",
                    "gather/scatter vs the naive kernel, multi-pass scatter for every k vs the "
                    "cost model",
                    30, run_gather_scatter);

}  // namespace parprim::bench
