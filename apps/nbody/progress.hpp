// A one-line progress bar on stderr for long runs: percentage, steps/s and interactions/s.
// Drawn only when stderr is a terminal, at most ten times a second.
#pragma once

#include <chrono>
#include <cstdint>

namespace parprim::nbody {

class progress_bar {
 public:
  progress_bar(std::int64_t total_steps, double interactions_per_step);
  void update(std::int64_t steps_done);
  void finish();  // clears the line

 private:
  void draw(std::int64_t done);
  std::int64_t total_;
  double per_step_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace parprim::nbody
