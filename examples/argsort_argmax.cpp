// Ranking sensor readings without moving them: argsort gives the order of 200,000 readings
// (coldest first, equal readings in the order they were taken), and argmax the first hottest
// reading and where it is. The readings stay where they are, so the order can be applied to
// other columns later (here the sensor ids, with gather). Checked on the host against
// std::stable_sort and std::max_element.
#include <parprim/parprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  const std::int64_t n = 200000;
  std::mt19937 rng(11);
  std::vector<float> reading_host(n);
  std::vector<std::uint32_t> sensor_host(n);
  for (std::int64_t i = 0; i < n; ++i) {
    reading_host[i] = static_cast<float>(rng() % 4000) / 100.0f - 10.0f;  // -10.00 .. 29.99
    sensor_host[i] = static_cast<std::uint32_t>(rng() % 500);
  }
  auto readings = parprim::buffer<float>::from_host(ctx, reading_host);
  auto sensors = parprim::buffer<std::uint32_t>::from_host(ctx, sensor_host);

  parprim::buffer<std::int64_t> order(ctx, n);
  parprim::argsort<float, std::int64_t>(ctx, readings, order);
  parprim::buffer<std::uint32_t> sensors_by_reading(ctx, n);
  parprim::gather<std::uint32_t, std::int64_t>(ctx, sensors, order, sensors_by_reading);
  const parprim::extremum<float> hottest = parprim::argmax<float>(ctx, readings);

  const auto o = order.to_host();
  const auto by_reading = sensors_by_reading.to_host();
  std::printf("%lld readings on %s\n", static_cast<long long>(n), ctx.name().c_str());
  std::printf("coldest: %.2f (reading %lld, sensor %u)\n", reading_host[o[0]],
              static_cast<long long>(o[0]), by_reading[0]);
  std::printf("hottest: %.2f (reading %lld, the first of its value)\n", hottest.value,
              static_cast<long long>(hottest.index));

  std::vector<std::int64_t> want(n);
  std::iota(want.begin(), want.end(), std::int64_t(0));
  std::stable_sort(want.begin(), want.end(),
                   [&](std::int64_t a, std::int64_t b) { return reading_host[a] < reading_host[b]; });
  bool ok = o == want;
  for (std::int64_t i = 0; i < n && ok; ++i) ok = by_reading[i] == sensor_host[want[i]];
  const auto first_max = std::max_element(reading_host.begin(), reading_host.end());
  ok = ok && hottest.index == first_max - reading_host.begin() && hottest.value == *first_max;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
