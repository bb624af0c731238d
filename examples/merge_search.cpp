// Merge two sorted event streams (stable: on equal times stream a comes first), then find
// for a few query times how many events happened before them (lower_bound) and at or before
// them (upper_bound): the two differ by the events at exactly that time. merge takes the
// times alone; merge_by_key carries each event's id along.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  auto a = parprim::buffer<float>::from_host(ctx, {0.5f, 1.0f, 2.0f, 4.0f});
  auto b = parprim::buffer<float>::from_host(ctx, {1.0f, 1.5f, 3.0f});
  auto ids_a = parprim::buffer<std::int32_t>::from_host(ctx, {0, 1, 2, 3});
  auto ids_b = parprim::buffer<std::int32_t>::from_host(ctx, {100, 101, 102});
  parprim::buffer<float> times(ctx, 7), times_by_key(ctx, 7);
  parprim::buffer<std::int32_t> ids(ctx, 7);
  parprim::merge<float>(ctx, a, b, times);
  parprim::merge_by_key<float, std::int32_t>(ctx, a, ids_a, b, ids_b, times_by_key, ids);

  const std::vector<float> query_times{1.0f, 2.5f, 9.0f};
  auto queries = parprim::buffer<float>::from_host(ctx, query_times);
  parprim::buffer<std::int64_t> before(ctx, 3), up_to(ctx, 3);
  parprim::lower_bound<float>(ctx, times, queries, before);
  parprim::upper_bound<float>(ctx, times, queries, up_to);
  auto t = times.to_host();
  auto id = ids.to_host();
  auto q = before.to_host();
  auto u = up_to.to_host();
  std::printf("merged on %s:", ctx.name().c_str());
  for (int i = 0; i < 7; ++i) std::printf(" %g(%d)", t[i], id[i]);
  std::printf("\n");
  for (int i = 0; i < 3; ++i)
    std::printf("events before %g: %lld, at or before: %lld\n", query_times[i],
                static_cast<long long>(q[i]), static_cast<long long>(u[i]));
  bool ok = t == std::vector<float>{0.5f, 1.0f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f} &&
            times_by_key.to_host() == t && id[1] == 1 && id[2] == 100 &&
            q == std::vector<std::int64_t>{1, 5, 7} && u == std::vector<std::int64_t>{3, 5, 7};
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
