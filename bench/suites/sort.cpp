// `parprim bench sort`: radix sort against CUB DeviceRadixSort (GPU) or std::sort,
// std::stable_sort, the GNU parallel mode and TBB (CPU), on 1-, 2-, 4- and 8-byte keys, and
// u32 keys with u32 or u64 values (the value = the key's index: u64 is an argsort with 64-bit
// indices, what torch.sort returns); and
// merge sort with a comparator (u64 keys, 16-byte records) against CUB DeviceMergeSort (GPU)
// or std::stable_sort, the GNU parallel mode and TBB (CPU).
//
// Inputs (CUB's benchmark convention): each key bit is the AND of k random bits, so it is 1
// with probability 2^-k and carries H(2^-k) bits of entropy:
//   k = 1: 1.0 (uniform)   k = 3: 0.544   k = 5: 0.201   all keys equal: 0
// (k = 2 would give 0.811 and k = 4 0.337), plus sorted and reverse-sorted uniform keys.
//
// Our sorts are in place, so every timed run first restores the input with a device copy;
// the copy is timed on its own and subtracted. CUB runs out of place (its input is never
// modified). Every row's output, as the last timed run left it, is checked bit for bit after
// the timed calls: against CUB's output on the GPU ("matches_cub"; the ladder's split_1bit row
// against CUB's sorted keys kept from the ladder's onesweep run), against std::stable_sort's on
// the CPU ("matches_sequential"; our sorts are stable, so pairs and records must come out in the
// same order too).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/merge_sort.hpp"
#include "parprim/parprim.hpp"
#include "suites/sort_records.hpp"
#include "yardsticks/cpu_sort.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_sort.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

struct input_kind {
  const char* name;
  int and_words;  // >= 1: AND of that many random words; 0: all equal; -1 sorted; -2 reversed
  double entropy;
};
constexpr input_kind uniform_input{"uniform", 1, 1.0};
const input_kind all_inputs[] = {uniform_input,           {"entropy_0.544", 3, 0.544},
                                 {"entropy_0.201", 5, 0.201}, {"entropy_0", 0, 0.0},
                                 {"sorted", -1, 1.0},       {"reversed", -2, 1.0}};

template <class K>
std::vector<K> make_keys(std::int64_t n, const input_kind& in, std::uint64_t seed) {
  std::vector<K> v(static_cast<std::size_t>(n));
  const int words = std::max(in.and_words, 1);
  const std::uint64_t constant = splitmix64(seed);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t x = ~std::uint64_t(0);
    if (in.and_words == 0) x = constant;
    else
      for (int w = 0; w < words; ++w) x &= splitmix64(seed * 0x100000001B3ull + std::uint64_t(i) * 8 + w);
    v[static_cast<std::size_t>(i)] = static_cast<K>(x);
  }
  if (in.and_words < 0) {  // sorted with our own CPU sort (std::sort would take seconds)
    radix_sort<K>(context::cpu(), span<K>(v));
    if (in.and_words == -2) std::reverse(v.begin(), v.end());
  }
  return v;
}

struct config {
  const char* label;  // "u32", "u32/u32", "u32/u64", "u64", "u16", "u8"
  int key_bytes;
  int value_bytes;  // 0: keys only
  bool pairs() const { return value_bytes > 0; }
};
const config configs[] = {{"u32", 4, 0},  {"u32/u32", 4, 4}, {"u32/u64", 4, 8},
                          {"u64", 8, 0},  {"u16", 2, 0},     {"u8", 1, 0}};

struct measurement {
  double ms = nan;
  double yard_ms = nan;
  double stable_ms = nan;  // CPU: std::stable_sort
  double gnu_ms = nan;     // CPU: __gnu_parallel::sort
  double tbb_ms = nan;     // CPU: tbb::parallel_sort
  double matches = nan;    // 1 when our output equals CUB's (GPU) or std::stable_sort's (CPU) bit for bit
};

// std::sort, std::stable_sort, the GNU parallel mode and TBB on fresh copies of `src`; returns
// std::stable_sort's output, what our stable sorts must equal.
template <class T, class Comp>
std::vector<T> time_cpu_sorts(session& s, const std::vector<T>& src, Comp comp, measurement& m) {
  std::vector<T> dst, stable;
  const int threads = s.ctx().threads();
  const double cp = s.time_host_ms([&] { dst = src; });
  m.yard_ms = s.time_host_ms([&] { dst = src; std::sort(dst.begin(), dst.end(), comp); }) - cp;
  m.stable_ms = s.time_host_ms([&] { stable = src; std::stable_sort(stable.begin(), stable.end(), comp); }) - cp;
  m.gnu_ms = s.time_host_ms([&] {
    dst = src;
    yardstick::gnu_parallel_sort(dst.begin(), dst.end(), comp, threads);
  }) - cp;
  if (yardstick::have_tbb)
    m.tbb_ms = s.time_host_ms([&] {
      dst = src;
      yardstick::tbb_parallel_sort(dst.begin(), dst.end(), comp, threads);
    }) - cp;
  return stable;
}

// Our sort of a fresh copy of `keys` (and values V = index), minus the copy; its output compared
// bit for bit with `want` where given (keys alone; no yardstick timed), else with the output of
// the yardstick timed here on the same input: CUB (its sorted keys moved to *cub_keys where
// asked) or std::stable_sort.
template <class K, class V = std::uint32_t>
measurement measure(session& s, const config& c, const std::vector<K>& keys, sort_algorithm alg,
                    const std::vector<K>* want = nullptr, std::vector<K>* cub_keys = nullptr) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(keys.size());
  const bool pairs = c.pairs();
  measurement m;
  auto input = buffer<K>::from_host(ctx, keys);
  buffer<K> work(ctx, n);
  buffer<V> values_in, values;
  if (pairs) {
    std::vector<V> idx(keys.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = V(i);
    values_in = buffer<V>::from_host(ctx, idx);
    values = buffer<V>(ctx, n);
  }
  workspace ws(ctx);
  auto restore = [&] {
    ctx.copy(work.data(), input.data(), input.bytes());
    if (pairs) ctx.copy(values.data(), values_in.data(), values_in.bytes());
  };
  auto sort = [&] {
    if (pairs)
      radix_sort_pairs<K, V>(ctx, work, values, sort_order::ascending, 0, -1, alg, &ws);
    else
      radix_sort<K>(ctx, work, sort_order::ascending, 0, -1, alg, &ws);
  };
  const double copy_ms = s.time_ms(restore);
  m.ms = std::max(s.time_ms([&] { restore(); sort(); }) - copy_ms, 1e-6);
  const std::vector<K> ours = work.to_host();  // as the last timed run left it
  if (want) {
    m.matches = same_bits(ours, *want) ? 1.0 : 0.0;
    return m;
  }

  if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
    buffer<K> out(ctx, n);
    buffer<V> values_out(ctx, pairs ? n : 0);
    if constexpr (sizeof(K) == 4) {
      if (pairs)
        m.yard_ms = yardstick::cub_sort_pairs_ms<V>(s, input.data(), out.data(), values_in.data(),
                                                    values_out.data(), n);
      else
        m.yard_ms = yardstick::cub_sort_keys_ms<K>(s, input.data(), out.data(), n);
    } else {
      m.yard_ms = yardstick::cub_sort_keys_ms<K>(s, input.data(), out.data(), n);
    }
    std::vector<K> theirs = out.to_host();
    m.matches = same_bits(ours, theirs) && same_bits(values.to_host(), values_out.to_host()) ? 1.0 : 0.0;
    if (cub_keys) *cub_keys = std::move(theirs);
#endif
  } else if (pairs) {
    std::vector<std::pair<K, V>> src(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) src[i] = {keys[i], V(i)};
    const auto stable = time_cpu_sorts(s, src, [](const auto& a, const auto& b) { return a.first < b.first; }, m);
    const std::vector<V> ours_values = values.to_host();
    bool same = true;
    for (std::size_t i = 0; i < stable.size(); ++i)
      same = same && ours[i] == stable[i].first && ours_values[i] == stable[i].second;
    m.matches = same ? 1.0 : 0.0;
  } else {
    const std::vector<K> stable = time_cpu_sorts(s, keys, std::less<K>(), m);
    m.matches = same_bits(ours, stable) ? 1.0 : 0.0;
  }
  return m;
}

void add_row(session& s, const config& c, sort_algorithm alg, const input_kind& in,
             std::int64_t n, const measurement& m) {
  row r;
  r.primitive = c.pairs() ? "radix_sort_pairs" : "radix_sort";
  r.variant = std::string(to_string(alg)) + (in.and_words == 1 ? "" : std::string(":") + in.name);
  r.type = c.label;
  r.n = n;
  r.ms = m.ms;
  const double bytes = double(n) * (c.key_bytes + c.value_bytes) * 2;  // one read + one write
  r.gbps = bytes / (m.ms * 1e6);
  if (!std::isnan(m.yard_ms)) {
    r.yardstick = s.on_gpu() ? "cub" : "std::sort";
    r.yardstick_ms = m.yard_ms;
  }
  r.extra["gkeys_per_s"] = double(n) / (m.ms * 1e6);
  r.extra["entropy"] = in.entropy;
  if (!std::isnan(m.stable_ms)) r.extra["std_stable_sort_ms"] = m.stable_ms;
  if (!std::isnan(m.gnu_ms)) r.extra["gnu_parallel_sort_ms"] = m.gnu_ms;
  if (!std::isnan(m.tbb_ms)) r.extra["tbb_parallel_sort_ms"] = m.tbb_ms;
  if (!std::isnan(m.matches)) r.extra[check_figure(s.on_gpu())] = m.matches;
  s.add(std::move(r));
}

std::string gkeys(std::int64_t n, double ms) { return std::isnan(ms) ? "-" : fmt(double(n) / (ms * 1e6), 2); }

template <class K>
std::vector<K> input_keys(std::int64_t n, const input_kind& in) {
  return make_keys<K>(n, in, 42 + std::uint64_t(n));
}

measurement run_config(session& s, const config& c, const input_kind& in, std::int64_t n, sort_algorithm alg) {
  switch (c.key_bytes) {
    case 1: return measure(s, c, input_keys<std::uint8_t>(n, in), alg);
    case 2: return measure(s, c, input_keys<std::uint16_t>(n, in), alg);
    case 4:
      if (c.value_bytes == 8)
        return measure<std::uint32_t, std::uint64_t>(s, c, input_keys<std::uint32_t>(n, in), alg);
      return measure(s, c, input_keys<std::uint32_t>(n, in), alg);
    default: return measure(s, c, input_keys<std::uint64_t>(n, in), alg);
  }
}

bool fits(session& s, const config& c, std::int64_t n) {
  // input, work, temporary and the yardstick's output and temporary: about 6 copies.
  return s.fits(n, c.key_bytes + 2 * c.value_bytes, 6);
}

void run_merge_sort(session& s, const std::vector<std::int64_t>& sizes);

void run_gpu(session& s) {
  std::vector<std::int64_t> defaults = {1 << 16, 1 << 20, 1 << 24, 1 << 27, 1 << 28};
  auto sizes = s.sizes_or(defaults, 16);
  // 1. Uniform keys at every size.
  table t1("radix sort vs CUB DeviceRadixSort, uniform keys, on " + s.ctx().name(),
           {"keys/values", "n", "ms", "Gkeys/s", "CUB ms", "CUB Gkeys/s", "vs CUB", "same as CUB"});
  for (const auto& c : configs)
    for (std::int64_t n : sizes) {
      if (!fits(s, c, n)) continue;
      auto m = run_config(s, c, uniform_input, n, sort_algorithm::onesweep);
      add_row(s, c, sort_algorithm::onesweep, uniform_input, n, m);
      t1.add({c.label, fmt_int(n), fmt(m.ms, 4), gkeys(n, m.ms), fmt(m.yard_ms, 4),
              gkeys(n, m.yard_ms), fmt(m.yard_ms / m.ms, 2), m.matches == 1.0 ? "yes" : "NO"});
    }
  t1.print();

  // 2. Every input distribution at the largest size (--quick: u32 keys only, and no ladder).
  const bool quick = s.opts().quick;
  const std::int64_t big = sizes.empty() ? 0 : sizes.back();
  table t2("radix sort vs CUB by input (n=" + fmt_int(big) + "; entropy = AND of k random words)",
           {"keys/values", "input", "ms", "Gkeys/s", "CUB ms", "CUB Gkeys/s", "vs CUB", "same as CUB"});
  for (const auto& c : configs) {
    if (big == 0 || !fits(s, c, big) || (quick && (c.pairs() || c.key_bytes != 4))) continue;
    for (const auto& in : all_inputs) {
      if (in.and_words == 1) continue;  // uniform: table 1
      auto m = run_config(s, c, in, big, sort_algorithm::onesweep);
      add_row(s, c, sort_algorithm::onesweep, in, big, m);
      t2.add({c.label, in.name, fmt(m.ms, 4), gkeys(big, m.ms), fmt(m.yard_ms, 4),
              gkeys(big, m.yard_ms), fmt(m.yard_ms / m.ms, 2), m.matches == 1.0 ? "yes" : "NO"});
    }
  }
  t2.print();
  run_merge_sort(s, sizes);
  if (quick) return;

  // 3. The ladder: the course's 1-bit split sort against Onesweep and CUB, on one input;
  // split_1bit's output is compared with CUB's sorted keys from the onesweep run.
  table t3("radix sort ladder, u32 keys, n=" + fmt_int(big),
           {"variant", "ms", "Gkeys/s", "speedup vs split_1bit", "vs CUB", "same as CUB"});
  if (big > 0) {
    const config& c = configs[0];
    const auto keys = input_keys<std::uint32_t>(big, uniform_input);
    std::vector<std::uint32_t> cub_keys;
    const measurement one = measure<std::uint32_t>(s, c, keys, sort_algorithm::onesweep, nullptr, &cub_keys);
    measurement split = measure(s, c, keys, sort_algorithm::split_1bit, &cub_keys);
    split.yard_ms = one.yard_ms;
    add_row(s, c, sort_algorithm::split_1bit, uniform_input, big, split);
    t3.add({"split_1bit", fmt(split.ms, 3), gkeys(big, split.ms), "1.00", fmt(one.yard_ms / split.ms, 3),
            check_cell(split.matches)});
    t3.add({"onesweep", fmt(one.ms, 3), gkeys(big, one.ms), fmt(split.ms / one.ms, 2), fmt(one.yard_ms / one.ms, 3),
            check_cell(one.matches)});
    t3.add({"CUB", fmt(one.yard_ms, 3), gkeys(big, one.yard_ms), fmt(split.ms / one.yard_ms, 2), "1.000", "-"});
  }
  t3.print();
}

// ---- merge sort with a comparator ---------------------------------------------------------
template <class T>
std::vector<T> merge_input(std::int64_t n);
template <>
std::vector<std::uint64_t> merge_input(std::int64_t n) {
  return make_keys<std::uint64_t>(n, uniform_input, 7 + std::uint64_t(n));
}
template <>
std::vector<record16> merge_input(std::int64_t n) {
  auto keys = make_keys<std::uint64_t>(n, uniform_input, 11 + std::uint64_t(n));
  std::vector<record16> v(keys.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = record16{keys[i], std::uint64_t(i)};
  return v;
}

template <class T, class Comp>
measurement measure_merge(session& s, std::int64_t n, Comp comp) {
  measurement m;
  const std::vector<T> host = merge_input<T>(n);
  const context& ctx = s.ctx();
  auto input = buffer<T>::from_host(ctx, host);
  buffer<T> work(ctx, n);
  if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
    m.ms = gpu_merge_sort_ms(s, input.data(), work.data(), n);
    buffer<T> out(ctx, n);
    m.yard_ms = yardstick::cub_merge_sort_ms(s, input.data(), out.data(), n);
    std::vector<T> ours = work.to_host(), theirs = out.to_host();
    m.matches = std::memcmp(ours.data(), theirs.data(), ours.size() * sizeof(T)) == 0 ? 1.0 : 0.0;
#endif
  } else {
    workspace ws(ctx);
    auto restore = [&] { ctx.copy(work.data(), input.data(), input.bytes()); };
    const double copy_ms = s.time_ms(restore);
    m.ms = std::max(s.time_ms([&] { restore(); merge_sort(ctx, span<T>(work.data(), n), comp, &ws); }) - copy_ms, 1e-6);
    const std::vector<T> want = time_cpu_sorts(s, host, comp, m);
    m.matches = same_bits(work.to_host(), want) ? 1.0 : 0.0;
  }
  return m;
}

void run_merge_sort(session& s, const std::vector<std::int64_t>& sizes) {
  const bool gpu = s.on_gpu();
  table t("merge sort with a comparator vs " +
              std::string(gpu ? "CUB DeviceMergeSort" : "std::stable_sort, GNU parallel and TBB") +
              " on " + s.ctx().name(),
          gpu ? std::vector<std::string>{"type", "n", "ms", "Gkeys/s", "CUB ms", "vs CUB", "same as CUB"}
              : std::vector<std::string>{"type", "n", "ms", "Gkeys/s", "std::stable_sort ms", "GNU parallel ms",
                                         "TBB ms", "vs stable", "vs GNU", "vs TBB", "same as stable_sort"});
  for (std::int64_t n : sizes) {
    if (n > (std::int64_t(1) << 26) || !s.fits(n, 16, 5)) continue;
    for (int type = 0; type < 2; ++type) {
      const char* label = type == 0 ? "u64" : "record16";
      const measurement m = type == 0 ? measure_merge<std::uint64_t>(s, n, less_than{})
                                      : measure_merge<record16>(s, n, record16_less{});
      row r;
      r.primitive = "merge_sort";
      r.variant = "merge_path";
      r.type = label;
      r.n = n;
      r.ms = m.ms;
      r.gbps = double(n) * (type == 0 ? 8 : 16) * 2 / (m.ms * 1e6);
      r.yardstick = gpu ? "cub_merge_sort" : "std::stable_sort";
      r.yardstick_ms = gpu ? m.yard_ms : m.stable_ms;
      r.extra["gkeys_per_s"] = double(n) / (m.ms * 1e6);
      if (!std::isnan(m.matches)) r.extra[check_figure(gpu)] = m.matches;
      if (!std::isnan(m.gnu_ms)) r.extra["gnu_parallel_sort_ms"] = m.gnu_ms;
      if (!std::isnan(m.tbb_ms)) r.extra["tbb_parallel_sort_ms"] = m.tbb_ms;
      s.add(std::move(r));
      if (gpu)
        t.add({label, fmt_int(n), fmt(m.ms, 4), gkeys(n, m.ms), fmt(m.yard_ms, 4),
               fmt(m.yard_ms / m.ms, 2), m.matches == 1.0 ? "yes" : "NO"});
      else
        t.add({label, fmt_int(n), fmt(m.ms, 3), gkeys(n, m.ms), fmt(m.stable_ms, 3), fmt(m.gnu_ms, 3),
               fmt(m.tbb_ms, 3), fmt(m.stable_ms / m.ms, 2), fmt(m.gnu_ms / m.ms, 2), fmt(m.tbb_ms / m.ms, 2),
               check_cell(m.matches)});
    }
  }
  t.print();
}

void run_cpu(session& s) {
  std::vector<std::int64_t> defaults = {1 << 16, 1 << 20, 1 << 24};
  auto sizes = s.sizes_or(defaults, 16);
  table t("radix sort vs std::sort, std::stable_sort, GNU parallel and TBB sorts, uniform keys, on " +
              s.ctx().name() + " (" + std::to_string(s.ctx().threads()) + " threads)",
          {"keys/values", "n", "ms", "Gkeys/s", "std::sort ms", "std::stable_sort ms",
           "GNU parallel ms", "TBB ms", "vs std::sort", "vs GNU", "vs TBB", "same as stable_sort"});
  for (const auto& c : configs)
    for (std::int64_t n : sizes) {
      if (!fits(s, c, n)) continue;
      auto m = run_config(s, c, uniform_input, n, sort_algorithm::onesweep);
      add_row(s, c, sort_algorithm::onesweep, uniform_input, n, m);
      t.add({c.label, fmt_int(n), fmt(m.ms, 3), gkeys(n, m.ms), fmt(m.yard_ms, 3),
             fmt(m.stable_ms, 3), fmt(m.gnu_ms, 3), fmt(m.tbb_ms, 3), fmt(m.yard_ms / m.ms, 2),
             fmt(m.gnu_ms / m.ms, 2), fmt(m.tbb_ms / m.ms, 2), check_cell(m.matches)});
    }
  t.print();
  run_merge_sort(s, sizes);
}

void run_sort(session& s) {
  if (s.on_gpu()) run_gpu(s);
  else run_cpu(s);
}

}  // namespace

PARPRIM_BENCH_SUITE("sort", "radix sort: Onesweep vs CUB by size, key width and entropy; the 1-bit ladder; merge sort", 40,
                    run_sort);

}  // namespace parprim::bench
