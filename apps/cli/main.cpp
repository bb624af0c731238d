// The `parprim` program: subcommands info, bench, and one per application.
#include <CLI/CLI.hpp>

#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "parprim/error.hpp"

std::string& parprim::cli::invoked_command() {
  static std::string line;
  return line;
}

int main(int argc, char** argv) {
  for (int i = 0; i < argc; ++i)
    parprim::cli::invoked_command() += (i ? " " : "") + std::string(i ? argv[i] : "parprim");
  CLI::App app{"parprim: data-parallel primitives on CUDA and OpenMP, with their benchmarks and "
               "applications"};
  app.require_subcommand(1);
  int exit_code = 0;
  parprim::cli::add_info_command(app, exit_code);
  parprim::cli::add_bench_command(app, exit_code);
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
    return app.exit(e);  // --help and friends
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
