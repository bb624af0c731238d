// The CLI's subcommands. Each add_*_command() registers itself on `app`; when it runs, its
// callback stores the process exit code in `exit_code`. Errors are thrown as parprim::error
// (or CLI11's errors) and printed as one line by main().
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace parprim::cli {

// The command line as typed (argv joined by spaces), for result files.
std::string& invoked_command();

void add_info_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_nbody_command(CLI::App& app, int& exit_code);     // apps/nbody
void add_raytrace_command(CLI::App& app, int& exit_code);  // apps/raytrace

}  // namespace parprim::cli
