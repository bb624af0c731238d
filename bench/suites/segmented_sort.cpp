// `parprim bench segmented_sort`: segmented_sort (u32 keys) and segmented_sort_pairs (u32/u32)
// over uniform segments of 32 and 1024 keys, a skewed mix (one segment holding half the keys,
// the rest in segments of 1-64) and one segment holding everything; vs CUB
// DeviceSegmentedSort::StableSortKeys/Pairs on the GPU and std::stable_sort per segment on the
// CPU. Our sort is in place, so every timed run first restores the input with a device copy;
// the copy is timed on its own and subtracted.
//
// Every row's output, as the last timed run left it, is copied to the host after the timed
// calls and compared bit for bit (keys, and for pairs the values, which carry each key's input
// position, so stability is checked too): on the GPU with CUB's output ("matches_cub"), on the
// CPU with the sequential yardstick's, std::stable_sort of every segment ("matches_sequential").
// There is no output to poison first: each timed run overwrites the buffer with the unsorted
// input before our sort, so a sort that writes nothing leaves random keys unsorted and fails.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_segmented_sort.hpp"
#endif

namespace parprim::bench {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

struct shape {
  std::string name;
  std::vector<std::int64_t> offsets;
};

// Uniform segments of `length` keys; length 0: the skewed mix; length n: one segment.
shape make_shape(std::int64_t n, std::int64_t length, std::uint64_t seed) {
  shape sh{length == 0 ? "skewed" : length >= n ? "one_segment" : "len_" + std::to_string(length), {0}};
  if (length == 0) sh.offsets.push_back(n / 2);
  for (std::uint64_t i = 0; sh.offsets.back() < n; ++i) {
    const std::int64_t len = length == 0 ? 1 + std::int64_t(splitmix64(seed + i) % 64) : length;
    sh.offsets.push_back(std::min(n, sh.offsets.back() + len));
  }
  return sh;
}

// std::stable_sort of every segment of a copy of the keys (and positions): the CPU yardstick,
// whose output is also the CPU rows' oracle.
void sequential_segmented_sort(std::vector<std::pair<std::uint32_t, std::uint32_t>>& kv,
                               const std::vector<std::int64_t>& offsets) {
  auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    std::stable_sort(kv.begin() + offsets[s], kv.begin() + offsets[s + 1], by_key);
}

struct measured {
  double ms = 0;
  double yard_ms = nan;
  verdict check;
};

measured measure(session& s, const std::vector<std::uint32_t>& keys, const shape& sh, bool pairs) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(keys.size());
  const std::int64_t segments = std::int64_t(sh.offsets.size()) - 1;
  std::vector<std::uint32_t> positions(keys.size());
  for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = std::uint32_t(i);
  auto input = buffer<std::uint32_t>::from_host(ctx, keys);
  auto values_in = buffer<std::uint32_t>::from_host(ctx, pairs ? positions : std::vector<std::uint32_t>{});
  auto off = buffer<std::int64_t>::from_host(ctx, sh.offsets);
  buffer<std::uint32_t> work(ctx, n), values(ctx, pairs ? n : 0);
  workspace ws(ctx);
  auto restore = [&] {
    ctx.copy(work.data(), input.data(), input.bytes());
    if (pairs) ctx.copy(values.data(), values_in.data(), values_in.bytes());
  };
  auto sort = [&] {
    if (pairs) segmented_sort_pairs<std::uint32_t, std::uint32_t>(ctx, work, values, off, sort_order::ascending, &ws);
    else segmented_sort<std::uint32_t>(ctx, work, off, sort_order::ascending, &ws);
  };
  measured m;
  const double copy_ms = s.time_ms(restore);
  m.ms = std::max(s.time_ms([&] { restore(); sort(); }) - copy_ms, 1e-6);
  // What the last timed run left (ours_values empty for keys alone).
  const std::vector<std::uint32_t> ours = work.to_host(), ours_values = values.to_host();
  if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
    buffer<std::uint32_t> out(ctx, n), values_out(ctx, pairs ? n : 0);
    if (pairs)
      m.yard_ms = yardstick::cub_segmented_sort_pairs_ms(s, input.data(), out.data(), values_in.data(),
                                                         values_out.data(), n, off.data(), segments);
    else
      m.yard_ms = yardstick::cub_segmented_sort_keys_ms(s, input.data(), out.data(), n, off.data(), segments);
    m.check = exact(same_bits(ours, out.to_host()) && same_bits(ours_values, values_out.to_host()));
#endif
  } else {
    std::vector<std::pair<std::uint32_t, std::uint32_t>> src(keys.size()), dst;
    for (std::size_t i = 0; i < keys.size(); ++i) src[i] = {keys[i], positions[i]};
    const double cp = s.time_host_ms([&] { dst = src; }, 3);
    m.yard_ms = std::max(s.time_host_ms([&] { dst = src; sequential_segmented_sort(dst, sh.offsets); }, 3) - cp, 1e-6);
    bool same = ours.size() == dst.size();
    for (std::size_t i = 0; same && i < dst.size(); ++i)
      same = ours[i] == dst[i].first && (!pairs || ours_values[i] == dst[i].second);
    m.check = exact(same);
  }
  return m;
}

void run_segmented_sort(session& s) {
  const context& ctx = s.ctx();
  std::vector<std::int64_t> defaults = {std::int64_t(1) << 26};
  if (!s.on_gpu()) defaults = {std::int64_t(1) << 22};
  table t("segmented_sort, u32 keys (pairs: u32 values), ascending, on " + ctx.name(),
          {"primitive", "segments", "n", "ms", "GB/s", s.on_gpu() ? "CUB ms" : "sequential ms", "vs yardstick",
           s.on_gpu() ? "same as CUB" : "same as sequential"});
  // input, work, CUB's output; keys and values; plus offsets (at most one per key).
  for (std::int64_t n : s.sizes_or(defaults, 3 * 8 + 8)) {
    const auto keys = random_data<std::uint32_t>(n, 21 + n);
    for (std::int64_t length : {std::int64_t(32), std::int64_t(0), std::int64_t(1024), n}) {
      const shape sh = make_shape(n, length, 23);
      for (bool pairs : {false, true}) {
        const measured m = measure(s, keys, sh, pairs);
        row r;
        r.primitive = pairs ? "segmented_sort_pairs" : "segmented_sort";
        r.variant = sh.name;
        r.type = pairs ? "u32/u32" : "u32";
        r.n = n;
        r.ms = m.ms;
        const double bytes = 2.0 * (pairs ? 8.0 : 4.0) * double(n) + 8.0 * double(sh.offsets.size());
        r.gbps = bytes / (m.ms * 1e6);
        if (!std::isnan(m.yard_ms)) {
          r.yardstick = s.on_gpu() ? "cub" : "sequential";
          r.yardstick_ms = m.yard_ms;
        }
        record_check(r, s.on_gpu(), m.check);
        r.extra["segments"] = double(sh.offsets.size() - 1);
        r.extra["copy_gbps"] = s.copy_gbps();
        s.add(r);
        t.add({r.primitive, sh.name, fmt_int(n), fmt(m.ms, 4), fmt(r.gbps, 0), fmt(m.yard_ms, 4),
               fmt(m.yard_ms / m.ms, 2), check_cell(m.check.matches)});
      }
    }
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("segmented_sort",
                    "segmented_sort / _pairs (u32; segments of 32, 1024, skewed, one) vs CUB DeviceSegmentedSort",
                    49, run_segmented_sort);

}  // namespace parprim::bench
