// `parprim bench dot`: both dot algorithms against cuBLAS Sdot, f32, up to 2^27 elements.
// Bandwidth counts the 2 * n * 4 bytes read; results stay on the device (dot_into, and
// cuBLAS in device pointer mode, into a buffer of its own), so no host synchronization is
// timed.
//
// Every row's result (poisoned with NaN before the timed calls) is copied back after them
// and must lie within sum_tolerance * sum|x_i y_i| of cuBLAS's result or of the sum in long
// double (reference/dot.hpp): compare_sums in checks.hpp; figure "matches_cublas" on the GPU,
// "matches_sequential" on the CPU (against the long double sum alone). Why that tolerance:
// each product rounds once to f32 and each of our summing orders adds it along a chain of at
// most 530 + n/2048 + 2 log2(n) roundings (tests/test_dot.cpp), so |ours - exact| is at most
// (531 + n/2048 + 2 log2(n)) 2^-24 sum|x_i y_i|: under 5.3e-4 up to n = 2^24. At 2^27 that
// worst case is 3.9e-3, but the roundings of these random terms err like a random walk
// (checks.hpp): 2.8e-6 sum|x_i y_i| measured on the CPU. cuBLAS's order is its own; a result
// close to the exact sum passes either way.
#include <cmath>
#include <limits>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/dot.hpp"
#include "parprim/parprim.hpp"
#include "reference/dot.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cublas.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

void run_dot(session& s) {
  const context& ctx = s.ctx();
  const auto sizes = s.sizes_or({1 << 20, 1 << 24, 1 << 27}, 2 * sizeof(float));
  const char* figure = s.on_gpu() ? "matches_cublas" : "matches_sequential";
  table t("dot f32 on " + ctx.name() + " (copy bandwidth " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"n", "variant", "ms", "GB/s", "% of copy", "cuBLAS ms", "cuBLAS GB/s", "vs cuBLAS",
           s.on_gpu() ? "same as cuBLAS" : "same as sequential"});
  for (std::int64_t n : sizes) {
    const std::vector<float> hx = random_data<float>(n, 3), hy = random_data<float>(n, 4);
    auto x = buffer<float>::from_host(ctx, hx);
    auto y = buffer<float>::from_host(ctx, hy);
    const reference::dot_result exact = reference::dot(hx, hy);
    const double_sums sums{{exact.value}, {exact.abs_sum}};
    buffer<float> out(ctx, 1), theirs(ctx, s.on_gpu() ? 1 : 0);
    workspace ws(ctx);
    const double bytes = 2.0 * double(n) * sizeof(float);
    double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) yard_ms = yardstick::cublas_sdot_ms(s, x.data(), y.data(), n, theirs.data());
#endif
    const std::vector<float> cublas = head(ctx, theirs, 1);  // empty on the CPU
    for (dot_algorithm alg : {dot_algorithm::shared_memory, dot_algorithm::production}) {
      if (!s.on_gpu() && alg != dot_algorithm::production) continue;  // one CPU algorithm
      out.fill_bytes(0xFF);  // NaN: a call that writes nothing fails the check
      const double ms = s.time_ms([&] { dot_into<float>(ctx, x, y, out, alg, &ws); });
      const std::vector<float> ours = head(ctx, out, 1);
      const verdict check = compare_sums(ours.data(), cublas.empty() ? nullptr : cublas.data(), sums, 1);
      row r;
      r.primitive = "dot";
      r.variant = to_string(alg);
      r.type = "f32";
      r.n = n;
      r.ms = ms;
      r.gbps = bytes / (ms * 1e6);
      r.extra["copy_gbps"] = s.copy_gbps();
      r.extra["pct_of_copy"] = 100.0 * r.gbps / s.copy_gbps();
      if (!std::isnan(yard_ms)) {
        r.yardstick = "cublas_sdot";
        r.yardstick_ms = yard_ms;
      }
      record_check(r, figure, check);
      t.add({fmt_int(n), r.variant, fmt(ms, 4), fmt(r.gbps, 0), fmt(r.extra["pct_of_copy"], 1),
             fmt(yard_ms, 4), fmt(bytes / (yard_ms * 1e6), 0),
             r.vs_yardstick() ? fmt(*r.vs_yardstick(), 3) : "-", check_cell(check.matches)});
      s.add(std::move(r));
    }
  }
  t.print();
}

}  // namespace
}  // namespace parprim::bench

PARPRIM_BENCH_SUITE("dot", "dot f32: shared-memory and production kernels vs cuBLAS Sdot", 51,
                    parprim::bench::run_dot);
