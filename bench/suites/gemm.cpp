// `parprim bench gemm`: every step of the GEMM ladder against cuBLAS SGEMM, f32, square
// matrices of 1024, 4096, 8192 and 4097 (a size that is no multiple of any tile).
//
// cuBLAS runs in pedantic FP32 mode (no TF32): the same arithmetic as ours. Its default
// math mode is timed too, for reference. The slowest steps (naive, tiled4, tiled8) run only
// up to 4097, and with 1 warm-up and 3 timed runs instead of the session's counts. Every
// variant's result is compared with cuBLAS's (max relative difference) up to 4097.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/gemm.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cublas.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

const gemm_algorithm ladder[] = {
    gemm_algorithm::naive,   gemm_algorithm::tiled4,           gemm_algorithm::tiled8,
    gemm_algorithm::tiled16, gemm_algorithm::tiled32,          gemm_algorithm::register_blocked,
    gemm_algorithm::double_buffered, gemm_algorithm::production};

bool slow_step(gemm_algorithm a) {
  return a == gemm_algorithm::naive || a == gemm_algorithm::tiled4 || a == gemm_algorithm::tiled8;
}

double tflops(std::int64_t n, double ms) { return 2.0 * double(n) * n * n / (ms * 1e9); }

double max_rel_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    m = std::max(m, std::fabs(double(a[i]) - double(b[i])) / std::max(1e-30, std::fabs(double(b[i]))));
  return m;
}

void run_gemm(session& s) {
  std::vector<std::int64_t> sizes = s.opts().sizes;
  if (sizes.empty()) {
    if (!s.on_gpu()) sizes = {256, 1024};  // the CPU backend: one algorithm, small sizes
    else if (s.opts().quick) sizes = {1024};
    else sizes = {1024, 4096, 8192, 4097};
  }
  options slow_opts = s.opts();
  slow_opts.warmup = 1;
  slow_opts.repetitions = 3;
  session slow(s.ctx(), slow_opts);

  table t("gemm f32 (C = A B, n x n x n) on " + s.ctx().name() +
              (s.on_gpu() ? ": the ladder vs cuBLAS SGEMM (pedantic FP32, no TF32)" : ""),
          {"n", "variant", "ms", "TFLOP/s", "cuBLAS ms", "cuBLAS TFLOP/s", "vs cuBLAS",
           "max rel diff"});
  for (std::int64_t n : sizes) {
    if (n < 1 || !s.fits(n * n, sizeof(float), 4)) continue;
    const context& ctx = s.ctx();
    auto A = buffer<float>::from_host(ctx, random_data<float>(n * n, 1));
    auto B = buffer<float>::from_host(ctx, random_data<float>(n * n, 2));
    buffer<float> C(ctx, n * n);
    const bool check = n <= 4097;
    double yard_ms = nan, yard_default_ms = nan;
    std::vector<float> reference;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) {
      yard_default_ms = yardstick::cublas_sgemm_ms(s, A.data(), B.data(), C.data(), int(n), int(n),
                                                   int(n), yardstick::cublas_math::standard);
      yard_ms = yardstick::cublas_sgemm_ms(s, A.data(), B.data(), C.data(), int(n), int(n), int(n),
                                           yardstick::cublas_math::pedantic);
      if (check) reference = C.to_host();
    }
#endif
    for (gemm_algorithm alg : ladder) {
      if (!s.on_gpu() && alg != gemm_algorithm::production) continue;  // one CPU algorithm
      if (slow_step(alg) && n > 4097) continue;
      const bool slow_run = slow_step(alg) && n >= 2048;
      auto call = [&] {
        gemm<float>(ctx, A, B, C, n, n, n, 1.0f, 0.0f, transpose::no, transpose::no, alg);
      };
      const double ms = s.on_gpu() ? (slow_run ? slow : s).time_ms(call) : s.time_host_ms(call, 5);
      const double diff = !reference.empty() ? max_rel_diff(C.to_host(), reference) : nan;
      row r;
      r.primitive = "gemm";
      r.variant = s.on_gpu() ? to_string(alg) : "cpu_blocked";
      r.type = "f32";
      r.n = n;
      r.ms = ms;
      r.gbps = 3.0 * double(n) * n * sizeof(float) / (ms * 1e6);  // A, B read once, C written
      r.extra["tflops"] = tflops(n, ms);
      if (!std::isnan(yard_ms)) {
        r.yardstick = "cublas_sgemm_pedantic";
        r.yardstick_ms = yard_ms;
        r.extra["cublas_tflops"] = tflops(n, yard_ms);
        r.extra["cublas_default_math_ms"] = yard_default_ms;
      }
      if (!std::isnan(diff)) r.extra["max_rel_diff_vs_cublas"] = diff;
      t.add({fmt_int(n), r.variant, fmt(ms), fmt(tflops(n, ms), 3), fmt(yard_ms),
             fmt(tflops(n, yard_ms), 3), r.vs_yardstick() ? fmt(*r.vs_yardstick(), 3) : "-",
             std::isnan(diff) ? "-" : fmt(diff * 1e6, 2) + "e-6"});
      s.add(std::move(r));
    }
    if (!std::isnan(yard_default_ms))
      t.add({fmt_int(n), "cuBLAS default math", fmt(yard_default_ms), fmt(tflops(n, yard_default_ms), 3),
             fmt(yard_ms), fmt(tflops(n, yard_ms), 3), fmt(yard_ms / yard_default_ms, 3), "-"});
  }
  t.print();
}

}  // namespace
}  // namespace parprim::bench

PARPRIM_BENCH_SUITE("gemm", "gemm f32: every step of the tiling ladder vs cuBLAS SGEMM (FP32)", 50,
                    parprim::bench::run_gemm);
