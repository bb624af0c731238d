// A simulation run as `parprim nbody` does it: initial conditions, leapfrog steps, and the
// outputs along the way (diagnostics, snapshots, frames, progress). Also the --compare run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "parprim/context.hpp"

namespace parprim::nbody {

struct run_options {
  std::int64_t n = 16384;
  bool n_given = false;  // with --init file, n must then match the file
  std::int64_t steps = 100;
  double dt = 1e-3;
  double eps = 0.01;
  std::string init = "plummer";  // plummer | cube | collision | file
  std::string file;
  std::uint64_t seed = 1;
  bool double_precision = false;
  std::int64_t diag_every = 0;      // 0: about ten times per run
  std::string diag_path;
  std::int64_t snapshot_every = 0;  // 0: only at the end (when a directory is given)
  std::string snapshot_dir;
  std::string frame_dir;
  std::int64_t frame_every = 1;
  int frame_size = 512;
  std::string method = "all-pairs";  // all-pairs | barnes-hut
  double theta = 0.5;                // opening angle of --method barnes-hut
  std::int64_t accuracy_sample = 1000;  // bodies compared by --accuracy
};

// Checks the options (one parprim::error naming the option for the first bad one).
void validate(const run_options& o);

// After validate(): the --diag file can be written and the --snapshots and --frames
// directories exist (made when missing). Nothing existing is modified.
void check_outputs(const run_options& o);

// Runs the simulation on ctx, prints a summary to out; returns the summary as JSON.
nlohmann::json run_simulation(const context& ctx, const run_options& o, std::ostream& out);

// --accuracy: the relative force error of o.method (at o.theta) against exact double-precision
// sums over o.accuracy_sample bodies: median, RMS, 99th percentile and maximum.
nlohmann::json run_accuracy(const context& ctx, const run_options& o, std::ostream& out);

// Runs the same bodies on the CPU and on CUDA for o.steps steps, prints the relative errors
// of the accelerations (at the start) and of the positions (at the end).
nlohmann::json run_compare(const context& cpu, const context& gpu, const run_options& o, std::ostream& out);

}  // namespace parprim::nbody
