// The benchmark engine behind `parprim bench`.
//
// A suite is a function that measures one primitive (every variant, size and yardstick) and
// adds rows to the session; the session times, keeps the rows, and prints and saves them.
// Suites register themselves with PARPRIM_BENCH_SUITE and run in rank order.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parprim/context.hpp"

namespace parprim::bench {

// One measurement; the JSON schema of `parprim bench --json` (see docs/ARCHITECTURE.md).
struct row {
  std::string primitive;  // "reduce", "exclusive_scan", ...
  std::string variant;    // "production", "blelloch", "cub", "sequential", ...
  std::string type;       // "u32", "f32", ...
  std::int64_t n = 0;
  double ms = 0;                            // median of the timed runs
  std::optional<double> ms_min, ms_max;     // fastest and slowest run, where ms was timed here
  double gbps = 0;                          // bytes the primitive must move / time
  std::optional<std::string> yardstick;     // what it is compared with, e.g. "cub"
  std::optional<double> yardstick_ms;       // the yardstick's time in the same run
  std::map<std::string, double> extra;      // further figures: "seq_cpu_ms", "tflops", ...
  std::optional<double> vs_yardstick() const {  // > 1: faster than the yardstick
    if (!yardstick_ms || ms <= 0) return std::nullopt;
    return *yardstick_ms / ms;
  }
};

struct options {
  std::vector<std::int64_t> sizes;  // empty: each suite's default sizes
  int warmup = 3;
  int repetitions = 20;
  bool variants = false;  // print the ladder of variants for each primitive
  bool quick = false;     // fewer sizes and repetitions (smoke runs)
  int gpus = 0;           // the distributed suite: GPUs of this host to scale over (0: skip it)
};

// --quick's counts; session applies them, and the header reports what the session uses.
inline constexpr int quick_warmup = 1;
inline constexpr int quick_repetitions = 5;
// Host-clock functions slower than this get fewer timed runs, about host_budget_ms in all.
inline constexpr double host_slow_ms = 100;
inline constexpr double host_budget_ms = 2000;

// The runs of one measurement.
struct timing {
  double min_ms = 0, median_ms = 0, max_ms = 0;
  double spread() const { return median_ms > 0 ? (max_ms - min_ms) / median_ms : 0; }
};
// Rows whose timings spread by more than this are marked in the tables.
inline constexpr double noisy_spread = 0.10;

// Output checks: a row must never report the time of a wrong result. A suite that compares its
// output with the yardstick's records the verdict in the row's extra figures under
// check_figure(): "matches_cub" on the GPU (the yardstick is CUB or Thrust), "matches_sequential"
// on the CPU (the sequential oracle); 1 when they agreed, 0 when not. A yardstick of another
// kind names its own figure, e.g. "matches_segmented_sort". session::add counts the rows whose
// check failed (any "matches_" figure 0, or the histogram suite's "mismatch_vs_yardstick" set), and `parprim bench` exits non-zero after its tables.
inline const char* check_figure(bool on_gpu) { return on_gpu ? "matches_cub" : "matches_sequential"; }
// The table cell of a check: "yes", "NO", or "-" where nothing was compared (NaN).
std::string check_cell(double matches);

class session {
 public:
  session(context ctx, options opts);

  const context& ctx() const { return ctx_; }
  const options& opts() const { return opts_; }
  bool on_gpu() const { return ctx_.kind() == backend::cuda; }

  // Warm-up, then the median of opts().repetitions runs of fn. On CUDA each run is bracketed
  // by events on the context's stream; on the CPU by a steady clock.
  double time_ms(const std::function<void()>& fn) const;
  // Same, but always with the host clock (sequential baselines), with fewer runs for slow fns.
  double time_host_ms(const std::function<void()>& fn, int max_reps = 0) const;

  // Device-to-device (or host memcpy) bandwidth in GB/s counting bytes read plus written,
  // measured once per session on `bytes`-sized buffers.
  double copy_gbps();

  // Sizes to run: opts().sizes if given, else `defaults` (dropping those that do not fit).
  std::vector<std::int64_t> sizes_or(std::vector<std::int64_t> defaults,
                                     std::int64_t bytes_per_element) const;
  // True when n elements of `bytes_per_element` (times `copies` arrays) fit comfortably.
  bool fits(std::int64_t n, std::int64_t bytes_per_element, int copies) const;

  // Keeps a row; its ms_min/ms_max are filled in from the latest timing (of any session)
  // whose median is exactly r.ms (rows derived from a timing, e.g. per step, have none).
  void add(row r);
  const std::vector<row>& rows() const { return rows_; }
  // "primitive variant type n" of every row added whose output check failed (see check_figure).
  const std::vector<std::string>& failed_checks() const { return failed_checks_; }

  // The progress line on stderr (only when stderr is a terminal): suite i of n, rows so far,
  // elapsed seconds. Cleared before each table is printed and by end_progress().
  void begin_suite(const std::string& name, int index, int count);
  void end_progress() const;

 private:
  timing record(std::vector<double> runs) const;
  void show_progress() const;

  context ctx_;
  options opts_;
  std::optional<double> copy_gbps_;
  std::vector<row> rows_;
  std::vector<std::string> failed_checks_;
  std::string suite_;
  int suite_index_ = 0, suite_count_ = 0, suite_rows_ = 0;
};

// A plain text table. Columns that are empty (or "-") in every row are not printed, and a
// last column "spread" gives the widest (max - min) / median of the timings taken since the
// previous row, with "!" above noisy_spread.
class table {
 public:
  table(std::string title, std::vector<std::string> columns);
  void add(std::vector<std::string> cells);
  void print() const;  // to stdout

 private:
  std::string title_;
  std::vector<std::string> columns_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<double> spreads_;
};

std::string fmt(double v, int precision = 3);  // fixed notation, "-" for NaN
std::string fmt_int(std::int64_t v);

struct suite {
  std::string name;         // what the user types: `parprim bench reduce`
  std::string description;
  int rank;                 // order in a full run
  std::function<void(session&)> run;
};

std::vector<suite>& registry();

struct registrar {
  registrar(suite s) { registry().push_back(std::move(s)); }
};

}  // namespace parprim::bench

#define PARPRIM_BENCH_CONCAT2(a, b) a##b
#define PARPRIM_BENCH_CONCAT(a, b) PARPRIM_BENCH_CONCAT2(a, b)
// PARPRIM_BENCH_SUITE("reduce", "reduce: every variant vs CUB", 10, run_reduce);
#define PARPRIM_BENCH_SUITE(name, description, rank, fn)                                   \
  static ::parprim::bench::registrar PARPRIM_BENCH_CONCAT(parprim_bench_suite_, __LINE__)( \
      ::parprim::bench::suite{name, description, rank, fn})
