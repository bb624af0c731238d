// The ladder runner: times every step, checks it against the double-precision oracle, and
// prints the table.
#include "ladder.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>

#include "cpu/cpu_forces.hpp"
#include "initial_conditions.hpp"
#include "parprim/device_info.hpp"
#include "parprim/error.hpp"
#include "parprim/timer.hpp"
#include "reference/nbody_ref.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/kernels.hpp"
#endif

namespace parprim::nbody {

const char* to_string(rung r) {
  switch (r) {
    case rung::one_thread: return "one_thread";
    case rung::n_threads: return "n_threads";
    case rung::scalar_arrays: return "scalar_arrays";
    case rung::constant_params: return "constant_params";
    case rung::rsqrtf: return "rsqrtf";
    case rung::two_loops: return "two_loops";
    case rung::shared_blocking: return "shared_blocking";
    case rung::loop_unrolling: return "loop_unrolling";
    case rung::if_elimination: return "if_elimination";
    case rung::fma_order: return "fma_order";
    case rung::unroll_128: return "unroll_128";
    case rung::fast_math: return "fast_math";
    case rung::float4_tiles: return "float4_tiles";
    case rung::register_blocking: return "register_blocking";
    case rung::j_slices: return "j_slices";
    case rung::equal_mass: return "equal_mass";
    case rung::gems3_tiled: return "gems3_tiled";
  }
  return "?";
}

std::vector<rung> all_rungs() {
  std::vector<rung> r;
  for (int k = 0; k <= int(rung::gems3_tiled); ++k) r.push_back(static_cast<rung>(k));
  return r;
}

std::optional<rung> rung_named(const std::string& name) {
  for (rung r : all_rungs())
    if (name == to_string(r)) return r;
  return std::nullopt;
}

#if !PARPRIM_HAVE_CUDA
struct gpu_ladder::impl {};
gpu_ladder::gpu_ladder(const context& ctx, const body_set<float>&, float) {
  throw error(errc::backend_unavailable,
              "parprim::nbody::gpu_ladder [" + ctx.name() + "]: this build has no CUDA backend");
}
gpu_ladder::~gpu_ladder() = default;
bool gpu_ladder::applicable(rung) const { return false; }
std::string gpu_ladder::configuration(rung) const { return ""; }
void gpu_ladder::run(rung) {}
accel_set<float> gpu_ladder::result(rung) { return {}; }
void gpu_ladder::poison() {}
#endif

namespace {

using clock_type = std::chrono::steady_clock;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// Warm-up runs (the first also estimates the time), then as many timed runs as fit the
// budget, at least one and at most max_repetitions; the median.
double time_runs(const std::function<double()>& once, const ladder_options& o) {
  double estimate = once();
  for (int k = 1; k < o.warmup; ++k) estimate = once();
  const int reps = std::clamp(int(o.budget_ms / std::max(estimate, 1e-3)), 1, std::max(1, o.max_repetitions));
  std::vector<double> t;
  for (int k = 0; k < reps; ++k) t.push_back(once());
  return median(t);
}

body_set<float> first_bodies(const body_set<float>& b, std::int64_t count) {
  body_set<float> out;
  auto cut = [count](const std::vector<float>& from, std::vector<float>& to) {
    to.assign(from.begin(), from.begin() + count);
  };
  cut(b.mass, out.mass), cut(b.x, out.x), cut(b.y, out.y), cut(b.z, out.z);
  cut(b.vx, out.vx), cut(b.vy, out.vy), cut(b.vz, out.vz);
  return out;
}

ladder_row make_row(std::string name, std::string where, std::string config, std::int64_t n_run,
                    std::int64_t n, double ms_run) {
  ladder_row r;
  r.name = std::move(name), r.where = std::move(where), r.configuration = std::move(config);
  r.n_run = n_run;
  r.ms = ms_run * interactions(n) / interactions(n_run);  // all-pairs work grows as n^2
  r.interactions_per_s = interactions(n) / (r.ms * 1e-3);
  r.gflops = 20.0 * r.interactions_per_s / 1e9;
  return r;
}

template <class Accels>
void check_row(ladder_row& row, const body_set<float>& bodies, const Accels& a, double eps) {
  auto e = reference::nbody_accel_error(bodies, a, eps, reference::nbody_sample(bodies.size(), 64));
  row.field_error = e.field, row.worst_error = e.worst;
}

// Speedups over the previous row and against the yardstick row of a section.
void relate(std::vector<ladder_row>& rows) {
  double yard = 0;
  for (auto& r : rows)
    if (r.yardstick) yard = r.ms;
  const ladder_row* prev = nullptr;
  for (auto& r : rows) {
    if (r.yardstick) continue;
    if (prev) r.vs_previous = prev->ms / r.ms;
    if (yard > 0) r.vs_yardstick = yard / r.ms;
    prev = &r;
  }
}

#if PARPRIM_HAVE_CUDA
void gpu_rows(const context& ctx, const body_set<float>& bodies, const ladder_options& o,
              ladder_report& rep) {
  const float eps = float(o.eps);
  gpu_ladder full(ctx, bodies, eps);
  const std::int64_t small_n = std::min<std::int64_t>(bodies.size(), std::max<std::int64_t>(1, o.one_thread_n));
  const body_set<float> small_bodies = first_bodies(bodies, small_n);
  gpu_ladder small(ctx, small_bodies, eps);
  stream_timer timer(ctx, "nbody");
  for (rung r : all_rungs()) {
    if (!full.applicable(r) || o.step_only) continue;
    if (!o.only.empty() && std::find(o.only.begin(), o.only.end(), r) == o.only.end()) continue;
    gpu_ladder& lad = r == rung::one_thread ? small : full;
    const std::int64_t n_run = r == rung::one_thread ? small_n : bodies.size();
    double ms = time_runs([&] { return timer.time_ms([&] { lad.run(r); }); }, o);
    ladder_row row = make_row(to_string(r), ctx.name(), lad.configuration(r), n_run, bodies.size(), ms);
    row.yardstick = r == rung::gems3_tiled;
    check_row(row, r == rung::one_thread ? small_bodies : bodies, lad.result(r), o.eps);
    rep.gpu.push_back(row);
  }
  if (!rep.gpu.empty()) relate(rep.gpu);

  // The whole production step against its force evaluation alone.
  auto system = make_body_system<float>(ctx, bodies, eps);
  const rung production = full.applicable(rung::equal_mass) ? rung::equal_mass : rung::j_slices;
  rep.force_ms = time_runs([&] { return timer.time_ms([&] { full.run(production); }); }, o);
  rep.step_ms = time_runs([&] { return timer.time_ms([&] { system->advance(1, 1e-4f); }); }, o);
  ctx.synchronize();
}
#endif

void cpu_rows(const body_set<float>& bodies, const ladder_options& o, ladder_report& rep) {
  const std::int64_t m = std::min(bodies.size(), o.cpu_n);
  const body_set<float> b = first_bodies(bodies, m);
  const context cpu = context::cpu();
  const float eps2 = float(o.eps) * float(o.eps);
  accel_set<float> a;
  for (auto* v : {&a.x, &a.y, &a.z}) v->assign(std::size_t(m), 0.0f);
  auto host_ms = [](const std::function<void()>& fn) {
    auto t0 = clock_type::now();
    fn();
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
  };
  const std::string where = "cpu (" + std::to_string(cpu.threads()) + " threads)";
  double obvious = time_runs([&] {
    return host_ms([&] {
      cpu::forces_obvious<float>(m, cpu.threads(), b.x.data(), b.y.data(), b.z.data(), b.mass.data(),
                                 eps2, a.x.data(), a.y.data(), a.z.data());
    });
  }, o);
  ladder_row yard = make_row("cpu_obvious", where, "omp parallel for, if (i != j)", m, bodies.size(), obvious);
  yard.yardstick = true;
  check_row(yard, b, a, o.eps);
  auto system = make_body_system<float>(cpu, b, float(o.eps));
  double ours = time_runs([&] {
    return host_ms([&] {
      cpu::forces<float>(m, cpu.threads(), b.x.data(), b.y.data(), b.z.data(), b.mass.data(), eps2,
                         a.x.data(), a.y.data(), a.z.data());
    });
  }, o);
  ladder_row row = make_row("cpu_backend", where,
                            std::to_string(cpu::i_block) + "-body blocks x " + std::to_string(cpu::j_tile) +
                                "-body tiles, SIMD",
                            m, bodies.size(), ours);
  check_row(row, b, system->accelerations(), o.eps);
  rep.cpu = {row, yard};
  relate(rep.cpu);
}

std::string sci(double v, int digits = 3) {
  if (!(v > 0)) return "-";
  std::ostringstream s;
  s << std::setprecision(digits) << v;
  return s.str();
}

std::string fixed(double v, int digits) {
  if (!(v > 0)) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

void print_section(const std::vector<ladder_row>& rows, std::int64_t n, const std::string& title,
                   const char* yard_name, std::ostream& out) {
  if (rows.empty()) return;
  const std::vector<std::string> head = {"step", "configuration", "n run", "ms", "interactions/s",
                                         "GFLOP/s", "vs previous", std::string("vs ") + yard_name,
                                         "rel err"};
  std::vector<std::vector<std::string>> cells;
  for (auto& r : rows)
    cells.push_back({r.name, r.configuration, std::to_string(r.n_run), fixed(r.ms, 3),
                     sci(r.interactions_per_s), fixed(r.gflops, 0), fixed(r.vs_previous, 2),
                     r.yardstick ? "1.00" : fixed(r.vs_yardstick, 2), sci(r.field_error, 2)});
  std::vector<std::size_t> w(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    w[c] = head[c].size();
    for (auto& row : cells) w[c] = std::max(w[c], row[c].size());
  }
  out << "\n" << title << " (n = " << n << "; ms for one force evaluation at that n, steps run on fewer "
      << "bodies scaled by n^2; 20 flops per interaction)\n";
  auto line = [&](const std::vector<std::string>& r) {
    out << "|";
    for (std::size_t c = 0; c < r.size(); ++c)
      out << " " << (c < 2 ? r[c] + std::string(w[c] - r[c].size(), ' ') : std::string(w[c] - r[c].size(), ' ') + r[c]) << " |";
    out << "\n";
  };
  line(head);
  out << "|";
  for (auto x : w) out << std::string(x + 2, '-') << "|";
  out << "\n";
  for (auto& r : cells) line(r);
}

}  // namespace

ladder_report run_ladder(const context& ctx, const ladder_options& o) {
  if (o.n < 1)
    throw error(errc::invalid_argument, "parprim nbody --ladder: n=" + std::to_string(o.n) + " must be at least 1");
  if (!(o.eps > 0))
    throw error(errc::invalid_argument, "parprim nbody --ladder: eps must be > 0 (the steps from "
                                        "if_elimination on rely on softening)");
  ladder_report rep;
  rep.n = o.n;
  rep.device = ctx.name();
  for (auto& d : cuda_devices())
    if (ctx.kind() == backend::cuda && d.ordinal == ctx.device()) rep.device = d.name + " (" + ctx.name() + ")";
  const body_set<float> bodies = plummer(o.n, o.seed).as<float>();
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda && o.gpu) gpu_rows(ctx, bodies, o, rep);
#endif
  if (o.cpu_n > 0) cpu_rows(bodies, o, rep);
  return rep;
}

void print_ladder(const ladder_report& rep, std::ostream& out) {
  print_section(rep.gpu, rep.n, "N-body force ladder, float, on " + rep.device, "gems3", out);
  if (rep.force_ms > 0)
    out << "\nwhole step (kick, drift, forces, kick) " << fixed(rep.step_ms, 3) << " ms vs forces alone "
        << fixed(rep.force_ms, 3) << " ms: " << std::fixed << std::setprecision(1)
        << 100.0 * (rep.step_ms / rep.force_ms - 1.0) << "% more\n";
  print_section(rep.cpu, rep.n, "N-body forces on the CPU, float", "obvious", out);
}

}  // namespace parprim::nbody
