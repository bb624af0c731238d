// The `parprim nbody` subcommand run in process, as the N-body and Barnes-Hut tests drive it,
// and a scratch directory for the files it reads and writes. A test binary that includes this
// defines parprim::cli::invoked_command() once (the CLI's main() normally does).
#pragma once

#include <CLI/CLI.hpp>
#include <gmock/gmock.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "cli/commands.hpp"
#include "support/test_support.hpp"

namespace parprim::testing {

// A scratch directory removed at the end of the test.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    path = std::filesystem::temp_directory_path() / ("parprim_nbody_" + std::to_string(fresh_seed()));
    std::filesystem::create_directories(path);
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
};

// Runs `parprim nbody ARGS...` in process; returns the exit code or rethrows what main() prints.
inline int run_nbody_cli(std::vector<std::string> args) {
  CLI::App app;
  int exit_code = -1;
  cli::add_nbody_command(app, exit_code);
  args.insert(args.begin(), "nbody");
  std::vector<const char*> argv = {"parprim"};
  for (auto& a : args) argv.push_back(a.c_str());
  app.parse(int(argv.size()), const_cast<char**>(argv.data()));
  return exit_code;
}

// `parprim nbody ARGS...` must refuse with a message (ours or the parser's) containing `text`.
inline void expect_nbody_cli_rejects(const std::vector<std::string>& args, const std::string& text) {
  try {
    run_nbody_cli(args);
    ADD_FAILURE() << "accepted: " << ::testing::PrintToString(args);
  } catch (const error& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr(text));
  } catch (const CLI::ParseError& e) {
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr(text));
  }
}

}  // namespace parprim::testing
