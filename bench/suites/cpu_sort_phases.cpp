// `parprim bench cpu_sort_phases`: where the CPU radix sort's time goes, on the host's threads.
// A white-box benchmark: besides the public sort it times the sort's internal phases
// (src/cpu/radix_sort_msd.hpp), which no public call reaches, so it includes src/ headers.
// Rows, on u32 keys of random bits (every sort run starts from a fresh copy of the input; the
// copy is timed alone in the first row, so it can be subtracted):
//   copy        a parallel memcpy of the keys, and the same copy with streaming stores;
//   radix_sort  the production sort, and the whole-array LSD passes alone (the sort used for
//               every size before the split), for u32 keys, u32/u32 pairs and u64 keys;
//   split       the top-digit split alone (read twice, written once), on 8 to 12 top bits;
//   buckets     the in-cache sort of every bucket after that split, alone.
// The production sort's split width is the one split_bits_for picks (marked "in use").
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cpu/radix_sort_msd.hpp"
#include "cpu/sort_backend.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"

namespace parprim::bench {
namespace {

using cpu_backend::msd::digit_of;

// Each thread copies its contiguous 64-byte-aligned share.
template <class T>
void parallel_copy(T* dst, const T* src, std::int64_t n, int threads, bool streaming) {
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_num_threads(), i = omp_get_thread_num();
    const std::int64_t chunk = (n / t + 63) / 64 * 64;
    const std::int64_t begin = std::min(n, i * chunk), end = std::min(n, begin + chunk);
    if (streaming) {
      cpu_backend::msd::copy_out(dst + begin, src + begin, end - begin);
      cpu_backend::msd::fence_lines();
    } else {
      std::memcpy(dst + begin, src + begin, std::size_t(end - begin) * sizeof(T));
    }
  }
}

template <class K, class V>
detail::sort_request request_of(K* keys, V* values, std::int64_t n) {
  detail::sort_request r;
  r.keys = keys;
  r.values = values;
  r.n = n;
  r.key_bytes = int(sizeof(K));
  r.value_bytes = values ? int(sizeof(V)) : 0;
  r.end_bit = int(8 * sizeof(K));
  return r;
}

class phases {
 public:
  phases(session& s, std::int64_t n)
      : s_(s), n_(n), threads_(s.ctx().threads()), ws_(s.ctx()),
        tab_("CPU radix sort phases, u32 n=" + fmt_int(n) + ", " + std::to_string(threads_) +
                 " threads (sorts include a fresh copy of the input: subtract the memcpy row)",
             {"phase", "variant", "ms", "GB/s of the keys moved", "note"}) {}

  void run() {
    const auto input = random_data<std::uint32_t>(n_, 77 + n_);
    std::vector<std::uint32_t> keys(input.size()), temp(input.size());
    const double bytes = 8.0 * double(n_);  // read + write of the keys once
    put("copy", "parallel memcpy", s_.time_host_ms([&] { parallel_copy(keys.data(), input.data(), n_, threads_, false); }), bytes, "");
    put("copy", "streaming stores", s_.time_host_ms([&] { parallel_copy(temp.data(), input.data(), n_, threads_, true); }), bytes, "");
    sorts<std::uint32_t, std::uint32_t>("u32", false);
    sorts<std::uint32_t, std::uint32_t>("u32/u32", true);
    sorts<std::uint64_t, std::uint32_t>("u64", false);
    split_widths(input);
    tab_.print();
  }

 private:
  void put(const std::string& phase, const std::string& variant, double ms, double bytes,
           const std::string& note) {
    row r;
    r.primitive = "cpu_sort_phase_" + phase;
    r.variant = variant;
    r.type = "u32";
    r.n = n_;
    r.ms = ms;
    r.gbps = bytes / (ms * 1e6);
    r.extra["threads"] = threads_;
    s_.add(r);
    tab_.add({phase, variant, fmt(ms, 3), fmt(r.gbps, 1), note});
  }

  // The production sort against the LSD passes alone, each from a fresh copy of the input.
  template <class K, class V>
  void sorts(const std::string& type, bool pairs) {
    const auto input = random_data<K>(n_, 91 + n_);
    std::vector<K> keys(input.size());
    std::vector<V> values(pairs ? input.size() : 0);
    V* v = pairs ? values.data() : nullptr;
    const double bytes = 2.0 * double(n_) * double(sizeof(K) + (pairs ? sizeof(V) : 0));
    for (bool production : {true, false}) {
      const double ms = s_.time_host_ms([&] {
        parallel_copy(keys.data(), input.data(), n_, threads_, false);
        const detail::sort_request r = request_of(keys.data(), v, n_);
        if (production) cpu_backend::radix_sort_lsd(s_.ctx(), r, &ws_);
        else cpu_backend::radix_sort_lsd_passes(s_.ctx(), r, &ws_);
      });
      const bool sorted = std::is_sorted(keys.begin(), keys.end());
      put("radix_sort " + type, production ? "production" : "LSD passes alone", ms, bytes,
          sorted ? "" : "NOT SORTED");
    }
  }

  // The split alone and the bucket sorts alone, on each top-digit width.
  void split_widths(const std::vector<std::uint32_t>& input) {
    namespace msd = cpu_backend::msd;
    std::vector<std::uint32_t> keys(input), temp(input.size());
    const detail::sort_request r = request_of<std::uint32_t, std::uint32_t>(keys.data(), nullptr, n_);
    const int in_use = msd::split_bits_for(n_, sizeof(std::uint32_t), 32);
    for (int bits = 8; bits <= 12; ++bits) {
      const int shift = 32 - bits;
      const std::int64_t cap = msd::bucket_capacity(n_, bits);
      std::vector<std::uint32_t> scratch(2 * std::size_t(cap) * std::size_t(threads_));
      const std::vector<digit_of<std::uint32_t>> passes = msd::local_passes<std::uint32_t>(r, shift);
      msd::split_result split;
      const double split_ms = s_.time_host_ms([&] {
        split = msd::split<std::uint32_t, std::uint32_t, false>(
            input.data(), nullptr, temp.data(), nullptr, n_, threads_, 1 << bits,
            msd::make_digit<std::uint32_t>(r, shift, bits));
      });
      std::vector<int> large;
      const double bucket_ms = s_.time_host_ms([&] {
        large = msd::sort_buckets<std::uint32_t, std::uint32_t, false>(
            temp.data(), nullptr, keys.data(), nullptr, split.bounds, passes, cap, scratch.data(),
            nullptr, threads_);
      });
      const std::string note = std::string(bits == in_use ? "in use; " : "") +
                               std::to_string(passes.size()) + " in-cache passes" +
                               (large.empty() ? "" : ", buckets left over") +
                               (std::is_sorted(keys.begin(), keys.end()) ? "" : ", NOT SORTED");
      put("split", std::to_string(bits) + " top bits", split_ms, 8.0 * double(n_), note);
      put("buckets", "after " + std::to_string(bits) + "-bit split", bucket_ms, 8.0 * double(n_), note);
    }
  }

  session& s_;
  std::int64_t n_;
  int threads_;
  workspace ws_;
  table tab_;
};

void run_cpu_sort_phases(session& s) {
  if (s.on_gpu()) {
    std::printf("bench cpu_sort_phases: CPU backend only; run with --backend cpu\n");
    return;
  }
  for (std::int64_t n : s.sizes_or({std::int64_t(1) << 24}, 4 * 8)) phases(s, n).run();
}

}  // namespace

PARPRIM_BENCH_SUITE("cpu_sort_phases",
                    "CPU radix sort: per-phase times (split, in-cache buckets) beside memcpy and the LSD passes",
                    96, run_cpu_sort_phases);

}  // namespace parprim::bench
