// Per-group leaderboards: the scores of every group sorted from highest to lowest, with the
// player ids moving along. Groups are stored back to back, given by offsets (group 1 is
// empty); equal scores keep their input order (the sort is stable). When the ids are not
// needed (say, for each group's lowest score), segmented_sort sorts the scores alone.
#include <parprim/parprim.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<float> scores{3.5f, 9.0f, 1.0f, 9.0f, 7.0f, 2.0f, 8.0f, 2.0f};
  std::vector<std::uint32_t> players{10, 11, 12, 13, 20, 21, 22, 23};
  std::vector<std::int64_t> group_offsets{0, 4, 4, 8};  // groups: [0, 4) [] [4, 8)
  auto keys = parprim::buffer<float>::from_host(ctx, scores);
  auto ids = parprim::buffer<std::uint32_t>::from_host(ctx, players);
  auto offsets = parprim::buffer<std::int64_t>::from_host(ctx, group_offsets);
  parprim::segmented_sort_pairs<float, std::uint32_t>(ctx, keys, ids, offsets,
                                                      parprim::sort_order::descending);
  auto k = keys.to_host();
  auto v = ids.to_host();
  std::printf("leaderboards on %s:", ctx.name().c_str());
  for (std::size_t i = 0; i < k.size(); ++i) std::printf(" %g(%u)", k[i], v[i]);
  std::printf("\n");
  const std::vector<float> want_scores{9.0f, 9.0f, 3.5f, 1.0f, 8.0f, 7.0f, 2.0f, 2.0f};
  const std::vector<std::uint32_t> want_players{11, 13, 10, 12, 22, 20, 21, 23};

  auto alone = parprim::buffer<float>::from_host(ctx, scores);
  parprim::segmented_sort<float>(ctx, alone, offsets);  // ascending by default
  auto a = alone.to_host();
  std::printf("lowest score of group 0: %g, of group 2: %g\n", a[0], a[4]);
  const std::vector<float> want_ascending{1.0f, 3.5f, 9.0f, 9.0f, 2.0f, 2.0f, 7.0f, 8.0f};
  const bool ok = k == want_scores && v == want_players && a == want_ascending;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
