// `parprim bench [PRIMITIVE...]`: runs the benchmark suites on one backend and prints their
// tables; --json and --csv save every row (schema in docs/ARCHITECTURE.md).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
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
  int gpus = 0;
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

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const bench::row& r) {
  nlohmann::json j = {{"primitive", r.primitive}, {"variant", r.variant}, {"type", r.type},
                      {"n", r.n},                 {"ms", r.ms}};
  j["ms_min"] = optional_json(r.ms_min);
  j["ms_max"] = optional_json(r.ms_max);
  j["gbps"] = r.gbps;
  j["yardstick"] = r.yardstick ? nlohmann::json(*r.yardstick) : nlohmann::json(nullptr);
  j["yardstick_ms"] = optional_json(r.yardstick_ms);
  j["vs_yardstick"] = optional_json(r.vs_yardstick());
  if (!r.extra.empty()) j["extra"] = r.extra;
  return j;
}

std::string json_document(const bench_args& a, const bench::session& s) {
  nlohmann::json doc = {{"device", device_description(s.ctx())},
                        {"date", utc_now()},
                        {"command", a.command_line},
                        {"timing", {{"warmup", s.opts().warmup},
                                    {"repetitions", s.opts().repetitions},
                                    {"host_slow_ms", bench::host_slow_ms},
                                    {"host_budget_ms", bench::host_budget_ms}}},
                        {"results", nlohmann::json::array()}};
  for (auto& r : s.rows()) doc["results"].push_back(to_json(r));
  return doc.dump(2) + "\n";
}

// One RFC 4180 field: quoted (with doubled quotes) when it holds a comma, quote or line break.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The shortest text that reads back as the same double; empty for no value.
std::string csv_number(const std::optional<double>& v) {
  if (!v) return "";
  char buf[32];
  auto end = std::to_chars(buf, buf + sizeof buf, *v).ptr;
  return std::string(buf, end);
}

// Every field of the JSON rows, one column per key of `extra` after the fixed ones; lines end
// in CRLF as RFC 4180 says.
std::string csv_document(const bench::session& s) {
  std::set<std::string> extra_keys;
  for (auto& r : s.rows())
    for (auto& [key, value] : r.extra) extra_keys.insert(key);
  std::vector<std::string> header{"primitive", "variant", "type", "n", "ms", "ms_min", "ms_max",
                                  "gbps", "yardstick", "yardstick_ms", "vs_yardstick"};
  header.insert(header.end(), extra_keys.begin(), extra_keys.end());
  std::ostringstream out;
  auto line = [&](const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << csv_field(fields[i]);
    out << "\r\n";
  };
  line(header);
  for (auto& r : s.rows()) {
    std::vector<std::string> fields{r.primitive, r.variant, r.type, std::to_string(r.n),
                                    csv_number(r.ms), csv_number(r.ms_min), csv_number(r.ms_max),
                                    csv_number(r.gbps), r.yardstick.value_or(""),
                                    csv_number(r.yardstick_ms), csv_number(r.vs_yardstick())};
    for (auto& key : extra_keys) {
      auto it = r.extra.find(key);
      fields.push_back(it == r.extra.end() ? "" : csv_number(it->second));
    }
    line(fields);
  }
  return out.str();
}

void write_outputs(const bench_args& a, const bench::session& s) {
  if (!a.json_path.empty()) {
    apps::write_file(a.json_path, json_document(a, s), "parprim bench: --json");
  }
  if (!a.csv_path.empty()) {
    apps::write_file(a.csv_path, csv_document(s), "parprim bench: --csv");
  }
}

// What the tables' words mean, printed once before them.
void print_legend(bench::session& s) {
  const auto& o = s.opts();
  std::cout << "timing: " << o.warmup << " warm-up run(s), then " << o.repetitions
            << " timed run(s)" << (s.on_gpu() ? " (CUDA events)" : " (steady clock)")
            << "; host-clock functions over " << bench::fmt(bench::host_slow_ms, 0)
            << " ms (sequential baselines) get one warm-up and as many runs as fit in "
            << bench::fmt(bench::host_budget_ms / 1000, 0) << " s; ms = median\n"
            << "copy bandwidth (read + write): " << bench::fmt(s.copy_gbps(), 1) << " GB/s\n"
            << "\"Table 2\": the CPU-vs-GPU table of the course (Table 2 of Harris, \"Parallel "
               "Prefix Sum (Scan) with CUDA\", GPU Gems 3 ch. 39): n, one CPU core's sequential "
               "time, ours, and their ratio (speedup)\n"
            << "\"% of copy\": bytes the primitive must move per second (GB/s) over the copy "
               "bandwidth above; a reduce only reads, so it can pass 100%\n"
            << "\"spread\": (slowest - fastest) / median of the row's timed runs, \"!\" above "
            << bench::fmt(100 * bench::noisy_spread, 0) << "%\n";
}

// The rows whose output differed from the yardstick's, on stderr; the exit status.
int report_failed_checks(const bench::session& s) {
  const auto& failed = s.failed_checks();
  if (failed.empty()) return 0;
  std::cerr << "parprim bench: " << failed.size() << " row(s) whose output differed from the yardstick's:\n";
  for (auto& f : failed) std::cerr << "  " << f << "\n";
  return 1;
}

// The exit status: 1 when an output check failed.
int run_bench(const bench_args& a) {
  auto& all = bench::registry();
  std::sort(all.begin(), all.end(), [](auto& x, auto& y) { return x.rank < y.rank; });
  if (a.list) {
    for (auto& s : all) std::cout << "  " << s.name << "  " << s.description << "\n";
    return 0;
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
  o.gpus = a.gpus;
  if (o.gpus < 0 || o.gpus > 1024) bad("--gpus must be between 1 and the GPUs of this host");
  if (o.repetitions < 1 || o.repetitions > 10000) bad("--reps must be between 1 and 10000");
  if (o.warmup < 0 || o.warmup > 1000) bad("--warmup must be between 0 and 1000");
  // Output paths are checked before the benchmark runs, not found bad after it.
  if (!a.json_path.empty()) apps::check_output_path(a.json_path, "parprim bench: --json");
  if (!a.csv_path.empty()) apps::check_output_path(a.csv_path, "parprim bench: --csv");

  bench::session s(make_context(a.backend_name), o);
  for (auto n : o.sizes)
    if (!s.fits(n, 8, 3)) bad("size " + std::to_string(n) + " does not fit in the memory of " + s.ctx().name());
  std::cout << "parprim bench on " << device_description(s.ctx()) << "\n";
  print_legend(s);
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    s.begin_suite(chosen[i]->name, static_cast<int>(i + 1), static_cast<int>(chosen.size()));
    chosen[i]->run(s);
  }
  s.end_progress();
  s.ctx().synchronize();
  write_outputs(a, s);
  return report_failed_checks(s);
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
  cmd->add_option("--gpus", args->gpus,
                  "The distributed suite: scale over 1, 2, 4, ... N GPUs of this host (NCCL)");
  cmd->callback([args, &exit_code] {
    args->command_line = invoked_command();
    exit_code = run_bench(*args);
  });
}

}  // namespace parprim::cli
