// Merge two sorted event streams (stable: on equal times stream a comes first), then find
// for a few query times how many events happened before them (lower_bound).
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  auto a = parprim::buffer<float>::from_host(ctx, {0.5f, 1.0f, 2.0f, 4.0f});
  auto b = parprim::buffer<float>::from_host(ctx, {1.0f, 1.5f, 3.0f});
  auto ids_a = parprim::buffer<std::int32_t>::from_host(ctx, {0, 1, 2, 3});
  auto ids_b = parprim::buffer<std::int32_t>::from_host(ctx, {100, 101, 102});
  parprim::buffer<float> times(ctx, 7);
  parprim::buffer<std::int32_t> ids(ctx, 7);
  parprim::merge_by_key<float, std::int32_t>(ctx, a, ids_a, b, ids_b, times, ids);

  auto queries = parprim::buffer<float>::from_host(ctx, {1.0f, 2.5f, 9.0f});
  parprim::buffer<std::int64_t> before(ctx, 3);
  parprim::lower_bound<float>(ctx, times, queries, before);
  auto t = times.to_host();
  auto id = ids.to_host();
  auto q = before.to_host();
  std::printf("merged on %s:", ctx.name().c_str());
  for (int i = 0; i < 7; ++i) std::printf(" %g(%d)", t[i], id[i]);
  std::printf("\nevents before 1.0, 2.5, 9.0: %lld %lld %lld\n", static_cast<long long>(q[0]),
              static_cast<long long>(q[1]), static_cast<long long>(q[2]));
  bool ok = id[1] == 1 && id[2] == 100 && t[6] == 4.0f && q[0] == 1 && q[1] == 5 && q[2] == 7;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
