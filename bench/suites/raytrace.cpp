// `parprim bench raytrace`: frames per second of the sphere ray tracer at 1920x1080 with 20,
// 100 and 1000 spheres, spheres in constant versus global memory (the constant row's
// yardstick is the global row: vs > 1 means constant memory is faster). Then the fast-math
// intrinsics on the shading arithmetic: time and accuracy cost.
#include <cmath>
#include <vector>

#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "raytrace/render.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/fast_math.hpp"
#endif

namespace parprim::bench {
namespace {

void run_raytrace(session& s) {
  using namespace parprim::raytrace;
  const int w = 1920, h = 1080;
  std::vector<int> counts = {20, 100, 1000};
  if (!s.on_gpu() || s.opts().quick) counts = {20};  // the CPU takes ~0.1-1 s per frame
  table t("raytrace " + std::to_string(w) + "x" + std::to_string(h) + " on " + s.ctx().name(),
          {"spheres", "memory", "ms/frame", "FPS", "vs global"});
  for (int count : counts) {
    const scene sc = random_scene(count, 1);
    double global_ms = 0;
    const sphere_memory order[] = {sphere_memory::global, sphere_memory::constant};
    for (sphere_memory m : order) {
      if (!s.on_gpu() && m == sphere_memory::constant) continue;
      renderer r(s.ctx(), sc, w, h, m);
      const double ms = s.on_gpu() ? s.time_ms([&] { r.render(); })
                                   : s.time_host_ms([&] { r.render(); }, 3);
      row row_;
      row_.primitive = "raytrace";
      row_.variant = s.on_gpu() ? to_string(r.memory()) : "cpu";
      row_.type = "f32";
      row_.n = count;
      row_.ms = ms;
      row_.gbps = 0;
      row_.extra["fps"] = 1000.0 / ms;
      row_.extra["width"] = w;
      row_.extra["height"] = h;
      if (m == sphere_memory::global) global_ms = ms;
      if (m == sphere_memory::constant) {
        row_.yardstick = "global";
        row_.yardstick_ms = global_ms;
      }
      t.add({fmt_int(count), row_.variant, fmt(ms, 4), fmt(1000.0 / ms, 0),
             row_.vs_yardstick() ? fmt(*row_.vs_yardstick(), 3) : "-"});
      s.add(std::move(row_));
    }
  }
  t.print();

#if PARPRIM_HAVE_CUDA
  if (s.on_gpu()) {
    const std::int64_t points = std::int64_t(1) << 22;
    const auto fm = yardstick::fast_math_shading(s, points);
    table f("fast-math intrinsics on shading (" + fmt_int(points) + " points x " +
                fmt(fm.lights_per_point, 0) + " lights) on " + s.ctx().name(),
            {"variant", "ms", "speedup", "max rel error", "mean rel error"});
    f.add({"precise (1/sqrtf, '/', expf)", fmt(fm.precise_ms, 4), "1.000", "0", "0"});
    f.add({"fast (rsqrtf, __fdividef, __expf)", fmt(fm.fast_ms, 4), fmt(fm.precise_ms / fm.fast_ms, 3),
           fmt(fm.max_rel_error * 1e6, 3) + "e-6", fmt(fm.mean_rel_error * 1e6, 3) + "e-6"});
    f.print();
    for (bool fast : {false, true}) {
      row r;
      r.primitive = "fast_math_shading";
      r.variant = fast ? "fast_intrinsics" : "precise";
      r.type = "f32";
      r.n = points;
      r.ms = fast ? fm.fast_ms : fm.precise_ms;
      if (fast) {
        r.yardstick = "precise";
        r.yardstick_ms = fm.precise_ms;
        r.extra["max_rel_error"] = fm.max_rel_error;
        r.extra["mean_rel_error"] = fm.mean_rel_error;
      }
      s.add(std::move(r));
    }
  }
#endif
}

}  // namespace
}  // namespace parprim::bench

PARPRIM_BENCH_SUITE("raytrace",
                    "ray tracer: constant vs global sphere memory (FPS); fast-math intrinsics", 52,
                    parprim::bench::run_raytrace);
