// `parprim bench gemm`: every step of the GEMM ladder against cuBLAS SGEMM, f32, square
// matrices of 1024, 4096, 8192 and 4097 (a size that is no multiple of any tile).
//
// cuBLAS runs in pedantic FP32 mode (no TF32): the same arithmetic as ours. Its default
// math mode is timed too, for reference. The slowest steps (naive, tiled4, tiled8) run only
// up to 4097, and with 1 warm-up and 3 timed runs instead of the session's counts.
//
// Every variant's C (poisoned with NaN before its timed calls) is compared element by element
// with cuBLAS's pedantic result (GPU: "matches_cublas") or with the product taken in double on
// the host (CPU: "matches_sequential"), with the largest relative difference "max_rel_diff",
// up to n = 8192. Why sum_tolerance (checks.hpp) holds there: A and B are in [0, 1), so every
// term a_ik b_kj is >= 0 and |C_ij| is the sum of its n terms' magnitudes; a sum of n rounded
// products in any order is within n 2^-24 |C_ij| of the exact one (Higham, eq. 4.4, one more
// rounding per product), so two of them are within 2n 2^-24 |C_ij|: under 1e-3 for n <= 8192.
// Larger n are not checked.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "checks.hpp"
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

constexpr std::int64_t largest_checked = 8192;

// C = A B for n x n row-major matrices, summed in double and rounded to f32: the CPU rows'
// oracle, a plain triple loop (rows in parallel: 0.15 s at n = 1024 on 2 threads, less than
// the timed calls of our gemm take).
std::vector<float> host_product(const std::vector<float>& A, const std::vector<float>& B, std::int64_t n) {
  std::vector<float> C(static_cast<std::size_t>(n * n));
#pragma omp parallel
  {
    std::vector<double> sums(static_cast<std::size_t>(n));
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < n; ++i) {
      std::fill(sums.begin(), sums.end(), 0.0);
      for (std::int64_t k = 0; k < n; ++k) {
        const double a = A[i * n + k];
        const float* b = &B[k * n];
        for (std::int64_t j = 0; j < n; ++j) sums[j] += a * double(b[j]);
      }
      for (std::int64_t j = 0; j < n; ++j) C[i * n + j] = float(sums[j]);
    }
  }
  return C;
}

// ours against theirs, element by element, within sum_tolerance * |theirs| (see the top of
// the file), as compare_sums in checks.hpp for a whole matrix; NaN fails.
verdict compare_products(const std::vector<float>& ours, const std::vector<float>& theirs) {
  if (ours.size() != theirs.size()) return exact(false);
  bool ok = true;
  double max_rel_diff = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    const double diff = std::fabs(double(ours[i]) - double(theirs[i])), magnitude = std::fabs(double(theirs[i]));
    if (!(diff <= sum_tolerance * magnitude)) ok = false;
    if (magnitude > 0) max_rel_diff = std::max(max_rel_diff, diff / magnitude);
  }
  return {ok ? 1.0 : 0.0, max_rel_diff};
}

struct yardstick_times {
  double pedantic_ms = nan, default_math_ms = nan;
};

void add_row(session& s, table& t, std::int64_t n, const std::string& variant, double ms,
             const yardstick_times& y, const verdict& check) {
  row r;
  r.primitive = "gemm";
  r.variant = variant;
  r.type = "f32";
  r.n = n;
  r.ms = ms;
  r.gbps = 3.0 * double(n) * n * sizeof(float) / (ms * 1e6);  // A, B read once, C written
  r.extra["tflops"] = tflops(n, ms);
  if (!std::isnan(y.pedantic_ms)) {
    r.yardstick = "cublas_sgemm_pedantic";
    r.yardstick_ms = y.pedantic_ms;
    r.extra["cublas_tflops"] = tflops(n, y.pedantic_ms);
    r.extra["cublas_default_math_ms"] = y.default_math_ms;
  }
  record_check(r, s.on_gpu() ? "matches_cublas" : "matches_sequential", check);
  t.add({fmt_int(n), r.variant, fmt(ms), fmt(tflops(n, ms), 3), fmt(y.pedantic_ms),
         fmt(tflops(n, y.pedantic_ms), 3), r.vs_yardstick() ? fmt(*r.vs_yardstick(), 3) : "-",
         std::isnan(check.max_rel_diff) ? "-" : fmt(check.max_rel_diff * 1e6, 2) + "e-6",
         check_cell(check.matches)});
  s.add(std::move(r));
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
          {"n", "variant", "ms", "TFLOP/s", "cuBLAS ms", "cuBLAS TFLOP/s", "vs cuBLAS", "max rel diff",
           s.on_gpu() ? "same as cuBLAS" : "same as sequential"});
  for (std::int64_t n : sizes) {
    if (n < 1 || !s.fits(n * n, sizeof(float), 4)) continue;
    const context& ctx = s.ctx();
    const std::vector<float> host_a = random_data<float>(n * n, 1), host_b = random_data<float>(n * n, 2);
    auto A = buffer<float>::from_host(ctx, host_a);
    auto B = buffer<float>::from_host(ctx, host_b);
    buffer<float> C(ctx, n * n);
    const bool check = n <= largest_checked;
    yardstick_times y;
    std::vector<float> reference;  // cuBLAS's C or the host's, where checked
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) {
      y.default_math_ms = yardstick::cublas_sgemm_ms(s, A.data(), B.data(), C.data(), int(n), int(n), int(n),
                                                     yardstick::cublas_math::standard);
      y.pedantic_ms = yardstick::cublas_sgemm_ms(s, A.data(), B.data(), C.data(), int(n), int(n), int(n),
                                                 yardstick::cublas_math::pedantic);
      if (check) reference = C.to_host();
    }
#endif
    if (check && !s.on_gpu()) reference = host_product(host_a, host_b, n);
    for (gemm_algorithm alg : ladder) {
      if (!s.on_gpu() && alg != gemm_algorithm::production) continue;  // one CPU algorithm
      if (slow_step(alg) && n > 4097) continue;
      const bool slow_run = slow_step(alg) && n >= 2048;
      auto call = [&] {
        gemm<float>(ctx, A, B, C, n, n, n, 1.0f, 0.0f, transpose::no, transpose::no, alg);
      };
      C.fill_bytes(0xFF);  // NaN: a variant that writes nothing fails the check
      const double ms = s.on_gpu() ? (slow_run ? slow : s).time_ms(call) : s.time_host_ms(call, 5);
      const verdict v = check ? compare_products(C.to_host(), reference) : verdict{};
      add_row(s, t, n, s.on_gpu() ? to_string(alg) : "cpu_blocked", ms, y, v);
    }
    if (!std::isnan(y.default_math_ms))
      t.add({fmt_int(n), "cuBLAS default math", fmt(y.default_math_ms), fmt(tflops(n, y.default_math_ms), 3),
             fmt(y.pedantic_ms), fmt(tflops(n, y.pedantic_ms), 3), fmt(y.pedantic_ms / y.default_math_ms, 3),
             "-", "-"});
  }
  t.print();
}

}  // namespace
}  // namespace parprim::bench

PARPRIM_BENCH_SUITE("gemm", "gemm f32: every step of the tiling ladder vs cuBLAS SGEMM (FP32)", 50,
                    parprim::bench::run_gemm);
