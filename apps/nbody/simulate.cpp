// The simulation driver behind `parprim nbody` and `parprim nbody --compare`.
#include "simulate.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "barnes_hut_accuracy.hpp"
#include "body_system.hpp"
#include "common/output_file.hpp"
#include "diagnostics.hpp"
#include "initial_conditions.hpp"
#include "parprim/error.hpp"
#include "progress.hpp"
#include "render.hpp"

namespace parprim::nbody {
namespace {

[[noreturn]] void bad(const std::string& what) {
  throw error(errc::invalid_argument, "parprim nbody: " + what);
}

double interactions_per_step(std::int64_t n) { return double(n) * double(n); }

// From here on a single all-pairs pass takes seconds even on a GPU (2^40 interactions).
constexpr std::int64_t large_system = std::int64_t(1) << 20;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

force_options forces_of(const run_options& o) {
  return {o.method == "barnes-hut" ? force_method::barnes_hut : force_method::all_pairs, o.theta};
}

std::string method_text(const run_options& o) {
  return o.method == "barnes-hut" ? "Barnes-Hut forces (theta = " + num(o.theta) + ")" : "all-pairs forces";
}

body_set<double> initial_bodies(const run_options& o) {
  if (o.init == "plummer") return plummer(o.n, o.seed);
  if (o.init == "cube") return uniform_cube(o.n, o.seed);
  if (o.init == "collision") return colliding_plummers(o.n, o.seed);
  // A large file takes a while: say how far the reading got (on a terminal, like the bar).
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  auto b = read_bodies_csv(o.file, max_bodies, [&](std::int64_t n) {
    if (terminal) std::fprintf(stderr, "\rreading %s: %lld bodies", o.file.c_str(), static_cast<long long>(n));
  });
  if (terminal && b.size() >= (std::int64_t(1) << 20)) std::fprintf(stderr, "\n");
  return b;
}

// The output directory exists (made if missing) and is a directory.
void ensure_dir(const std::string& dir, const char* option) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) bad(std::string(option) + " " + dir + " is not a directory");
    return;
  }
  if (::mkdir(dir.c_str(), 0777) != 0)
    throw error(errc::io_error, std::string("parprim nbody: cannot create ") + option + " directory " + dir);
}

std::string numbered(const std::string& dir, const char* stem, std::int64_t k, const char* ext) {
  char name[64];
  std::snprintf(name, sizeof name, "/%s_%06lld.%s", stem, static_cast<long long>(k), ext);
  return dir + name;
}

nlohmann::json to_json(const diagnostics& d, std::int64_t step, double time, double drift) {
  return {{"step", step},         {"time", time},        {"kinetic", d.kinetic},
          {"potential", d.potential}, {"total", d.total}, {"rel_energy_drift", drift},
          {"momentum", {d.px, d.py, d.pz}}, {"angular_momentum", {d.lx, d.ly, d.lz}}};
}

// The closing lines of a run (energy, momentum, speed, frames) and its JSON summary.
nlohmann::json finish_report(const run_options& o, std::int64_t n, const char* precision,
                             const std::string& backend, const diagnostics& d0,
                             const diagnostics& last, double seconds, std::int64_t frame,
                             nlohmann::json diag_rows, std::ostream& out) {
  const double drift = relative_drift(last, d0);
  const double steps_per_s = seconds > 0 ? double(o.steps) / seconds : 0.0;
  out << "energy " << num(d0.total) << " -> " << num(last.total) << " (relative drift " << num(drift)
      << "), virial ratio 2K/|W| " << num(d0.virial_ratio()) << " -> " << num(last.virial_ratio()) << "\n"
      << "momentum |P| " << num(std::hypot(last.px, last.py, last.pz)) << ", angular momentum |L| "
      << num(std::hypot(d0.lx, d0.ly, d0.lz)) << " -> " << num(std::hypot(last.lx, last.ly, last.lz)) << "\n";
  if (o.steps > 0)
    out << o.steps << " steps in " << num(seconds) << " s (including diagnostics and output): "
        << num(steps_per_s) << " steps/s, " << num(steps_per_s * interactions_per_step(n)) << " interactions/s"
        << (o.method == "barnes-hut" ? " (all-pairs equivalent)" : "") << "\n";
  if (frame > 0) out << frame << " frames in " << o.frame_dir << "\n";

  return {{"n", n},
          {"init", o.init},
          {"seed", o.seed},
          {"precision", precision},
          {"backend", backend},
          {"steps", o.steps},
          {"dt", o.dt},
          {"eps", o.eps},
          {"seconds", seconds},
          {"steps_per_s", steps_per_s},
          {"interactions_per_s", steps_per_s * interactions_per_step(n)},
          {"rel_energy_drift", drift},
          {"method", o.method},
          {"theta", o.theta},
          {"diagnostics", std::move(diag_rows)}};
}

template <class T>
nlohmann::json simulate(const context& ctx, const run_options& o, std::ostream& out) {
  const body_set<T> start = initial_bodies(o).template as<T>();
  const std::int64_t n = start.size();
  if (o.init == "file" && o.n_given && n != o.n)
    bad("--n=" + std::to_string(o.n) + " but " + o.file + " holds " + std::to_string(n) +
        " bodies (leave out --n with --init file)");
  auto sys = make_body_system<T>(ctx, start, T(o.eps), forces_of(o));
  const std::int64_t diag_every = o.diag_every > 0 ? o.diag_every : std::max<std::int64_t>(1, o.steps / 10);

  out << "parprim nbody: " << n << " bodies (" << o.init << (o.init == "file" ? " " + o.file : "")
      << ", seed " << o.seed << "), " << (sizeof(T) == 4 ? "float" : "double") << " on " << ctx.name()
      << ", " << o.steps << " steps of dt = " << num(o.dt) << ", eps = " << num(o.eps)
      << (sys->equal_masses() ? ", equal masses" : "") << ", " << method_text(o) << "\n";
  // The first energy alone is n^2 pair interactions: on a large system say so before it starts.
  if (n >= large_system)
    out << "computing the initial energy: " << num(interactions_per_step(n)) << " pair interactions\n";
  out << std::flush;

  std::unique_ptr<diagnostics_log> log;
  if (!o.diag_path.empty()) log = std::make_unique<diagnostics_log>(o.diag_path);
  if (!o.snapshot_dir.empty()) ensure_dir(o.snapshot_dir, "--snapshots");
  camera cam;
  std::int64_t frame = 0;
  if (!o.frame_dir.empty()) {
    ensure_dir(o.frame_dir, "--frames");
    cam = frame_camera(start, o.frame_size);
  }

  nlohmann::json diag_rows = nlohmann::json::array();
  const diagnostics d0 = measure(*sys);
  diagnostics last = d0;
  auto record = [&](std::int64_t step) {
    last = measure(*sys);
    const double drift = relative_drift(last, d0);
    if (log) log->add(step, double(step) * o.dt, last, drift);
    diag_rows.push_back(to_json(last, step, double(step) * o.dt, drift));
  };
  auto outputs = [&](std::int64_t step) {
    if (!o.frame_dir.empty() && step % o.frame_every == 0) {
      write_png(numbered(o.frame_dir, "frame", frame++, "png"), render_frame(sys->state(), cam, o.frame_size),
                o.frame_size, o.frame_size);
    }
    if (!o.snapshot_dir.empty() &&
        ((o.snapshot_every > 0 && step % o.snapshot_every == 0) || step == o.steps))
      write_bodies_csv(numbered(o.snapshot_dir, "snapshot", step, "csv"), sys->state());
  };
  record(0);
  outputs(0);

  // Advance in chunks that end at every step where some output is due.
  progress_bar bar(o.steps, interactions_per_step(n));
  auto t0 = std::chrono::steady_clock::now();
  std::int64_t step = 0;
  while (step < o.steps) {
    std::int64_t next = std::min(o.steps, (step / diag_every + 1) * diag_every);
    if (!o.frame_dir.empty()) next = std::min(next, (step / o.frame_every + 1) * o.frame_every);
    if (o.snapshot_every > 0) next = std::min(next, (step / o.snapshot_every + 1) * o.snapshot_every);
    // Short chunks keep the progress bar moving on long runs.
    next = std::min(next, step + std::max<std::int64_t>(1, o.steps / 100));
    sys->advance(next - step, T(o.dt));
    sys->synchronize();
    step = next;
    bar.update(step);
    if (step % diag_every == 0 || step == o.steps) record(step);
    outputs(step);
  }
  bar.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (log) log->close();

  return finish_report(o, n, sizeof(T) == 4 ? "float" : "double", ctx.name(), d0, last, seconds,
                       frame, std::move(diag_rows), out);
}

// sqrt(sum |u - v|^2 / sum |v|^2) and max_i |u_i - v_i| / |v_i| over three components.
template <class A, class B>
std::pair<double, double> rel_error(const A& ux, const A& uy, const A& uz, const B& vx, const B& vy, const B& vz) {
  double num = 0, den = 0, worst = 0;
  for (std::size_t i = 0; i < vx.size(); ++i) {
    const double ex = double(ux[i]) - vx[i], ey = double(uy[i]) - vy[i], ez = double(uz[i]) - vz[i];
    const double e2 = ex * ex + ey * ey + ez * ez;
    const double r2 = double(vx[i]) * vx[i] + double(vy[i]) * vy[i] + double(vz[i]) * vz[i];
    num += e2, den += r2;
    if (r2 > 0) worst = std::max(worst, std::sqrt(e2 / r2));
  }
  return {den > 0 ? std::sqrt(num / den) : 0.0, worst};
}

template <class T>
nlohmann::json compare(const context& cpu, const context& gpu, const run_options& o, std::ostream& out) {
  const body_set<T> start = initial_bodies(o).template as<T>();
  auto a = make_body_system<T>(cpu, start, T(o.eps), forces_of(o));
  auto b = make_body_system<T>(gpu, start, T(o.eps), forces_of(o));
  const auto acc_a = a->accelerations(), acc_b = b->accelerations();
  const auto acc = rel_error(acc_b.x, acc_b.y, acc_b.z, acc_a.x, acc_a.y, acc_a.z);
  a->advance(o.steps, T(o.dt));
  b->advance(o.steps, T(o.dt));
  const auto sa = a->state(), sb = b->state();
  const auto pos = rel_error(sb.x, sb.y, sb.z, sa.x, sa.y, sa.z);
  const auto vel = rel_error(sb.vx, sb.vy, sb.vz, sa.vx, sa.vy, sa.vz);
  out << "parprim nbody --compare: " << start.size() << " bodies (" << o.init << "), " << method_text(o) << ", "
      << (sizeof(T) == 4 ? "float" : "double") << ", " << cpu.name() << " vs " << gpu.name() << "\n"
      << "accelerations at step 0: relative error " << num(acc.first) << " (worst body " << num(acc.second) << ")\n"
      << "positions after " << o.steps << " steps: relative error " << num(pos.first) << " (worst body "
      << num(pos.second) << "); velocities " << num(vel.first) << "\n";
  return {{"n", start.size()},
          {"precision", sizeof(T) == 4 ? "float" : "double"},
          {"steps", o.steps},
          {"accel_rel_error", acc.first},
          {"accel_worst_rel_error", acc.second},
          {"position_rel_error", pos.first},
          {"position_worst_rel_error", pos.second},
          {"velocity_rel_error", vel.first}};
}

template <class T>
nlohmann::json accuracy(const context& ctx, const run_options& o, std::ostream& out) {
  const body_set<T> start = initial_bodies(o).template as<T>();
  auto sys = make_body_system<T>(ctx, start, T(o.eps), forces_of(o));
  const auto t0 = std::chrono::steady_clock::now();
  sys->accelerations();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const force_error e = measure_force_error(*sys, even_sample(start.size(), o.accuracy_sample));
  out << "parprim nbody --accuracy: " << start.size() << " bodies (" << o.init << ", seed " << o.seed << "), "
      << (sizeof(T) == 4 ? "float" : "double") << " on " << ctx.name() << ", " << method_text(o)
      << ", eps = " << num(o.eps) << "\n"
      << "relative force error |a - a_exact| / |a_exact| over " << e.sample
      << " bodies (exact: double-precision sums over all bodies):\n"
      << "  median " << num(e.median) << ", RMS " << num(e.rms) << ", 99th percentile " << num(e.p99) << ", max "
      << num(e.max) << "\n"
      << "forces in " << num(ms) << " ms (first evaluation, including the tree build)\n";
  return {{"n", start.size()},       {"init", o.init},       {"seed", o.seed},
          {"precision", sizeof(T) == 4 ? "float" : "double"}, {"backend", ctx.name()},
          {"method", o.method},      {"theta", o.theta},     {"eps", o.eps},
          {"sample", e.sample},      {"median", e.median},   {"rms", e.rms},
          {"p99", e.p99},            {"max", e.max},         {"force_ms", ms}};
}

}  // namespace

void check_outputs(const run_options& o) {
  if (!o.diag_path.empty()) apps::check_output_path(o.diag_path, "parprim nbody: --diag");
  if (!o.snapshot_dir.empty()) ensure_dir(o.snapshot_dir, "--snapshots");
  if (!o.frame_dir.empty()) ensure_dir(o.frame_dir, "--frames");
}

void validate(const run_options& o) {
  if ((o.init != "file" || o.n_given) && o.n <= 0) bad("--n=" + std::to_string(o.n) + " must be at least 1");
  if (o.n > max_bodies) bad("--n=" + std::to_string(o.n) + " is more than 2^30 bodies");
  if (o.init == "collision" && o.n < 2) bad("--init collision needs --n of at least 2");
  if (o.steps < 0) bad("--steps=" + std::to_string(o.steps) + " is negative");
  if (!(o.dt > 0) || !std::isfinite(o.dt)) bad("--dt=" + num(o.dt) + " must be a positive time step");
  if (!(o.eps >= 0) || !std::isfinite(o.eps)) bad("--eps=" + num(o.eps) + " must be >= 0");
  if (o.init == "file" && o.file.empty()) bad("--init file needs --file PATH");
  if (o.init != "file" && !o.file.empty()) bad("--file is only read with --init file");
  if (o.diag_every < 0) bad("--diag-every=" + std::to_string(o.diag_every) + " is negative");
  if (o.snapshot_every < 0) bad("--snapshot-every=" + std::to_string(o.snapshot_every) + " is negative");
  if (o.snapshot_every > 0 && o.snapshot_dir.empty()) bad("--snapshot-every needs --snapshots DIR");
  if (o.frame_every < 1) bad("--frame-every=" + std::to_string(o.frame_every) + " must be at least 1");
  if (o.method != "all-pairs" && o.method != "barnes-hut")
    bad("--method=" + o.method + " must be all-pairs or barnes-hut");
  if (!(o.theta >= 0 && o.theta <= 1)) bad("--theta=" + num(o.theta) + " must be in [0, 1]");
  if (o.accuracy_sample < 1) bad("--accuracy-sample=" + std::to_string(o.accuracy_sample) + " must be at least 1");
  if (o.frame_size < 16 || o.frame_size > 8192)
    bad("--frame-size=" + std::to_string(o.frame_size) + " must be between 16 and 8192");
}

nlohmann::json run_simulation(const context& ctx, const run_options& o, std::ostream& out) {
  validate(o);
  return o.double_precision ? simulate<double>(ctx, o, out) : simulate<float>(ctx, o, out);
}

nlohmann::json run_accuracy(const context& ctx, const run_options& o, std::ostream& out) {
  validate(o);
  return o.double_precision ? accuracy<double>(ctx, o, out) : accuracy<float>(ctx, o, out);
}

nlohmann::json run_compare(const context& cpu, const context& gpu, const run_options& o, std::ostream& out) {
  validate(o);
  return o.double_precision ? compare<double>(cpu, gpu, o, out) : compare<float>(cpu, gpu, o, out);
}

}  // namespace parprim::nbody
