// `parprim bench extremum`: argmin and argmax of f32 and f64 values against
//   GPU: CUB DeviceReduce::ArgMin / ArgMax (value and int64 index), on the same buffer;
//   CPU: std::min_element / std::max_element on one core.
// Uniform values in [0, 1), no NaN (CUB's rule skips NaNs, ours and NumPy's picks the first),
// so the two must agree on the index and the value; each row records that check. Timed on
// the _into form (nothing waits for the device), each output poisoned before the runs.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "checks.hpp"
#include "data.hpp"
#include "engine.hpp"
#include "parprim/parprim.hpp"
#if PARPRIM_HAVE_CUDA
#include "yardsticks/cub_reduce_scan.hpp"
#endif

namespace parprim::bench {
namespace {

struct figures {
  double ms = 0, yard_ms = 0;
  bool matches = false;
};

template <class T>
figures measure(session& s, const std::vector<T>& host, bool largest) {
  const context& ctx = s.ctx();
  const std::int64_t n = std::int64_t(host.size());
  auto input = buffer<T>::from_host(ctx, host);
  const span<const T> in(input.data(), n);
  buffer<T> value(ctx, 1);
  buffer<std::int64_t> index(ctx, 1);
  ctx.fill_bytes(index.data(), 0xFF, sizeof(std::int64_t));
  workspace ws(ctx);
  figures f;
  f.ms = s.time_ms([&] {
    if (largest)
      argmax_into<T>(ctx, in, value.view(), index.view(), &ws);
    else
      argmin_into<T>(ctx, in, value.view(), index.view(), &ws);
  });
  const std::int64_t ours = index.to_host()[0];
  const T our_value = value.to_host()[0];
  std::int64_t theirs = -1;
  T their_value{};
  if (s.on_gpu()) {
#if PARPRIM_HAVE_CUDA
    buffer<T> cub_value(ctx, 1);
    buffer<std::int64_t> cub_index(ctx, 1);
    f.yard_ms = yardstick::cub_arg_extremum_ms<T>(s, input.data(), cub_value.data(),
                                                  cub_index.data(), n, largest);
    theirs = cub_index.to_host()[0];
    their_value = cub_value.to_host()[0];
#endif
  } else {
    const T* p = host.data();
    const T* it = nullptr;
    f.yard_ms = s.time_host_ms(
        [&] { it = largest ? std::max_element(p, p + n) : std::min_element(p, p + n); });
    theirs = it - p;
    their_value = *it;
  }
  f.matches = ours == theirs && std::memcmp(&our_value, &their_value, sizeof(T)) == 0;
  return f;
}

template <class T>
void run_type(session& s, table& t, std::int64_t n) {
  const std::vector<T> host = random_data<T>(n, 17 + std::uint64_t(n));
  const std::string yard = s.on_gpu() ? "cub" : "std::min_element/max_element";
  for (bool largest : {false, true}) {
    const figures f = measure(s, host, largest);
    row r;
    r.primitive = largest ? "argmax" : "argmin";
    r.variant = "two_pass";
    r.type = type_name<T>();
    r.n = n;
    r.ms = f.ms;
    r.gbps = double(n) * sizeof(T) / (f.ms * 1e6);  // one read
    r.yardstick = yard;
    r.yardstick_ms = f.yard_ms;
    r.extra[check_figure(s.on_gpu())] = f.matches ? 1.0 : 0.0;
    s.add(std::move(r));
    t.add({largest ? "argmax" : "argmin", type_name<T>(), fmt_int(n), fmt(f.ms, 4),
           fmt(double(n) * sizeof(T) / (f.ms * 1e6), 0), fmt(f.yard_ms, 4),
           fmt(f.yard_ms / f.ms, 2), f.matches ? "yes" : "NO"});
  }
}

void run_extremum(session& s) {
  const bool gpu = s.on_gpu();
  const std::vector<std::int64_t> defaults =
      gpu ? std::vector<std::int64_t>{1 << 20, 1 << 24, 1 << 28}
          : std::vector<std::int64_t>{1 << 16, 1 << 22};
  const std::string yard = gpu ? "CUB" : "std::min/max_element";
  table t("argmin / argmax vs " + yard + " on " + s.ctx().name(),
          {"primitive", "type", "n", "ms", "GB/s", yard + " ms", "vs " + yard, "same as " + yard});
  for (std::int64_t n : s.sizes_or(defaults, 8)) {
    if (!s.fits(n, 8, 2)) continue;
    run_type<float>(s, t, n);
    run_type<double>(s, t, n);
  }
  t.print();
}

}  // namespace

PARPRIM_BENCH_SUITE("extremum",
                    "argmin / argmax (f32, f64) vs CUB ArgMin/ArgMax / std::min_element", 12,
                    run_extremum);

}  // namespace parprim::bench
