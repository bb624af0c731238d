#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

namespace parprim::nbody {

progress_bar::progress_bar(std::int64_t total_steps, double interactions_per_step)
    : total_(total_steps), per_step_(interactions_per_step), enabled_(isatty(STDERR_FILENO) == 1 && total_steps > 1) {
  start_ = last_ = std::chrono::steady_clock::now();
}

void progress_bar::update(std::int64_t done) {
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100) && done < total_) return;
  last_ = now;
  draw(done);
}

void progress_bar::draw(std::int64_t done) {
  const double seconds = std::chrono::duration<double>(last_ - start_).count();
  const double rate = seconds > 0 ? double(done) / seconds : 0.0;
  const int width = 30, filled = total_ > 0 ? int(double(width) * double(done) / double(total_)) : width;
  std::string bar(std::size_t(filled), '#');
  bar.resize(width, '.');
  std::fprintf(stderr, "\r[%s] %3d%%  step %lld/%lld  %.1f steps/s  %.3g interactions/s ", bar.c_str(),
               total_ > 0 ? int(100 * done / total_) : 100, static_cast<long long>(done),
               static_cast<long long>(total_), rate, rate * per_step_);
  std::fflush(stderr);
  drawn_ = true;
}

void progress_bar::finish() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 100, "");
  drawn_ = false;
}

}  // namespace parprim::nbody
