// `parprim bench argsort`: the stable sorting permutation of uniform u32 keys into i64
// indices (what torch.sort's indices and NumPy's argsort(kind="stable") give), against
//   GPU: CUB DeviceRadixSort::SortPairs of the keys with the indices 0, 1, ..., n - 1 as u64
//        values, the indices made beforehand and not timed (CUB has no argsort: a caller makes
//        them first, so CUB's figure leaves out one write of n indices);
//   CPU: std::stable_sort of (key, index) pairs, the pairs made beforehand and not timed.
// Our argsort reads the keys where they are and leaves them untouched; it makes the indices
// in the sort's first pass. Our indices are compared bit for bit with CUB's sorted values
// (GPU) or the stable sort's indices (CPU), after the timed runs.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_sort.hpp"
#endif

namespace parprim::bench {
namespace {

struct figures {
  double ms = 0, yard_ms = 0;
  bool matches = false;
};

figures measure(session& s, std::int64_t n) {
  const context& ctx = s.ctx();
  const std::vector<std::uint32_t> keys = random_data<std::uint32_t>(n, 5 + std::uint64_t(n));
  auto input = buffer<std::uint32_t>::from_host(ctx, keys);
  buffer<std::int64_t> indices(ctx, n);
  workspace ws(ctx);
  figures f;
  f.ms = s.time_ms([&] {
    argsort<std::uint32_t, std::int64_t>(ctx, span<const std::uint32_t>(input.data(), n),
                                         indices.view(), sort_order::ascending, 0, -1, &ws);
  });
  const std::vector<std::int64_t> ours = indices.to_host();
  std::vector<std::uint64_t> iota(keys.size());
  std::iota(iota.begin(), iota.end(), std::uint64_t(0));
  if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
    auto values_in = buffer<std::uint64_t>::from_host(ctx, iota);
    buffer<std::uint32_t> keys_out(ctx, n);
    buffer<std::uint64_t> values_out(ctx, n);
    f.yard_ms = yardstick::cub_sort_pairs_ms<std::uint64_t>(s, input.data(), keys_out.data(),
                                                            values_in.data(), values_out.data(), n);
    const std::vector<std::uint64_t> theirs = values_out.to_host();
    f.matches = std::equal(ours.begin(), ours.end(), theirs.begin(),
                           [](std::int64_t a, std::uint64_t b) { return std::uint64_t(a) == b; });
#endif
  } else {
    std::vector<std::pair<std::uint32_t, std::uint64_t>> pairs(keys.size()), work;
    for (std::size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], iota[i]};
    auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
    const double copy_ms = s.time_host_ms([&] { work = pairs; });
    f.yard_ms = s.time_host_ms([&] {
      work = pairs;
      std::stable_sort(work.begin(), work.end(), by_key);
    }) - copy_ms;
    f.matches =
        std::equal(ours.begin(), ours.end(), work.begin(),
                   [](std::int64_t a, const auto& p) { return std::uint64_t(a) == p.second; });
  }
  return f;
}

void run_argsort(session& s) {
  const bool gpu = s.on_gpu();
  const std::vector<std::int64_t> defaults =
      gpu ? std::vector<std::int64_t>{1 << 20, 1 << 24, 1 << 27}
          : std::vector<std::int64_t>{1 << 16, 1 << 20};
  const std::string yard = gpu ? "CUB SortPairs" : "std::stable_sort";
  table t("argsort, u32 keys -> i64 indices, vs " + yard +
              " of the keys with the indices made beforehand, on " + s.ctx().name(),
          {"n", "ms", "Gkeys/s", yard + " ms", "vs " + yard, "same indices"});
  // keys in, indices and their copies out: about 6 arrays of 12 bytes
  for (std::int64_t n : s.sizes_or(defaults, 12)) {
    if (!s.fits(n, 12, 6)) continue;
    const figures f = measure(s, n);
    row r;
    r.primitive = "argsort";
    r.variant = "onesweep";
    r.type = "u32/i64";
    r.n = n;
    r.ms = f.ms;
    r.gbps = double(n) * (4 + 8) / (f.ms * 1e6);  // keys read once, indices written once
    r.yardstick = gpu ? "cub_sort_pairs" : "std::stable_sort";
    r.yardstick_ms = f.yard_ms;
    r.extra["gkeys_per_s"] = double(n) / (f.ms * 1e6);
    r.extra[check_figure(gpu)] = f.matches ? 1.0 : 0.0;
    s.add(std::move(r));
    t.add({fmt_int(n), fmt(f.ms, 4), fmt(double(n) / (f.ms * 1e6), 2), fmt(f.yard_ms, 4),
           fmt(f.yard_ms / f.ms, 2), f.matches ? "yes" : "NO"});
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("argsort",
                    "argsort (u32 keys, i64 indices) vs CUB SortPairs / std::stable_sort", 41,
                    run_argsort);

}  // namespace parprim::bench
