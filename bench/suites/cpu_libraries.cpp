// `parprim bench cpu`: the CPU backend against the parallel CPU libraries, in one run on the
// same buffers: reduce, exclusive scan, copy_if (50%), a 256-bin histogram and radix sort of
// u32, each beside TBB, the C++17 parallel algorithms (std::execution::par, on TBB in
// libstdc++), the GNU parallel mode where it has the primitive, and the plain sequential loop.
// The first row is the host's copy bandwidth: a parallel memcpy of the same n elements on the
// same threads (the session's copy_gbps is one thread's memmove).
//
// Sorts sort a fresh copy of the input each run, and the copy is counted on every side.
// Results are checked against the sequential oracle: "matches_sequential" 1 or 0 in the JSON of
// every primitive's rows, a mismatch marked in the table (and the run exits non-zero).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#include "yardsticks/cpu_primitives.hpp"

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr std::uint32_t pivot = 1u << 31;  // copy_if keeps x < 2^31: half of uniform input
constexpr std::int64_t histogram_bins = 256;

struct times {
  double seq = nan, ours = nan, tbb = nan, std_par = nan, gnu = nan;
  // 1 while every output compared (ours, and the TBB yardstick's where it has one) equals the
  // sequential oracle's, 0 once one differs; NaN for the copy row, which has nothing to compare.
  double matches = nan;
  void compared(bool same) { matches = (matches == 0 || !same) ? 0 : 1; }
};

void parallel_memcpy(void* dst, const void* src, std::int64_t bytes, int threads) {
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_num_threads(), i = omp_get_thread_num();
    const std::int64_t chunk = (bytes / t + 63) / 64 * 64;
    const std::int64_t begin = std::min(bytes, i * chunk), end = std::min(bytes, begin + chunk);
    std::memcpy(static_cast<char*>(dst) + begin, static_cast<const char*>(src) + begin,
                static_cast<std::size_t>(end - begin));
  }
}

// The even-bins formula over [0, 2^32 - 1), as the histogram suite uses it.
std::uint32_t bin_of(std::uint32_t x) {
  if (x == 0xFFFFFFFFu) return histogram_bins;
  return static_cast<std::uint32_t>(std::uint64_t(x) * histogram_bins / 0xFFFFFFFFull);
}

class cpu_table {
 public:
  cpu_table(session& s, std::int64_t n)
      : s_(s), n_(n), threads_(s.ctx().threads()), host_(random_data<std::uint32_t>(n, 31 + n)),
        out_(static_cast<std::size_t>(n)), check_(static_cast<std::size_t>(n)),
        in_(buffer<std::uint32_t>::from_host(s.ctx(), host_)), dev_out_(s.ctx(), n), ws_(s.ctx()) {}

  double copy_gbps() {
    const double ms = s_.time_host_ms(
        [&] { parallel_memcpy(out_.data(), host_.data(), n_ * 4, threads_); });
    add("copy", "parallel memcpy", ms, 8.0 * double(n_), {});
    return 8.0 * double(n_) / (ms * 1e6);
  }

  times reduce();
  times exclusive_scan();
  times copy_if();
  times histogram();
  times sort();

  // One JSON row for parprim and one per yardstick, all carrying the same figures.
  void add(const std::string& primitive, const std::string& variant, double ms, double bytes,
           const times& t) {
    row r;
    r.primitive = primitive;
    r.variant = variant;
    r.type = "u32";
    r.n = n_;
    r.ms = ms;
    r.gbps = bytes / (ms * 1e6);
    if (!std::isnan(t.tbb)) {
      r.yardstick = "tbb";
      r.yardstick_ms = t.tbb;
    }
    if (!std::isnan(t.seq)) r.extra["seq_cpu_ms"] = t.seq;
    if (!std::isnan(t.std_par)) r.extra["std_par_ms"] = t.std_par;
    if (!std::isnan(t.gnu)) r.extra["gnu_parallel_ms"] = t.gnu;
    if (!std::isnan(t.matches)) r.extra["matches_sequential"] = t.matches;
    r.extra["threads"] = threads_;
    s_.add(std::move(r));
  }

 private:
  template <class F>
  double host(F&& f) { return s_.time_host_ms(std::function<void()>(f)); }

  session& s_;
  std::int64_t n_;
  int threads_;
  std::vector<std::uint32_t> host_, out_, check_;
  buffer<std::uint32_t> in_, dev_out_;
  workspace ws_;
};

times cpu_table::reduce() {
  times t;
  volatile std::uint32_t sink = 0;
  std::uint32_t expect = 0;
  t.seq = host([&] {
    std::uint32_t a = 0;
    for (std::int64_t i = 0; i < n_; ++i) a += host_[static_cast<std::size_t>(i)];
    sink = expect = a;
  });
  std::uint32_t got = 0;
  t.ours = s_.time_ms([&] { got = parprim::reduce<std::uint32_t>(s_.ctx(), in_, op::plus, reduce_algorithm::production, &ws_); });
  t.compared(got == expect);
  t.gnu = host([&] { sink = yardstick::gnu_parallel_sum(host_.data(), n_, threads_); });
#if PARPRIM_HAVE_TBB
  t.tbb = host([&] { yardstick::in_arena(threads_, [&] { sink = yardstick::tbb_reduce_sum(host_.data(), n_); }); });
  t.std_par = host([&] { yardstick::in_arena(threads_, [&] { sink = yardstick::std_par_reduce_sum(host_.data(), n_); }); });
#endif
  (void)sink;
  return t;
}

times cpu_table::exclusive_scan() {
  times t;
  t.seq = host([&] {
    std::uint32_t a = 0;
    for (std::int64_t i = 0; i < n_; ++i) {
      check_[static_cast<std::size_t>(i)] = a;
      a += host_[static_cast<std::size_t>(i)];
    }
  });
  t.ours = s_.time_ms([&] {
    parprim::exclusive_scan<std::uint32_t>(s_.ctx(), in_, dev_out_, 0u, op::plus,
                                           scan_algorithm::decoupled_lookback, &ws_);
  });
  t.compared(dev_out_.to_host() == check_);
  t.gnu = host([&] { yardstick::gnu_parallel_inclusive_sum(host_.data(), out_.data(), n_, threads_); });
#if PARPRIM_HAVE_TBB
  t.tbb = host([&] { yardstick::in_arena(threads_, [&] { yardstick::tbb_exclusive_sum(host_.data(), out_.data(), n_); }); });
  t.compared(out_ == check_);
  t.std_par = host([&] { yardstick::in_arena(threads_, [&] { yardstick::std_par_exclusive_sum(host_.data(), out_.data(), n_); }); });
#endif
  return t;
}

times cpu_table::copy_if() {
  times t;
  auto keep = [](std::uint32_t v) { return v < pivot; };
  std::int64_t expect = 0;
  t.seq = host([&] { expect = std::copy_if(host_.begin(), host_.end(), check_.begin(), keep) - check_.begin(); });
  buffer<std::int64_t> count(s_.ctx(), 1);
  const predicate<std::uint32_t> pred{compare::less, pivot};
  t.ours = s_.time_ms([&] { copy_if_into<std::uint32_t>(s_.ctx(), in_, dev_out_, count, pred, &ws_); });
  auto got = dev_out_.to_host();
  t.compared(count.to_host()[0] == expect && std::equal(check_.begin(), check_.begin() + expect, got.begin()));
#if PARPRIM_HAVE_TBB
  std::int64_t c = 0;
  t.tbb = host([&] { yardstick::in_arena(threads_, [&] { c = yardstick::tbb_copy_if(host_.data(), out_.data(), n_, keep); }); });
  t.compared(c == expect);
  t.std_par = host([&] { yardstick::in_arena(threads_, [&] { c = yardstick::std_par_copy_if(host_.data(), out_.data(), n_, keep); }); });
#endif
  return t;
}

times cpu_table::histogram() {
  times t;
  const std::uint32_t top = 0xFFFFFFFFu;
  std::vector<std::uint64_t> expect(histogram_bins), theirs(histogram_bins);
  t.seq = host([&] {
    std::fill(expect.begin(), expect.end(), 0);
    for (std::uint32_t x : host_) {
      std::uint32_t b = bin_of(x);
      if (b < histogram_bins) ++expect[b];
    }
  });
  buffer<std::uint64_t> bins(s_.ctx(), histogram_bins);
  t.ours = s_.time_ms([&] { parprim::histogram<std::uint32_t>(s_.ctx(), in_, bins, histogram_bins, 0u, top); });
  t.compared(bins.to_host() == expect);
#if PARPRIM_HAVE_TBB
  t.tbb = host([&] { yardstick::in_arena(threads_, [&] { yardstick::tbb_histogram(host_.data(), n_, theirs.data(), histogram_bins, bin_of); }); });
  t.compared(theirs == expect);
#endif
  return t;
}

times cpu_table::sort() {
  times t;
  std::vector<std::uint32_t> work;
  t.seq = host([&] { work = host_; std::sort(work.begin(), work.end()); });
  check_ = work;
  t.ours = s_.time_ms([&] {
    s_.ctx().copy(dev_out_.data(), in_.data(), in_.bytes());
    radix_sort<std::uint32_t>(s_.ctx(), dev_out_, sort_order::ascending, 0, -1, sort_algorithm::onesweep, &ws_);
  });
  t.compared(dev_out_.to_host() == check_);
  t.gnu = host([&] { work = host_; yardstick::gnu_parallel_sort(work.begin(), work.end(), std::less<>(), threads_); });
#if PARPRIM_HAVE_TBB
  t.tbb = host([&] { work = host_; yardstick::tbb_parallel_sort(work.begin(), work.end(), std::less<>(), threads_); });
#endif
  return t;
}

void run_cpu_libraries(session& s) {
  if (s.on_gpu()) {
    std::printf("bench cpu: CPU libraries only; run with --backend cpu\n");
    return;
  }
  for (std::int64_t n : s.sizes_or({std::int64_t(1) << 24}, 4 * 4)) {
    cpu_table c(s, n);
    const double copy = c.copy_gbps();
    table tab("parprim vs TBB, std::execution::par and GNU parallel, u32 n=" + fmt_int(n) + ", " +
                  std::to_string(s.ctx().threads()) + " threads (parallel memcpy " + fmt(copy, 0) +
                  " GB/s; GNU scan is its inclusive partial_sum; sorts count the input copy)",
              {"primitive", "sequential ms", "parprim ms", "TBB ms", "std::par ms", "GNU ms", "GB/s",
               "% of copy", "vs TBB", "vs std::par", "vs GNU", ""});
    auto put = [&](const char* name, const times& t, double bytes) {
      c.add(name, "production", t.ours, bytes, t);
      const double gbps = bytes / (t.ours * 1e6);
      tab.add({name, fmt(t.seq, 3), fmt(t.ours, 3), fmt(t.tbb, 3), fmt(t.std_par, 3), fmt(t.gnu, 3),
               fmt(gbps, 0), fmt(100 * gbps / copy, 0), fmt(t.tbb / t.ours, 2),
               fmt(t.std_par / t.ours, 2), fmt(t.gnu / t.ours, 2), t.matches == 0 ? "MISMATCH" : ""});
    };
    const double n4 = 4.0 * double(n);
    put("reduce", c.reduce(), n4);
    put("exclusive_scan", c.exclusive_scan(), 2 * n4);
    put("copy_if", c.copy_if(), 1.5 * n4);
    put("histogram", c.histogram(), n4);
    put("radix_sort", c.sort(), 2 * n4);
    tab.print();
  }
}

}  // namespace

PARPRIM_BENCH_SUITE("cpu", "CPU backend vs TBB, std::execution::par and GNU parallel (reduce, scan, copy_if, histogram, sort)",
                    95, run_cpu_libraries);

}  // namespace parprim::bench
