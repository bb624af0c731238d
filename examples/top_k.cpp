// A leaderboard without sorting everyone: of 100,000 players, the 10 highest scores with the
// players' ids (top_k_pairs), and the score it takes to be in the top 1% (top_k: the
// 1000th highest). Scores repeat, and ties go to the player listed first, as a stable sort
// would order them; the result is checked against exactly that on the host.
#include <parprim/parprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  const std::int64_t n = 100000, k = 10, one_percent = n / 100;
  std::mt19937 rng(7);
  std::vector<std::int32_t> score_host(n);
  std::vector<std::uint32_t> id_host(n);
  for (std::int64_t i = 0; i < n; ++i) {
    score_host[i] = static_cast<std::int32_t>(rng() % 50000);  // about two players per score
    id_host[i] = 900000 + static_cast<std::uint32_t>(i);
  }
  auto scores = parprim::buffer<std::int32_t>::from_host(ctx, score_host);
  auto ids = parprim::buffer<std::uint32_t>::from_host(ctx, id_host);

  parprim::buffer<std::int32_t> best(ctx, k);
  parprim::buffer<std::uint32_t> best_ids(ctx, k);
  parprim::top_k_pairs<std::int32_t, std::uint32_t>(ctx, scores, ids, k, best, best_ids);
  parprim::buffer<std::int32_t> top(ctx, one_percent);
  parprim::top_k<std::int32_t>(ctx, scores, one_percent, top);  // sorted, highest first
  auto s = best.to_host();
  auto p = best_ids.to_host();
  const std::int32_t cutoff = top.to_host().back();

  std::printf("top %lld of %lld on %s:\n", static_cast<long long>(k), static_cast<long long>(n),
              ctx.name().c_str());
  for (std::int64_t i = 0; i < k; ++i)
    std::printf("  %2lld. player %u: %d\n", static_cast<long long>(i + 1), p[i], s[i]);
  std::printf("top 1%% needs a score of %d\n", cutoff);

  std::vector<std::int64_t> order(n);
  for (std::int64_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::int64_t a, std::int64_t b) { return score_host[a] > score_host[b]; });
  bool ok = cutoff == score_host[order[one_percent - 1]];
  for (std::int64_t i = 0; i < k; ++i)
    ok = ok && s[i] == score_host[order[i]] && p[i] == id_host[order[i]];
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
