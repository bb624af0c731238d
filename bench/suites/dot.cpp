// `parprim bench dot`: both dot algorithms against cuBLAS Sdot, f32, up to 2^27 elements.
// Bandwidth counts the 2 * n * 4 bytes read; results stay on the device (dot_into, and
// cuBLAS in device pointer mode), so no host synchronization is timed.
#include <cmath>
#include <limits>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/dot.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cublas.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

void run_dot(session& s) {
  const auto sizes = s.sizes_or({1 << 20, 1 << 24, 1 << 27}, 2 * sizeof(float));
  table t("dot f32 on " + s.ctx().name() + " (copy bandwidth " + fmt(s.copy_gbps(), 0) + " GB/s)",
          {"n", "variant", "ms", "GB/s", "% of copy", "cuBLAS ms", "cuBLAS GB/s", "vs cuBLAS"});
  for (std::int64_t n : sizes) {
    const context& ctx = s.ctx();
    auto x = buffer<float>::from_host(ctx, random_data<float>(n, 3));
    auto y = buffer<float>::from_host(ctx, random_data<float>(n, 4));
    buffer<float> out(ctx, 1);
    workspace ws(ctx);
    const double bytes = 2.0 * double(n) * sizeof(float);
    double yard_ms = nan;
#if PARPRIM_HAVE_CUDA
    if (s.on_gpu()) yard_ms = yardstick::cublas_sdot_ms(s, x.data(), y.data(), n, out.data());
#endif
    for (dot_algorithm alg : {dot_algorithm::shared_memory, dot_algorithm::production}) {
      if (!s.on_gpu() && alg != dot_algorithm::production) continue;  // one CPU algorithm
      const double ms = s.time_ms([&] { dot_into<float>(ctx, x, y, out, alg, &ws); });
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
      t.add({fmt_int(n), r.variant, fmt(ms, 4), fmt(r.gbps, 0), fmt(r.extra["pct_of_copy"], 1),
             fmt(yard_ms, 4), fmt(bytes / (yard_ms * 1e6), 0),
             r.vs_yardstick() ? fmt(*r.vs_yardstick(), 3) : "-"});
      s.add(std::move(r));
    }
  }
  t.print();
}

}  // namespace
}  // namespace parprim::bench

PARPRIM_BENCH_SUITE("dot", "dot f32: shared-memory and production kernels vs cuBLAS Sdot", 51,
                    parprim::bench::run_dot);
