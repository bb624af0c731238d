// `parprim bench barnes_hut`: the Barnes-Hut N-body step (apps/nbody/barnes_hut.hpp) against
// the all-pairs step measured in the same run, with its phases, force error and energy drift.
//
// Rows (float, Plummer sphere, eps = 0.01, theta = 0.5, dt = 0.001):
//   nbody_barnes_hut_step   one whole step (build + forces + integrate) at each size
//                           (CUDA: 2^20 and 2^24; CPU: 2^18); yardstick: the all-pairs step
//                           at the first size; extra: per-phase ms per step (phase_bbox_ms,
//                           ...), and at the first size the force error (rms, p99) over 1000
//                           bodies against exact sums.
//   nbody_barnes_hut_drift  (CUDA) 1000 steps of 2^16 bodies: ms per step, the relative energy
//                           drift and the momentum change relative to sum m |v|.
#include <chrono>
#include <cmath>
#include <iostream>

#include "barnes_hut.hpp"
#include "barnes_hut_accuracy.hpp"
#include "diagnostics.hpp"
#include "engine.hpp"
#include "initial_conditions.hpp"

namespace parprim::bench {
namespace {

constexpr float eps = 0.01f, theta = 0.5f, dt = 1e-3f;

std::string phase_key(int k) { return std::string("phase_") + nbody::bh_phase_times::names[k] + "_ms"; }

// One step of the system, waited for (the CUDA steps queue asynchronously).
double step_ms(session& s, nbody::body_system<float>& sys, int max_reps) {
  return s.time_host_ms(
      [&] {
        sys.advance(1, dt);
        sys.synchronize();
      },
      max_reps);
}

void step_row(session& s, std::int64_t n, bool with_all_pairs) {
  const auto bodies = nbody::plummer(n, 1).as<float>();
  auto bh = nbody::make_barnes_hut_system<float>(s.ctx(), bodies, eps, theta);
  row r;
  r.primitive = "nbody_barnes_hut_step";
  r.variant = "theta_0.5";
  r.type = "f32";
  r.n = n;
  r.ms = step_ms(s, *bh, 0);
  // Phases over a few steps (each phase then waits for the device: their sum exceeds r.ms).
  bh->time_phases(true);
  bh->advance(5, dt);
  bh->synchronize();
  const auto t = bh->phase_times();
  std::cout << "Barnes-Hut step at n = " << n << ": " << r.ms << " ms; phases (ms per step):";
  for (int k = 0; k < nbody::bh_phase_times::count; ++k) {
    r.extra[phase_key(k)] = t.ms[std::size_t(k)] / double(std::max<std::int64_t>(1, t.steps));
    std::cout << " " << nbody::bh_phase_times::names[k] << " " << r.extra[phase_key(k)];
  }
  std::cout << "\n";
  bh->time_phases(false);
  if (with_all_pairs) {
    const auto e = nbody::measure_force_error(*bh, nbody::even_sample(n, 1000));
    r.extra["force_rms_error"] = e.rms;
    r.extra["force_p99_error"] = e.p99;
    auto ap = nbody::make_body_system<float>(s.ctx(), bodies, eps);
    r.yardstick = "all_pairs";
    r.yardstick_ms = step_ms(s, *ap, 3);
    std::cout << "all-pairs step at n = " << n << ": " << *r.yardstick_ms << " ms (" << *r.yardstick_ms / r.ms
              << "x the tree step); tree force error RMS " << e.rms << ", p99 " << e.p99 << "\n";
  }
  s.add(std::move(r));
}

void drift_row(session& s, std::int64_t n, std::int64_t steps) {
  auto sys = nbody::make_barnes_hut_system<float>(s.ctx(), nbody::plummer(n, 1).as<float>(), eps, theta);
  const auto d0 = nbody::measure(*sys);
  double scale = 0;
  const auto s0 = sys->state();
  for (std::size_t i = 0; i < s0.mass.size(); ++i)
    scale += s0.mass[i] * std::hypot(double(s0.vx[i]), double(s0.vy[i]), double(s0.vz[i]));
  const auto t0 = std::chrono::steady_clock::now();
  sys->advance(steps, dt);
  sys->synchronize();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto d1 = nbody::measure(*sys);
  row r;
  r.primitive = "nbody_barnes_hut_drift";
  r.variant = "theta_0.5";
  r.type = "f32";
  r.n = n;
  r.ms = ms / double(steps);
  r.extra["steps"] = double(steps);
  r.extra["rel_energy_drift"] = nbody::relative_drift(d1, d0);
  r.extra["momentum_change_rel"] = std::hypot(d1.px - d0.px, d1.py - d0.py, d1.pz - d0.pz) / scale;
  std::cout << "Barnes-Hut energy drift over " << steps << " steps of " << n
            << " bodies: " << r.extra["rel_energy_drift"] << ", momentum change " << r.extra["momentum_change_rel"]
            << " of sum m|v|\n";
  s.add(std::move(r));
}

void run_barnes_hut(session& s) {
  const bool quick = s.opts().quick;
  std::vector<std::int64_t> sizes = s.opts().sizes;
  if (sizes.empty()) {
    if (s.on_gpu()) sizes = quick ? std::vector<std::int64_t>{1 << 20} : std::vector<std::int64_t>{1 << 20, 1 << 24};
    else sizes = {quick ? std::int64_t(1) << 14 : std::int64_t(1) << 18};
  }
  for (std::size_t k = 0; k < sizes.size(); ++k) step_row(s, sizes[k], k == 0);
  if (s.on_gpu()) drift_row(s, std::int64_t(1) << 16, quick ? 100 : 1000);
}

}  // namespace

PARPRIM_BENCH_SUITE("barnes_hut", "Barnes-Hut N-body step (tree from parprim primitives) vs the all-pairs step, "
                                  "phases, force error and energy drift",
                    61, run_barnes_hut);

}  // namespace parprim::bench
