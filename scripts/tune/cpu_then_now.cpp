// CPU backend then and now: one driver, linked once against each of two CPU-only builds of
// libparprim.a, times reduce, exclusive_scan u32, inclusive_scan f32, copy_if (50%), a 256-bin
// histogram and radix sort (u32 keys, u32/u32 pairs) on context::cpu(2) and prints, per
// primitive, the median of 9 calls in process CPU time (CLOCK_PROCESS_CPUTIME_ID: every
// thread's time summed, so a busy machine's waiting adds little) and in wall time, with a
// checksum of the output, which must be equal for both builds. Public API only, and only calls
// whose signatures are the same in both builds compared so far (905c761^1 and later).
//
// Build against one library (a CPU-only build: -DPARPRIM_CUDA=OFF -DCMAKE_BUILD_TYPE=Release,
// target parprim), once per build:
//   g++ -O2 -std=c++17 -fopenmp -march=native -I<src>/include -I<build>/include
//       scripts/tune/cpu_then_now.cpp <build>/src/libparprim.a -o cpu_then_now_<name>
// Run:
//   OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 ./cpu_then_now_<name> <name> [log2n [threads [only]]]
// (2^24 and context::cpu(2) unless given; `only`: a part of a primitive's name, to run only
// the primitives whose names contain it, say under perf record).
// scripts/tune/cpu_then_now.sh builds two source trees this way and alternates them in rounds.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <parprim/parprim.hpp>
#include <vector>

namespace {

using parprim::buffer;
using parprim::context;
using parprim::span;
using parprim::workspace;

constexpr int timed_calls = 9;
const char* only = nullptr;  // run only the primitives whose name contains this (for perf)

double seconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// FNV-1a over the bytes of an output: equal outputs give equal checksums in both builds.
std::uint64_t checksum(const void* data, std::size_t bytes,
                       std::uint64_t h = 1469598103934665603ull) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

template <class T>
std::uint64_t checksum(const std::vector<T>& v, std::uint64_t h = 1469598103934665603ull) {
  return checksum(v.data(), v.size() * sizeof(T), h);
}

std::uint64_t splitmix64(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// One warm-up call, then timed_calls timed ones; `prepare` (untimed) runs before each call.
template <class Prepare, class Call, class Sum>
void time_primitive(const char* name, const char* build, Prepare prepare, Call call, Sum sum) {
  if (only && !std::strstr(name, only)) return;
  prepare();
  call();
  std::vector<double> cpu, wall;
  for (int i = 0; i < timed_calls; ++i) {
    prepare();
    const double c0 = seconds(CLOCK_PROCESS_CPUTIME_ID), w0 = seconds(CLOCK_MONOTONIC);
    call();
    const double c1 = seconds(CLOCK_PROCESS_CPUTIME_ID), w1 = seconds(CLOCK_MONOTONIC);
    cpu.push_back(1e3 * (c1 - c0));
    wall.push_back(1e3 * (w1 - w0));
  }
  std::printf("%-8s %-22s cpu_ms %9.2f  wall_ms %9.2f  checksum %016llx\n", build, name,
              median(cpu), median(wall), static_cast<unsigned long long>(sum()));
  std::fflush(stdout);
}

struct state {
  context ctx;
  std::vector<std::uint32_t> keys_host;
  buffer<std::uint32_t> keys, out, work, values, values_init;
  buffer<float> reals, reals_out;
  buffer<std::uint64_t> bins;
  std::uint32_t reduced = 0;
  std::int64_t kept = 0;
  workspace ws;

  state(const context& c, std::int64_t n)
      : ctx(c),
        keys_host(std::size_t(n)),
        keys(c, n),
        out(c, n),
        work(c, n),
        values(c, n),
        values_init(c, n),
        reals(c, n),
        reals_out(c, n),
        bins(c, 256),
        ws(c) {
    std::uint64_t seed = 0x5EEDu;
    std::vector<float> reals_host(static_cast<std::size_t>(n));
    std::vector<std::uint32_t> index(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      const std::uint64_t r = splitmix64(seed);
      keys_host[std::size_t(i)] = std::uint32_t(r);
      reals_host[std::size_t(i)] = float(std::uint32_t(r >> 40)) * (1.0f / 16777216.0f);
      index[std::size_t(i)] = std::uint32_t(i);
    }
    keys.copy_from_host(keys_host.data(), n);
    reals.copy_from_host(reals_host.data(), n);
    values_init.copy_from_host(index.data(), n);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const char* build = argc > 1 ? argv[1] : "build";
  const int log2n = argc > 2 ? std::atoi(argv[2]) : 24;
  const std::int64_t n = std::int64_t(1) << log2n;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 2;
  only = argc > 4 ? argv[4] : nullptr;
  const context ctx = context::cpu(threads);
  std::printf("# %s: n=2^%d, context %s(%d), OMP_WAIT_POLICY=%s OMP_NUM_THREADS=%s, median of %d\n",
              build, log2n, ctx.name().c_str(), ctx.threads(),
              std::getenv("OMP_WAIT_POLICY") ? std::getenv("OMP_WAIT_POLICY") : "(unset)",
              std::getenv("OMP_NUM_THREADS") ? std::getenv("OMP_NUM_THREADS") : "(unset)",
              timed_calls);
  state s(ctx, n);
  auto none = [] {};
  auto sum_out = [&] { return checksum(s.out.to_host()); };

  time_primitive(
      "reduce_u32", build, none,
      [&] {
        s.reduced = parprim::reduce<std::uint32_t>(ctx, s.keys, parprim::op::plus,
                                                   parprim::reduce_algorithm::production, &s.ws);
      },
      [&] { return checksum(&s.reduced, sizeof s.reduced); });
  time_primitive(
      "exclusive_scan_u32", build, none,
      [&] {
        parprim::exclusive_scan<std::uint32_t>(ctx, s.keys, s.out, 0u, parprim::op::plus,
                                               parprim::scan_algorithm::decoupled_lookback, &s.ws);
      },
      sum_out);
  time_primitive(
      "inclusive_scan_f32", build, none,
      [&] {
        parprim::inclusive_scan<float>(ctx, s.reals, s.reals_out, parprim::op::plus,
                                       parprim::scan_algorithm::decoupled_lookback, &s.ws);
      },
      [&] { return checksum(s.reals_out.to_host()); });
  time_primitive(
      "copy_if_50pct_u32", build, none,
      [&] {
        s.kept = parprim::copy_if<std::uint32_t>(ctx, s.keys, s.out,
                                                 {parprim::compare::less, 0x80000000u}, &s.ws);
      },
      [&] {
        std::vector<std::uint32_t> v = s.out.to_host();
        v.resize(static_cast<std::size_t>(s.kept));
        return checksum(v, checksum(&s.kept, sizeof s.kept));
      });
  time_primitive(
      "histogram_256_u32", build, none,
      [&] { parprim::histogram<std::uint32_t>(ctx, s.keys, s.bins, 256, 0u, 0xFFFFFFFFu); },
      [&] { return checksum(s.bins.to_host()); });
  time_primitive(
      "radix_sort_u32", build, [&] { s.work.copy_from_host(s.keys_host.data(), n); },
      [&] {
        parprim::radix_sort<std::uint32_t>(ctx, s.work, parprim::sort_order::ascending, 0, -1,
                                           parprim::sort_algorithm::onesweep, &s.ws);
      },
      [&] { return checksum(s.work.to_host()); });
  time_primitive(
      "radix_sort_pairs_u32", build,
      [&] {
        s.work.copy_from_host(s.keys_host.data(), n);
        s.ctx.copy(s.values.data(), s.values_init.data(), s.values.bytes());
      },
      [&] {
        parprim::radix_sort_pairs<std::uint32_t, std::uint32_t>(
            ctx, s.work, s.values, parprim::sort_order::ascending, 0, -1,
            parprim::sort_algorithm::onesweep, &s.ws);
      },
      [&] { return checksum(s.values.to_host(), checksum(s.work.to_host())); });
  return 0;
}
