// The two best scores of every player, from one flat array of scores with per-player offsets;
// player 1 has a single score (so one slot stays as it was) and player 2 none.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<float> scores{7, 9, 3, 9, 4, 8, 1, 6, 2};
  std::vector<std::int64_t> players{0, 4, 5, 5, 9};  // [7 9 3 9] [4] [] [8 1 6 2]
  std::vector<int> game_ids{10, 11, 12, 13, 20, 40, 41, 42, 43};
  auto in = parprim::buffer<float>::from_host(ctx, scores);
  auto ids = parprim::buffer<int>::from_host(ctx, game_ids);
  auto offsets = parprim::buffer<std::int64_t>::from_host(ctx, players);
  const std::int64_t k = 2;
  auto best = parprim::buffer<float>::from_host(ctx, std::vector<float>(4 * k, -1));
  auto games = parprim::buffer<int>::from_host(ctx, std::vector<int>(4 * k, -1));
  parprim::segmented_top_k_pairs<float, int>(ctx, in, ids, offsets, k, best, games);
  auto b = best.to_host();
  auto g = games.to_host();
  for (int p = 0; p < 4; ++p)
    std::printf("player %d on %s: %g (game %d), %g (game %d)\n", p, ctx.name().c_str(), b[2 * p],
                g[2 * p], b[2 * p + 1], g[2 * p + 1]);
  // Ties keep input order: player 0's two 9s are games 11 then 13.
  const bool ok = b == std::vector<float>{9, 9, 4, -1, -1, -1, 8, 6} &&
                  g == std::vector<int>{11, 13, 20, -1, -1, -1, 40, 42};
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
