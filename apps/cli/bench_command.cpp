// `parprim bench [PRIMITIVE...]`: runs the benchmark suites on one backend and prints their
// tables; --json and --csv save every row (schema in docs/ARCHITECTURE.md).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "commands.hpp"
#include "common/output_file.hpp"
#include "common/sizes.hpp"
#include "engine.hpp"
#include "parprim/context.hpp"
#include "parprim/device_info.hpp"
#include "parprim/error.hpp"

namespace parprim::cli {
namespace {

struct bench_args {
  std::vector<std::string> primitives;
  std::string backend_name = "auto";
  std::vector<std::string> sizes;
  std::string json_path, csv_path;
  bool variants = false, quick = false, list = false;
  int repetitions = 20, warmup = 3;
  std::string command_line;
};

[[noreturn]] void bad(const std::string& what) {
  throw error(errc::invalid_argument, "parprim bench: " + what);
}

context make_context(const std::string& name) {
  if (name == "cpu") return context::cpu();
  if (name == "cuda") {
    if (!context::cuda_built()) bad("--backend cuda: this build has no CUDA backend");
    if (context::cuda_device_count() == 0) bad("--backend cuda: no CUDA device is available");
    return context::cuda(0);
  }
  return context::best_available();  // "auto"; CLI11 already rejected anything else
}

std::string device_description(const context& ctx) {
  if (ctx.kind() == backend::cuda) {
    for (auto& d : cuda_devices())
      if (d.ordinal == ctx.device()) return d.name + " (" + ctx.name() + ", " + cuda_versions() + ")";
  }
  std::string model = "host CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  return model + " (cpu, " + std::to_string(ctx.threads()) + " threads)";
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

nlohmann::json to_json(const bench::row& r) {
  nlohmann::json j = {{"primitive", r.primitive}, {"variant", r.variant}, {"type", r.type},
                      {"n", r.n},                 {"ms", r.ms},           {"gbps", r.gbps}};
  j["yardstick"] = r.yardstick ? nlohmann::json(*r.yardstick) : nlohmann::json(nullptr);
  j["yardstick_ms"] = r.yardstick_ms ? nlohmann::json(*r.yardstick_ms) : nlohmann::json(nullptr);
  auto vs = r.vs_yardstick();
  j["vs_yardstick"] = vs ? nlohmann::json(*vs) : nlohmann::json(nullptr);
  if (!r.extra.empty()) j["extra"] = r.extra;
  return j;
}

void write_outputs(const bench_args& a, const bench::session& s) {
  if (!a.json_path.empty()) {
    nlohmann::json doc = {{"device", device_description(s.ctx())},
                          {"date", utc_now()},
                          {"command", a.command_line},
                          {"results", nlohmann::json::array()}};
    for (auto& r : s.rows()) doc["results"].push_back(to_json(r));
    apps::write_file(a.json_path, doc.dump(2) + "\n", "parprim bench: --json");
  }
  if (!a.csv_path.empty()) {
    std::ostringstream f;
    f << "primitive,variant,type,n,ms,gbps,yardstick,yardstick_ms,vs_yardstick\n";
    for (auto& r : s.rows()) {
      auto vs = r.vs_yardstick();
      f << r.primitive << "," << r.variant << "," << r.type << "," << r.n << "," << r.ms << ","
        << r.gbps << "," << r.yardstick.value_or("") << ","
        << (r.yardstick_ms ? std::to_string(*r.yardstick_ms) : "") << ","
        << (vs ? std::to_string(*vs) : "") << "\n";
    }
    apps::write_file(a.csv_path, f.str(), "parprim bench: --csv");
  }
}

void run_bench(const bench_args& a) {
  auto& all = bench::registry();
  std::sort(all.begin(), all.end(), [](auto& x, auto& y) { return x.rank < y.rank; });
  if (a.list) {
    for (auto& s : all) std::cout << "  " << s.name << "  " << s.description << "\n";
    return;
  }
  std::vector<const bench::suite*> chosen;
  for (auto& p : a.primitives) {
    auto it = std::find_if(all.begin(), all.end(), [&](auto& s) { return s.name == p; });
    if (it == all.end()) {
      std::string names;
      for (auto& s : all) names += (names.empty() ? "" : ", ") + s.name;
      bad("unknown primitive '" + p + "' (known: " + names + ")");
    }
    chosen.push_back(&*it);
  }
  if (chosen.empty())
    for (auto& s : all) chosen.push_back(&s);

  bench::options o;
  for (auto& text : a.sizes) o.sizes.push_back(apps::parse_size(text, "parprim bench"));
  o.variants = a.variants;
  o.quick = a.quick;
  o.repetitions = a.repetitions;
  o.warmup = a.warmup;
  if (o.repetitions < 1 || o.repetitions > 10000) bad("--reps must be between 1 and 10000");
  if (o.warmup < 0 || o.warmup > 1000) bad("--warmup must be between 0 and 1000");
  // Output paths are checked before the benchmark runs, not found bad after it.
  if (!a.json_path.empty()) apps::check_output_path(a.json_path, "parprim bench: --json");
  if (!a.csv_path.empty()) apps::check_output_path(a.csv_path, "parprim bench: --csv");

  bench::session s(make_context(a.backend_name), o);
  for (auto n : o.sizes)
    if (!s.fits(n, 8, 3)) bad("size " + std::to_string(n) + " does not fit in the memory of " + s.ctx().name());
  std::cout << "parprim bench on " << device_description(s.ctx()) << "\n"
            << "timing: " << o.warmup << " warm-up run(s), median of " << o.repetitions
            << (s.on_gpu() ? " runs (CUDA events)" : " runs (steady clock)") << "\n"
            << "copy bandwidth (read + write): " << bench::fmt(s.copy_gbps(), 1) << " GB/s\n";
  for (auto* suite : chosen) suite->run(s);
  s.ctx().synchronize();
  write_outputs(a, s);
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<bench_args>();
  auto* cmd = app.add_subcommand("bench", "Benchmark the primitives against sequential code and the "
                                          "best-known libraries (CUB, Thrust, cuBLAS) in one run");
  cmd->add_option("primitive", args->primitives, "Suites to run (default: all; see --list)");
  cmd->add_option("--backend", args->backend_name, "cpu, cuda or auto (cuda when a GPU answers)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_option("--sizes", args->sizes, "Element counts, e.g. 1024 2^20 16M (default: per suite)")
      ->delimiter(',');
  cmd->add_option("--json", args->json_path, "Write every row as JSON to FILE");
  cmd->add_option("--csv", args->csv_path, "Write every row as CSV to FILE");
  cmd->add_flag("--variants", args->variants, "Print the ladder of variants of each primitive");
  cmd->add_flag("--quick", args->quick, "Fewer sizes and repetitions (a smoke run)");
  cmd->add_flag("--list", args->list, "List the suites and exit");
  cmd->add_option("--reps", args->repetitions, "Timed repetitions (median is reported)");
  cmd->add_option("--warmup", args->warmup, "Untimed warm-up runs");
  cmd->callback([args, &exit_code] {
    args->command_line = invoked_command();
    run_bench(*args);
    exit_code = 0;
  });
}

}  // namespace parprim::cli
