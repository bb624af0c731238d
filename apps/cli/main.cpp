// The `parprim` program: subcommands info, bench, and one per application.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "parprim/error.hpp"
#include "parprim/version.hpp"
#include "parprim_git_revision.hpp"

std::string& parprim::cli::invoked_command() {
  static std::string line;
  return line;
}

namespace {

// "parprim 0.1.0 (git 1a2b3c4d5e)", without the parenthesis outside a git checkout.
std::string version_text() {
  std::string text = "parprim " PARPRIM_VERSION_STRING;
  std::string revision = PARPRIM_GIT_REVISION;
  if (!revision.empty()) text += " (git " + revision + ")";
  return text;
}

// OpenMP threads that spin while they wait for the next parallel region are what a loaded
// machine preempts: on a 2-core machine with the other core busy, a reduce of 2^18 elements
// took 32 ms (scheduler ticks) under libgomp's default policy and 0.036 ms with
// OMP_WAIT_POLICY=passive. libgomp reads the variable once, when it is loaded, before main
// runs: setting it here and carrying on was measured to change nothing. So unless the user
// chose a policy, the program runs itself again with the passive one (exec keeps the pid,
// arguments and the rest of the environment; should exec fail, it carries on as it is).
void wait_passively_unless_chosen(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  if (setenv("OMP_WAIT_POLICY", "passive", 1) != 0) return;
  execv("/proc/self/exe", argv);
}

}  // namespace

int main(int argc, char** argv) {
  wait_passively_unless_chosen(argv);
  for (int i = 0; i < argc; ++i)
    parprim::cli::invoked_command() += (i ? " " : "") + std::string(i ? argv[i] : "parprim");
  CLI::App app{"parprim: data-parallel primitives on CUDA and OpenMP, with their benchmarks and "
               "applications"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  int exit_code = 0;
  parprim::cli::add_info_command(app, exit_code);
#if PARPRIM_CLI_BENCH
  parprim::cli::add_bench_command(app, exit_code);
#endif
#if PARPRIM_APP_NBODY
  parprim::cli::add_nbody_command(app, exit_code);
#endif
#if PARPRIM_APP_RAYTRACE
  parprim::cli::add_raytrace_command(app, exit_code);
#endif
  // Past a file-size limit (ulimit -f) a write then fails with EFBIG, reported like any write
  // error, instead of the signal killing the process half-way through a file.
  std::signal(SIGXFSZ, SIG_IGN);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version and friends
  } catch (const CLI::ParseError& e) {
    // One line, no usage dump: what was wrong and where to look.
    std::cerr << "parprim: error: " << e.what() << " (see parprim --help)\n";
    return 2;
  } catch (const parprim::error& e) {
    std::cerr << "parprim: error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "parprim: error: " << e.what() << "\n";
    return 1;
  }
  // The tables and summaries are output too: a full device or closed pipe is an error.
  std::cout.flush();
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::cerr << "parprim: error: writing to standard output failed\n";
    return 1;
  }
  return exit_code;
}
