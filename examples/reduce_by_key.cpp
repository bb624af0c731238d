// Sum sales per store from records sorted by store: reduce_by_key folds each run of equal
// keys; inclusive_scan_by_key gives the running total within each store, and
// exclusive_scan_by_key what the store had taken before each sale.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<std::int32_t> store{7, 7, 7, 3, 3, 9, 7, 7};
  std::vector<float> sale{1.5f, 2.0f, 0.5f, 4.0f, 1.0f, 2.5f, 3.0f, 1.0f};
  auto keys = parprim::buffer<std::int32_t>::from_host(ctx, store);
  auto values = parprim::buffer<float>::from_host(ctx, sale);
  parprim::buffer<std::int32_t> stores(ctx, keys.size());
  parprim::buffer<float> totals(ctx, keys.size());

  std::int64_t runs = parprim::reduce_by_key<std::int32_t, float>(ctx, keys, values, stores, totals);
  auto s = stores.to_host();
  auto t = totals.to_host();
  std::printf("%lld runs on %s\n", static_cast<long long>(runs), ctx.name().c_str());
  for (std::int64_t r = 0; r < runs; ++r) std::printf("  store %d: %.1f\n", s[r], t[r]);

  parprim::buffer<float> running(ctx, keys.size());
  parprim::inclusive_scan_by_key<std::int32_t, float>(ctx, keys, values, running);
  auto run = running.to_host();
  parprim::buffer<float> before(ctx, keys.size());
  parprim::exclusive_scan_by_key<std::int32_t, float>(ctx, keys, values, before);  // init 0
  auto b = before.to_host();
  std::printf("  taken before each sale:");
  for (float x : b) std::printf(" %.1f", x);
  std::printf("\n");
  // Store 7 appears twice (not adjacent): two runs, 4.0 and 4.0; running totals restart, so
  // the first sale of every run has taken 0 before it.
  bool ok = runs == 4 && t[0] == 4.0f && t[1] == 5.0f && t[2] == 2.5f && t[3] == 4.0f &&
            run[2] == 4.0f && run[4] == 5.0f && run[7] == 4.0f &&
            b == std::vector<float>{0.0f, 1.5f, 3.5f, 0.0f, 4.0f, 0.0f, 0.0f, 3.0f};
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
