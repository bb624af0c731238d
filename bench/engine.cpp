// The benchmark engine: timing, copy bandwidth, sizes and tables.
#include "engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include <unistd.h>

#include "parprim/buffer.hpp"
#include "parprim/device_info.hpp"
#include "timer.hpp"

namespace parprim::bench {

session::session(context ctx, options opts) : ctx_(std::move(ctx)), opts_(std::move(opts)) {
  if (opts_.quick) {
    opts_.warmup = std::min(opts_.warmup, 1);
    opts_.repetitions = std::min(opts_.repetitions, 5);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

double session::time_ms(const std::function<void()>& fn) const {
  if (ctx_.kind() == backend::cuda) {
    device_timer timer(ctx_);
    for (int i = 0; i < opts_.warmup; ++i) fn();
    std::vector<double> t;
    for (int i = 0; i < opts_.repetitions; ++i) t.push_back(timer.time_ms(fn));
    ctx_.synchronize();  // surfaces any asynchronous error of the timed work
    return median(t);
  }
  return time_host_ms(fn);
}

double session::time_host_ms(const std::function<void()>& fn, int max_reps) const {
  using clock = std::chrono::steady_clock;
  auto once = [&] {
    auto t0 = clock::now();
    fn();
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  double first = once();  // also the warm-up
  int reps = opts_.repetitions;
  if (max_reps > 0) reps = std::min(reps, max_reps);
  // Slow functions (sequential baselines at 2^28) get fewer runs: about 2 s each.
  if (first > 100) reps = std::max(1, std::min(reps, static_cast<int>(2000 / first)));
  else
    for (int i = 1; i < opts_.warmup; ++i) once();
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) t.push_back(once());
  return median(t);
}

double session::copy_gbps() {
  if (copy_gbps_) return *copy_gbps_;
  // Large enough to leave every cache: 1 GiB on a GPU, 256 MiB on the host.
  std::int64_t bytes = on_gpu() ? (std::int64_t(1) << 30) : (std::int64_t(1) << 28);
  while (bytes > (1 << 20) && !fits(bytes / 4, 4, 2)) bytes /= 2;
  buffer<unsigned char> a(ctx_, bytes), b(ctx_, bytes);
  a.fill_bytes(0x5A);
  b.fill_bytes(0);
  double ms = time_ms([&] { ctx_.copy(b.data(), a.data(), static_cast<std::size_t>(bytes)); });
  copy_gbps_ = 2.0 * double(bytes) / (ms * 1e6);
  return *copy_gbps_;
}

bool session::fits(std::int64_t n, std::int64_t bytes_per_element, int copies) const {
  double need = double(n) * double(bytes_per_element) * copies;
  if (on_gpu()) {
    auto devs = cuda_devices();
    for (auto& d : devs)
      if (d.ordinal == ctx_.device()) return need < 0.7 * double(d.global_memory_bytes);
    return false;
  }
  // Host: at most half the machine's memory (sequential baselines need their own copies).
  static const double host_bytes =
      double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
  return need < 0.5 * host_bytes;
}

std::vector<std::int64_t> session::sizes_or(std::vector<std::int64_t> defaults,
                                            std::int64_t bytes_per_element) const {
  std::vector<std::int64_t> src = opts_.sizes.empty() ? std::move(defaults) : opts_.sizes;
  std::vector<std::int64_t> out;
  for (auto n : src)
    if (fits(n, bytes_per_element, 3)) out.push_back(n);
  if (opts_.quick && opts_.sizes.empty() && out.size() > 3) {
    // Smoke runs: the smallest, a middle and the largest size that fits.
    out = {out.front(), out[out.size() / 2], out.back()};
  }
  return out;
}

table::table(std::string title, std::vector<std::string> columns)
    : title_(std::move(title)), columns_(std::move(columns)) {}

void table::add(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void table::print() const {
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    width[c] = columns_[c].size();
    for (auto& r : rows_) width[c] = std::max(width[c], r[c].size());
  }
  std::ostringstream os;
  os << "\n" << title_ << "\n";
  auto line = [&](const std::vector<std::string>& cells) {
    os << "|";
    for (size_t c = 0; c < cells.size(); ++c) {
      os << " " << std::string(width[c] - cells[c].size(), ' ') << cells[c] << " |";
    }
    os << "\n";
  };
  line(columns_);
  os << "|";
  for (size_t c = 0; c < columns_.size(); ++c) os << std::string(width[c] + 1, '-') << ":|";
  os << "\n";
  for (auto& r : rows_) line(r);
  std::cout << os.str() << std::flush;
}

std::string fmt(double v, int precision) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

std::string fmt_int(std::int64_t v) {
  std::string s = std::to_string(v), out;
  int c = 0;
  for (auto it = s.rbegin(); it != s.rend(); ++it) {
    if (c && c % 3 == 0 && *it != '-') out.push_back(',');
    out.push_back(*it);
    ++c;
  }
  return std::string(out.rbegin(), out.rend());
}

std::vector<suite>& registry() {
  static std::vector<suite> suites;
  return suites;
}

}  // namespace parprim::bench
