// `parprim bench distributed --gpus N`: the distributed primitives (and the N-body step) on
// device groups of 1, 2, 4, ... N GPUs of this host, each against one GPU of the same run.
//
// The one-GPU baseline is the single-context primitive on cuda:0 holding all the data; a
// group of P GPUs holds the same data in P even slices ("already on the GPUs": inputs are
// placed before timing). Times are host wall clock from the call to the return of every rank
// (a distributed call returns with its work complete), median of the session's repetitions;
// sorts restore their input before every run, outside the timed region. The group sorts also
// report their steps (local sort, splitter search, exchange, merge) as dist::sort_phase_ms
// gives them: a second table, and "<step>_ms" in the rows' extra fields. Beside the steps, the
// link's yardstick: what the copy engines carry between GPU 0 and GPU 1 in both directions at
// once, for the bytes one GPU sends in the 2-GPU exchange (no NCCL), and what NCCL's
// send/recv carries for the same bytes alone: in one call, in 8 calls, and with
// the buffers registered with NCCL (zero-copy P2P, from cudaMalloc or from ncclMemAlloc), and
// with the data 4 bytes past 16-byte boundaries on both sides or 4 and 8 bytes past them.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <vector>

#include "data.hpp"
#include "engine.hpp"
#include "parprim/distributed.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/nccl_exchange.hpp"
#include "yardsticks/peer_copy.hpp"
#endif

namespace parprim::bench {
namespace {

using clock_type = std::chrono::steady_clock;

int warmups(const session& s) { return std::max(1, s.opts().warmup); }

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Median wall time of fn over the session's repetitions after its warm-ups; prepare() runs
// untimed before each call.
double wall_ms(const session& s, const std::function<void()>& prepare, const std::function<void()>& fn) {
  std::vector<double> t;
  const int reps = std::max(1, s.opts().quick ? 3 : std::min(s.opts().repetitions, 10));
  for (int i = 0; i < warmups(s) + reps; ++i) {
    prepare();
    const auto t0 = clock_type::now();
    fn();
    const double ms = std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
    if (i >= warmups(s)) t.push_back(ms);
  }
  return median(std::move(t));
}

// A distributed sort's step times: per call the slowest rank's time of each step (the others
// wait for it at the next collective), then the median over the timed calls.
struct sort_steps {
  std::vector<std::vector<double>> calls;  // [call][step]
  void add(const std::vector<dist::sort_phase_ms>& ranks) {
    std::vector<double> slowest(4, 0.0);
    for (const auto& p : ranks) {
      const double step[4] = {p.local_sort, p.splitters, p.exchange, p.merge};
      for (int i = 0; i < 4; ++i) slowest[i] = std::max(slowest[i], step[i]);
    }
    calls.push_back(std::move(slowest));
  }
  // Median of step i over the calls after the warm-ups.
  double ms(const session& s, int i) const {
    std::vector<double> t;
    for (std::size_t c = static_cast<std::size_t>(warmups(s)); c < calls.size(); ++c)
      t.push_back(calls[c][static_cast<std::size_t>(i)]);
    return t.empty() ? 0.0 : median(std::move(t));
  }
  static constexpr const char* names[4] = {"local_sort", "splitters", "exchange", "merge"};
};

std::vector<int> group_sizes(int max_gpus) {
  std::vector<int> p;
  for (int k = 2; k < max_gpus; k *= 2) p.push_back(k);
  p.push_back(max_gpus);
  return p;
}

device_group first_gpus(int p) {
  std::vector<int> d(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) d[static_cast<std::size_t>(r)] = r;
  return device_group::cuda(d);
}

struct scaling {
  std::string primitive, type;
  std::int64_t n = 0;
  double bytes = 0;  // what the primitive must move, for GB/s
  double target_2 = 0, target_4 = 0;  // speedup targets (0: none)
};

void report(session& s, table& t, const scaling& w, int gpus, double ms, double base_ms,
            const sort_steps* steps = nullptr, table* step_table = nullptr) {
  const double speedup = base_ms / ms;
  std::string target = "-";
  const double goal = gpus == 2 ? w.target_2 : gpus == 4 ? w.target_4 : 0;
  if (goal > 0) target = fmt(goal, 1) + "x " + (speedup >= goal ? "met" : "missed");
  t.add({w.primitive, w.type, fmt_int(w.n), std::to_string(gpus), fmt(ms), fmt(speedup, 2),
         fmt(w.bytes / (ms * 1e6), 0), target});
  row r;
  r.primitive = "dist_" + w.primitive;
  r.variant = gpus == 1 ? "single_gpu" : "group";
  r.type = w.type;
  r.n = w.n;
  r.ms = ms;
  r.gbps = w.bytes / (ms * 1e6);
  r.extra["gpus"] = gpus;
  r.extra["speedup_vs_1"] = speedup;
  if (goal > 0) r.extra["target_speedup"] = goal;
  if (steps && step_table) {
    std::vector<std::string> cells{w.primitive, w.type, fmt_int(w.n), std::to_string(gpus), fmt(ms)};
    for (int i = 0; i < 4; ++i) {
      const double step_ms = steps->ms(s, i);
      r.extra[std::string(sort_steps::names[i]) + "_ms"] = step_ms;
      cells.push_back(fmt(step_ms));
    }
    // Random keys in even slices: each GPU sends about (P-1)/P of its slice (keys and values).
    const double sent = w.bytes / 2 / gpus * (gpus - 1) / gpus;
    const double exchange_gbps = sent / (steps->ms(s, 2) * 1e6);
    r.extra["exchange_gbps_per_gpu"] = exchange_gbps;
    cells.push_back(fmt(exchange_gbps, 0));
    step_table->add(std::move(cells));
  }
  s.add(std::move(r));
}

template <class T>
void reduce_scan_scaling(session& s, table& t, int max_gpus, std::int64_t n) {
  const auto host = random_data<T>(n, 11);
  const context one = context::cuda(0);
  const scaling red{"reduce", type_name<T>(), n, double(n) * sizeof(T), 0, 3.6};
  const scaling exc{"exclusive_scan", type_name<T>(), n, 2.0 * double(n) * sizeof(T), 0, 3.6};
  const scaling inc{"inclusive_scan", type_name<T>(), n, 2.0 * double(n) * sizeof(T), 0, 0};
  double base_red, base_exc, base_inc;
  {
    auto in = buffer<T>::from_host(one, host);
    buffer<T> out(one, n);
    volatile T sink{};
    base_red = wall_ms(s, [] {}, [&] { sink = reduce<T>(one, in); });
    base_exc = wall_ms(s, [] {}, [&] { exclusive_scan<T>(one, in, out); one.synchronize(); });
    base_inc = wall_ms(s, [] {}, [&] { inclusive_scan<T>(one, in, out); one.synchronize(); });
  }
  one.release_cached_memory();  // the groups below need GPU 0's memory
  report(s, t, red, 1, base_red, base_red);
  report(s, t, exc, 1, base_exc, base_exc);
  report(s, t, inc, 1, base_inc, base_inc);
  for (int p : group_sizes(max_gpus)) {
    auto g = first_gpus(p);
    auto in = dist_buffer<T>::from_host(g, host, even_counts(n, p));
    dist_buffer<T> out(g, in.counts());
    volatile T sink{};
    report(s, t, red, p, wall_ms(s, [] {}, [&] { sink = dist::reduce<T>(g, in); }), base_red);
    report(s, t, exc, p, wall_ms(s, [] {}, [&] { dist::exclusive_scan<T>(g, in, out); }), base_exc);
    report(s, t, inc, p, wall_ms(s, [] {}, [&] { dist::inclusive_scan<T>(g, in, out); }), base_inc);
  }
}

template <class K, class V>
void sort_scaling(session& s, table& t, table& step_table, int max_gpus, std::int64_t n,
                  bool pairs) {
  const auto keys = random_data<K>(n, 21);
  const auto values = pairs ? random_data<V>(n, 22) : std::vector<V>{};
  const context one = context::cuda(0);
  const double bytes = double(n) * (sizeof(K) + (pairs ? sizeof(V) : 0));
  const scaling w{pairs ? "radix_sort_pairs" : "radix_sort",
                  std::string(type_name<K>()) + (pairs ? std::string("/") + type_name<V>() : ""), n,
                  2.0 * bytes, 1.7, 3.0};
  double base;
  {
    auto pristine_k = buffer<K>::from_host(one, keys);
    buffer<K> k(one, n);
    auto pristine_v = buffer<V>::from_host(one, values);
    buffer<V> v(one, pairs ? n : 0);
    auto restore = [&] {
      one.copy(k.data(), pristine_k.data(), k.bytes());
      if (pairs) one.copy(v.data(), pristine_v.data(), v.bytes());
      one.synchronize();
    };
    base = wall_ms(s, restore, [&] {
      if (pairs) radix_sort_pairs<K, V>(one, k, v);
      else radix_sort<K>(one, k);
      one.synchronize();
    });
  }
  one.release_cached_memory();
  report(s, t, w, 1, base, base);
  for (int p : group_sizes(max_gpus)) {
    auto g = first_gpus(p);
    const auto counts = even_counts(n, p);
    const auto value_counts = pairs ? counts : std::vector<std::int64_t>(std::size_t(p), 0);
    auto pristine_k = dist_buffer<K>::from_host(g, keys, counts);
    auto pristine_v = dist_buffer<V>::from_host(g, values, value_counts);
    dist_buffer<K> k(g, counts);
    dist_buffer<V> v(g, value_counts);
    auto restore = [&] {
      for (int r = 0; r < p; ++r) {
        g.ctx(r).copy(k.slice(r).data(), pristine_k.slice(r).data(), k.slice(r).bytes());
        if (pairs) g.ctx(r).copy(v.slice(r).data(), pristine_v.slice(r).data(), v.slice(r).bytes());
      }
      g.synchronize();
    };
    sort_steps steps;
    std::vector<dist::sort_phase_ms> ranks;
    const double ms = wall_ms(s, restore, [&] {
      if (pairs) dist::radix_sort_pairs<K, V>(g, k, v, sort_order::ascending, 0, -1, &ranks);
      else dist::radix_sort<K>(g, k, sort_order::ascending, 0, -1, &ranks);
      steps.add(ranks);
    });
    report(s, t, w, p, ms, base, &steps, &step_table);
  }
}

#if PARPRIM_HAVE_CUDA
// One row of the link's yardsticks: `bytes` each way between GPU 0 and GPU 1 at `gbps`.
row link_row(const std::string& variant, std::size_t bytes, double gbps) {
  row r;
  r.primitive = "peer_copy";
  r.variant = variant;
  r.type = "u8";
  r.n = static_cast<std::int64_t>(bytes);
  r.ms = static_cast<double>(bytes) / (gbps * 1e6);
  r.gbps = gbps;
  r.extra["gpus"] = 2;
  return r;
}

void link_yardstick(session& s, std::int64_t sort_n) {
  // A 2-GPU sort of sort_n u32 keys sends a quarter of the keys from each GPU.
  const auto bytes = static_cast<std::size_t>(sort_n) * sizeof(std::uint32_t) / 4;
  const int reps = s.opts().quick ? 3 : 5;
  const double gbps = yardstick::peer_copy_gbps(0, 1, bytes, reps);
  std::cout << "\nlink yardstick: copy engines, GPU 0 <-> GPU 1 both directions at once, "
            << fmt_int(static_cast<std::int64_t>(bytes)) << " bytes each way: " << fmt(gbps, 0)
            << " GB/s per direction\n";
  s.add(link_row("copy_engines_bidirectional", bytes, gbps));
  using yardstick::nccl_exchange_way;
  const std::vector<nccl_exchange_way> ways = {{"nccl_sendrecv", 1, false, false},
                                               {"nccl_sendrecv_8_chunks", 8, false, false},
                                               {"nccl_sendrecv_registered", 1, true, false},
                                               {"nccl_sendrecv_registered_ncclmem", 1, true, true},
                                               {"nccl_sendrecv_both_4_bytes_off", 1, false, false, 4, 4},
                                               {"nccl_sendrecv_4_and_8_bytes_off", 1, false, false, 4, 8}};
  for (const auto& e : yardstick::nccl_exchange_gbps(0, 1, bytes, reps, ways)) {
    std::cout << "link yardstick: " << e.name << ", same bytes both directions at once: ";
    if (!e.failure.empty()) {
      std::cout << "could not run (" << e.failure << ")\n";
      continue;
    }
    std::cout << fmt(e.gbps, 0) << " GB/s per direction";
    if (e.register_ms > 0) std::cout << " (registering the buffers: " << fmt(e.register_ms, 2) << " ms)";
    std::cout << "\n";
    row n = link_row(e.name, bytes, e.gbps);
    if (e.register_ms > 0) n.extra["register_ms"] = e.register_ms;
    s.add(std::move(n));
  }
}
#endif

void run_distributed(session& s) {
  const int want = s.opts().gpus;
  if (want < 1) {
    std::cout << "\ndistributed: skipped (pass --gpus N to run it on N GPUs of this host)\n";
    return;
  }
  if (!device_group::nccl_built() || context::cuda_device_count() < want) {
    std::cout << "\ndistributed: skipped ("
              << (device_group::nccl_built() ? std::to_string(context::cuda_device_count()) +
                                                   " GPU(s) answer, --gpus asks for " +
                                                   std::to_string(want)
                                             : std::string("this build has no NCCL"))
              << ")\n";
    return;
  }
  // Default sizes: the targets' (2^32 for reduce and scan, 2^31 for sorts); --sizes N sets both.
  const bool quick = s.opts().quick;
  const auto& sizes = s.opts().sizes;
  const std::int64_t scan_n = !sizes.empty() ? sizes.front() : quick ? (std::int64_t(1) << 26) : (std::int64_t(1) << 32);
  const std::int64_t sort_n = !sizes.empty() ? sizes.front() : quick ? (std::int64_t(1) << 26) : (std::int64_t(1) << 31);
  table t("distributed primitives on 1-" + std::to_string(want) +
              " GPUs (speedup over one GPU of the same run; wall clock per call)",
          {"primitive", "type", "n", "GPUs", "ms", "speedup", "GB/s", "target"});
  table steps("distributed sort steps (ms; per call the slowest rank's, median over calls; "
              "host clock after each step's wait for the device; exchange: until the last "
              "chunk arrived, merges of earlier chunks overlapping it; merge: what is left)",
              {"primitive", "type", "n", "GPUs", "ms", "local sort", "splitters", "exchange",
               "merge", "exchange GB/s out per GPU"});
  reduce_scan_scaling<std::uint32_t>(s, t, want, scan_n);
  sort_scaling<std::uint32_t, std::uint32_t>(s, t, steps, want, sort_n, false);
  sort_scaling<std::uint32_t, std::uint32_t>(s, t, steps, want, sort_n, true);
  t.print();
  steps.print();
#if PARPRIM_HAVE_CUDA
  if (want >= 2) link_yardstick(s, sort_n);
#endif
}

PARPRIM_BENCH_SUITE("distributed", "reduce, scan and radix sort over --gpus N GPUs (NCCL)", 90,
                    run_distributed);

}  // namespace
}  // namespace parprim::bench
