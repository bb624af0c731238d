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
#include "parprim/timer.hpp"

namespace parprim::bench {
namespace {

// The engine runs on one thread; tables and sessions (a suite may time with a second session
// of its own) share this file's state:
// every timing taken, for the rows' min and max,
std::vector<timing> timings;
// and the widest spread since the last table row, for the row's spread column.
double widest_spread_since_row = 0;

// The progress line: whether one is on the terminal now, and when it was last drawn.
bool progress_on_screen = false;
std::chrono::steady_clock::time_point progress_drawn, bench_started = std::chrono::steady_clock::now();

void clear_progress_line() {
  if (!progress_on_screen) return;
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
  progress_on_screen = false;
}

}  // namespace

session::session(context ctx, options opts) : ctx_(std::move(ctx)), opts_(std::move(opts)) {
  if (opts_.quick) {
    opts_.warmup = std::min(opts_.warmup, quick_warmup);
    opts_.repetitions = std::min(opts_.repetitions, quick_repetitions);
  }
}

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

timing session::record(std::vector<double> runs) const {
  timing t;
  t.median_ms = median(runs);
  t.min_ms = *std::min_element(runs.begin(), runs.end());
  t.max_ms = *std::max_element(runs.begin(), runs.end());
  timings.push_back(t);
  widest_spread_since_row = std::max(widest_spread_since_row, t.spread());
  show_progress();
  return t;
}

double session::time_ms(const std::function<void()>& fn) const {
  if (ctx_.kind() == backend::cuda) {
    stream_timer timer(ctx_, "bench");
    for (int i = 0; i < opts_.warmup; ++i) fn();
    std::vector<double> t;
    for (int i = 0; i < opts_.repetitions; ++i) t.push_back(timer.time_ms(fn));
    ctx_.synchronize();  // surfaces any asynchronous error of the timed work
    return record(std::move(t)).median_ms;
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
  // The first run tells how slow fn is; it is a warm-up run unless none were asked for.
  std::vector<double> t;
  double first = once();
  if (opts_.warmup == 0) t.push_back(first);
  int reps = opts_.repetitions;
  if (max_reps > 0) reps = std::min(reps, max_reps);
  // Slow functions (sequential baselines at 2^28) get fewer runs, about host_budget_ms in all,
  // and no further warm-up.
  if (first > host_slow_ms)
    reps = std::max(1, std::min(reps, static_cast<int>(host_budget_ms / first)));
  else
    for (int i = 1; i < opts_.warmup; ++i) once();
  while (static_cast<int>(t.size()) < reps) t.push_back(once());
  return record(std::move(t)).median_ms;
}

// Whether a row's extra figures record an output check that failed.
static bool check_failed(const row& r) {
  auto figure = [&](const char* name, double failed_value) {
    auto it = r.extra.find(name);
    return it != r.extra.end() && it->second == failed_value;
  };
  for (const auto& [name, value] : r.extra)
    if (name.rfind("matches_", 0) == 0 && value == 0) return true;
  return figure("mismatch_vs_yardstick", 1);
}

void session::add(row r) {
  if (check_failed(r))
    failed_checks_.push_back(r.primitive + " " + r.variant + " " + r.type + " n=" + std::to_string(r.n));
  for (auto it = timings.rbegin(); it != timings.rend(); ++it)
    if (it->median_ms == r.ms) {
      r.ms_min = it->min_ms;
      r.ms_max = it->max_ms;
      break;
    }
  rows_.push_back(std::move(r));
  ++suite_rows_;
  show_progress();
}

void session::begin_suite(const std::string& name, int index, int count) {
  suite_ = name;
  suite_index_ = index;
  suite_count_ = count;
  suite_rows_ = 0;
  progress_drawn = {};
  show_progress();
}

void session::show_progress() const {
  static const bool terminal = isatty(STDERR_FILENO) == 1;
  if (!terminal || suite_.empty()) return;
  auto now = std::chrono::steady_clock::now();
  if (progress_on_screen && now - progress_drawn < std::chrono::milliseconds(200)) return;
  progress_drawn = now;
  double elapsed = std::chrono::duration<double>(now - bench_started).count();
  std::fprintf(stderr, "\r\033[Kbench: suite %d of %d (%s), %d row(s) so far, %.0f s elapsed",
               suite_index_, suite_count_, suite_.c_str(), suite_rows_, elapsed);
  std::fflush(stderr);
  progress_on_screen = true;
}

void session::end_progress() const { clear_progress_line(); }

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
    : title_(std::move(title)), columns_(std::move(columns)) {
  widest_spread_since_row = 0;
}

void table::add(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
  spreads_.push_back(widest_spread_since_row);
  widest_spread_since_row = 0;
}

void table::print() const {
  // The columns that say something, and the spread column.
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> body(rows_.size());
  for (size_t c = 0; c < columns_.size(); ++c) {
    bool blank = !rows_.empty();
    for (auto& r : rows_) blank = blank && (r[c].empty() || r[c] == "-");
    if (blank) continue;
    header.push_back(columns_[c]);
    for (size_t i = 0; i < rows_.size(); ++i) body[i].push_back(rows_[i][c]);
  }
  header.push_back("spread");
  for (size_t i = 0; i < rows_.size(); ++i)
    body[i].push_back(fmt(100.0 * spreads_[i], 0) + "%" + (spreads_[i] > noisy_spread ? " !" : "  "));

  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (auto& r : body) width[c] = std::max(width[c], r[c].size());
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
  line(header);
  os << "|";
  for (size_t c = 0; c < header.size(); ++c) os << std::string(width[c] + 1, '-') << ":|";
  os << "\n";
  for (auto& r : body) line(r);
  clear_progress_line();
  std::cout << os.str() << std::flush;
}

std::string fmt(double v, int precision) {
  if (std::isnan(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

std::string check_cell(double matches) {
  if (std::isnan(matches)) return "-";
  return matches == 1 ? "yes" : "NO";
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
