// `parprim bench nbody`: the N-body force ladder (apps/nbody/ladder.hpp).
//
// On CUDA: every step of the course's tuning ladder and the production kernel at n = 2^18
// (or --sizes), float, against a GPU Gems 3 style tiled kernel measured in the same run; and
// the whole simulation step against the force kernel alone at n = 2^16 and at each size.
// On the CPU: the backend's blocked SIMD loop against the obvious OpenMP loop.
// Rows: primitive "nbody_force", variant = ladder step, type f32, extra interactions_per_s,
// gflops (20 flops per interaction), n_run (bodies the step ran on; its time is scaled to n).
#include <algorithm>
#include <iostream>

#include "engine.hpp"
#include "ladder.hpp"

namespace parprim::bench {
namespace {

void add_rows(session& s, const nbody::ladder_report& rep, const std::vector<nbody::ladder_row>& rows) {
  const nbody::ladder_row* yard = nullptr;
  for (auto& r : rows)
    if (r.yardstick) yard = &r;
  for (auto& r : rows) {
    row out;
    out.primitive = "nbody_force";
    out.variant = r.name;
    out.type = "f32";
    out.n = rep.n;
    out.ms = r.ms;
    out.gbps = 0;  // compute bound: interactions/s is the figure
    if (yard && !r.yardstick) {
      out.yardstick = yard->name;
      out.yardstick_ms = yard->ms;
    }
    out.extra["interactions_per_s"] = r.interactions_per_s;
    out.extra["gflops"] = r.gflops;
    out.extra["n_run"] = double(r.n_run);
    out.extra["rel_error"] = r.field_error;
    s.add(std::move(out));
  }
}

void run_nbody(session& s) {
  nbody::ladder_options o;
  o.warmup = std::max(1, s.opts().warmup);
  o.max_repetitions = s.opts().repetitions;
  o.budget_ms = s.opts().quick ? 300 : 1500;
  // On a CPU session the rows are measured at the size they report (no n^2 scaling).
  std::vector<std::int64_t> sizes = s.opts().sizes;
  if (sizes.empty()) sizes = {s.on_gpu() ? std::int64_t(1) << 18 : s.opts().quick ? 4096 : o.cpu_n};
  if (!s.on_gpu())
    for (auto& n : sizes) n = std::min(n, o.cpu_n);

  // The whole step against the force kernel at 2^16 too (the target holds from there up).
  if (s.on_gpu() && s.opts().sizes.empty()) {
    nbody::ladder_options small = o;
    small.n = std::int64_t(1) << 16;
    small.cpu_n = 0;
    small.step_only = true;
    auto rep = nbody::run_ladder(s.ctx(), small);
    std::cout << "\nN-body whole step vs forces alone at n = " << small.n << ": " << rep.step_ms << " ms vs "
              << rep.force_ms << " ms (" << 100.0 * (rep.step_ms / rep.force_ms - 1.0) << "% more)\n";
    row r;
    r.primitive = "nbody_step";
    r.variant = "production";
    r.type = "f32";
    r.n = small.n;
    r.ms = rep.step_ms;
    r.yardstick = "force_only";
    r.yardstick_ms = rep.force_ms;
    r.extra["interactions_per_s"] = nbody::interactions(small.n) / (rep.step_ms * 1e-3);
    s.add(std::move(r));
  }

  for (std::int64_t n : sizes) {
    o.n = n;
    auto rep = nbody::run_ladder(s.ctx(), o);
    nbody::print_ladder(rep, std::cout);
    add_rows(s, rep, rep.gpu);
    add_rows(s, rep, rep.cpu);
    if (rep.force_ms > 0) {
      row r;
      r.primitive = "nbody_step";
      r.variant = "production";
      r.type = "f32";
      r.n = n;
      r.ms = rep.step_ms;
      r.yardstick = "force_only";
      r.yardstick_ms = rep.force_ms;
      r.extra["interactions_per_s"] = nbody::interactions(n) / (rep.step_ms * 1e-3);
      s.add(std::move(r));
    }
  }
}

}  // namespace

PARPRIM_BENCH_SUITE("nbody", "N-body forces: the course's tuning ladder vs a GPU Gems 3 tiled kernel "
                             "(CPU: blocked SIMD vs the obvious OpenMP loop)",
                    60, run_nbody);

}  // namespace parprim::bench
