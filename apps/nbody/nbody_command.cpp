// `parprim nbody`: simulate, --compare the backends, or run the --ladder.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "common/output_file.hpp"
#include "ladder.hpp"
#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "multi_gpu_run.hpp"
#include "simulate.hpp"

namespace parprim::cli {
namespace {

struct nbody_args {
  nbody::run_options run;
  std::string precision = "float";
  std::string backend_name = "auto";
  std::string json_path;
  bool compare = false, ladder = false, accuracy = false;
  std::vector<std::string> ladder_steps;
  std::int64_t ladder_cpu = -1;  // -1: the ladder's default
  int gpus = 0;                  // --gpus N: a device group of GPUs 0..N-1
  bool gpus_from_env = false;    // --gpus-from-env: one process per GPU
  CLI::Option* n_option = nullptr;
  CLI::Option* init_option = nullptr;
  CLI::Option* steps_option = nullptr;
};

[[noreturn]] void bad(const std::string& what) {
  throw error(errc::invalid_argument, "parprim nbody: " + what);
}

context cuda_or_fail(const char* why) {
  if (!context::cuda_built()) throw error(errc::backend_unavailable, std::string("parprim nbody: ") + why + ": this build has no CUDA backend");
  if (context::cuda_device_count() == 0)
    throw error(errc::backend_unavailable, std::string("parprim nbody: ") + why + ": no CUDA device is available");
  return context::cuda(0);
}

context make_context(const std::string& name) {
  if (name == "cpu") return context::cpu();
  if (name == "cuda") return cuda_or_fail("--backend cuda");
  return context::best_available();
}

void write_json(const std::string& path, const nlohmann::json& doc) {
  if (!path.empty()) apps::write_file(path, doc.dump(2) + "\n", "parprim nbody: --json");
}

// After the options are validated, before anything runs: the outputs can be written.
void check_json_path(const std::string& path) {
  if (!path.empty()) apps::check_output_path(path, "parprim nbody: --json");
}

nlohmann::json ladder_json(const nbody::ladder_report& rep) {
  auto rows = nlohmann::json::array();
  for (auto* section : {&rep.gpu, &rep.cpu})
    for (auto& r : *section)
      rows.push_back({{"step", r.name},
                      {"where", r.where},
                      {"configuration", r.configuration},
                      {"n_run", r.n_run},
                      {"ms", r.ms},
                      {"interactions_per_s", r.interactions_per_s},
                      {"gflops", r.gflops},
                      {"vs_previous", r.vs_previous},
                      {"vs_yardstick", r.vs_yardstick},
                      {"rel_error", r.field_error},
                      {"worst_rel_error", r.worst_error},
                      {"yardstick", r.yardstick}});
  return {{"n", rep.n}, {"device", rep.device}, {"rows", rows},
          {"step_ms", rep.step_ms}, {"force_ms", rep.force_ms}};
}

void run(nbody_args& a) {
  auto& o = a.run;
  o.double_precision = a.precision == "double";
  if (!o.file.empty() && !a.init_option->count()) o.init = "file";  // --file alone means --init file
  o.n_given = a.n_option->count() > 0;
  nlohmann::json doc = {{"command", invoked_command()}};
  if (a.ladder && o.method != "all-pairs") bad("--ladder times the all-pairs kernels (leave out --method)");
  if (a.accuracy) {
    nbody::validate(o);
    doc["accuracy"] = nbody::run_accuracy(make_context(a.backend_name), o, std::cout);
  } else if (a.ladder) {
    if (o.double_precision) bad("--ladder measures the float kernels (leave out --precision double)");
    nbody::ladder_options lo;
    lo.n = a.n_option->count() ? o.n : (std::int64_t(1) << 18);
    lo.eps = o.eps;
    lo.seed = o.seed;
    for (auto& name : a.ladder_steps) {
      const auto r = nbody::rung_named(name);
      if (!r) {
        std::string known;
        for (auto k : nbody::all_rungs()) known += (known.empty() ? "" : ", ") + std::string(nbody::to_string(k));
        bad("--ladder-steps: unknown step '" + name + "' (known: " + known + ")");
      }
      lo.only.push_back(*r);
    }
    if (a.ladder_cpu < -1) bad("--ladder-cpu=" + std::to_string(a.ladder_cpu) + " must be at least 0");
    if (a.ladder_cpu >= 0) lo.cpu_n = a.ladder_cpu;
    if (lo.n <= 0) bad("--n=" + std::to_string(lo.n) + " must be at least 1");
    if (!(lo.eps > 0)) bad("--ladder needs --eps > 0 (the steps from if_elimination on rely on softening)");
    check_json_path(a.json_path);
    context ctx = make_context(a.backend_name);
    auto rep = nbody::run_ladder(ctx, lo);
    nbody::print_ladder(rep, std::cout);
    doc["ladder"] = ladder_json(rep);
  } else if (a.compare) {
    if (!a.n_option->count()) o.n = 4096;
    if (!a.steps_option->count()) o.steps = 10;
    nbody::validate(o);
    check_json_path(a.json_path);
    context gpu = cuda_or_fail("--compare");
    doc["compare"] = nbody::run_compare(context::cpu(), gpu, o, std::cout);
  } else if (a.gpus > 0 || a.gpus_from_env) {
    nbody::validate(o);
    std::vector<int> devices;
    for (int d = 0; d < a.gpus; ++d) devices.push_back(d);
    doc["run"] = nbody::run_group_simulation(
        a.gpus_from_env ? device_group::cuda_process_from_env() : device_group::cuda(devices), o, std::cout);
  } else {
    nbody::validate(o);
    nbody::check_outputs(o);
    check_json_path(a.json_path);
    context ctx = make_context(a.backend_name);
    doc["run"] = nbody::run_simulation(ctx, o, std::cout);
  }
  write_json(a.json_path, doc);
}

}  // namespace

void add_nbody_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<nbody_args>();
  auto& o = a->run;
  auto* cmd = app.add_subcommand("nbody", "Gravitational N-body simulation (all pairs or Barnes-Hut, leapfrog), the course's "
                                          "tuning ladder (--ladder) and a CPU/CUDA comparison (--compare)");
  a->n_option = cmd->add_option("--n", o.n, "Number of bodies (default 16384; --ladder 2^18; --compare 4096)");
  a->steps_option = cmd->add_option("--steps", o.steps, "Leapfrog steps (default 100; --compare 10)");
  cmd->add_option("--dt", o.dt, "Time step in N-body units (default 0.001)");
  cmd->add_option("--eps", o.eps, "Plummer softening length (default 0.01; 0 = none)");
  a->init_option = cmd->add_option("--init", o.init, "Initial conditions: plummer, cube, collision or file")
      ->check(CLI::IsMember({"plummer", "cube", "collision", "file"}));
  cmd->add_option("--file", o.file, "Body file for --init file: CSV lines mass,x,y,z,vx,vy,vz");
  cmd->add_option("--seed", o.seed, "Random seed of the initial conditions (default 1)");
  cmd->add_option("--precision", a->precision, "float or double (default float)")
      ->check(CLI::IsMember({"float", "double"}));
  cmd->add_option("--backend", a->backend_name, "cpu, cuda or auto (cuda when a GPU answers)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_option("--diag-every", o.diag_every, "Diagnostics every K steps (default: steps/10)");
  cmd->add_option("--diag", o.diag_path, "Write the diagnostics as CSV to FILE");
  cmd->add_option("--snapshot-every", o.snapshot_every, "Snapshot every K steps (default: the last step only)");
  cmd->add_option("--snapshots", o.snapshot_dir, "Write snapshots (CSV body files) into DIR");
  cmd->add_option("--frames", o.frame_dir, "Write PNG frames (frame_000000.png, ...) into DIR");
  cmd->add_option("--frame-every", o.frame_every, "A frame every K steps (default 1)");
  cmd->add_option("--frame-size", o.frame_size, "Frame width and height in pixels (default 512)");
  cmd->add_option("--method", o.method, "Forces: all-pairs (exact, the default) or barnes-hut (tree, n log n)")
      ->check(CLI::IsMember({"all-pairs", "barnes-hut"}));
  cmd->add_option("--theta", o.theta, "Barnes-Hut opening angle in [0, 1] (default 0.5; smaller: more accurate)");
  auto* acc = cmd->add_flag("--accuracy", a->accuracy,
                            "Print the relative force error against exact sums over a sample of bodies");
  cmd->add_option("--accuracy-sample", o.accuracy_sample, "--accuracy: bodies compared (default 1000)")->needs(acc);
  auto* cmp = cmd->add_flag("--compare", a->compare, "Run CPU and CUDA on the same bodies and report the differences");
  auto* lad = cmd->add_flag("--ladder", a->ladder, "Time the tuning ladder of force kernels (float)");
  cmp->excludes(lad);
  acc->excludes(cmp);
  acc->excludes(lad);
  cmd->add_option("--ladder-steps", a->ladder_steps, "--ladder: only these GPU steps, e.g. equal_mass,gems3_tiled")
      ->delimiter(',')
      ->needs(lad);
  cmd->add_option("--ladder-cpu", a->ladder_cpu, "--ladder: CPU rows on this many bodies (default 32768; 0: none)")
      ->needs(lad);
  cmd->add_option("--gpus", a->gpus, "Run on a device group of GPUs 0..N-1 (NCCL) and time the steps")
      ->check(CLI::Range(1, 1024));
  cmd->add_flag("--gpus-from-env", a->gpus_from_env,
                "One process per GPU: PARPRIM_RANK, PARPRIM_RANKS, PARPRIM_NCCL_ID (file:PATH or hex:ID)");
  cmd->add_option("--json", a->json_path, "Write the results as JSON to FILE");
  cmd->callback([a, &exit_code] {
    run(*a);
    exit_code = 0;
  });
}

}  // namespace parprim::cli
