// Exact splitters of the distributed sort (see core/dist_splitters.hpp): a (1 + fanout)-ary
// search, the same on every rank, for the key of each target global rank.
#include "core/dist_splitters.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "core/dist_support.hpp"
#include "parprim/types.hpp"

namespace parprim::detail {

namespace {

// Candidates per boundary per round: 255 split an interval 256 ways, 8 bits per round, so 4
// rounds (each a host round trip and an allgather, tens of microseconds) for 32-bit keys
// instead of 8 with 15; the extra binary searches (255 per boundary, log2 n steps each)
// are one small kernel either way.
constexpr int splitter_fanout = 255;

struct boundary_search {
  std::int64_t target = 0;  // global rank b
  std::uint64_t lo = 0, hi = 0;  // the answer lies in [lo, hi]
  std::vector<std::uint64_t> candidates;
};

std::vector<std::uint64_t> candidates_in(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> c;
  const std::uint64_t span = hi - lo;
  if (span <= static_cast<std::uint64_t>(splitter_fanout)) {
    for (std::uint64_t v = lo; v < hi; ++v) c.push_back(v);
  } else {
    const std::uint64_t step = span / (splitter_fanout + 1);
    for (int j = 1; j <= splitter_fanout; ++j) c.push_back(lo + step * static_cast<std::uint64_t>(j));
  }
  return c;
}

}  // namespace

template <class K>
std::vector<std::int64_t> exact_splits(const device_group& g, int r, span<const K> sorted,
                                       const std::vector<std::int64_t>& counts,
                                       const std::vector<std::int64_t>& targets,
                                       key_order order) {
  const int P = g.size();
  communicator& comm = g.comm(r);
  const std::int64_t total = std::accumulate(counts.begin(), counts.end(), std::int64_t(0));
  const std::uint64_t top =
      order.width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << order.width) - 1;
  auto is_open = [&](std::int64_t t) { return t > 0 && t < total; };

  std::vector<boundary_search> open;
  for (std::int64_t t : targets)
    if (is_open(t)) open.push_back({t, 0, top, {}});
  auto sum_over_ranks = [&](const std::vector<std::uint64_t>& queries) {
    const auto all = allgather_vector(comm, local::count_at_most<K>(g.ctx(r), sorted, order, queries));
    std::vector<std::int64_t> per_rank_sum(queries.size(), 0);
    for (int s = 0; s < P; ++s)
      for (std::size_t j = 0; j < queries.size(); ++j)
        per_rank_sum[j] += all[static_cast<std::size_t>(s) * queries.size() + j];
    return std::make_pair(per_rank_sum, all);
  };

  for (;;) {
    std::vector<std::uint64_t> queries;
    for (auto& b : open) {
      b.candidates = b.lo < b.hi ? candidates_in(b.lo, b.hi) : std::vector<std::uint64_t>{};
      queries.insert(queries.end(), b.candidates.begin(), b.candidates.end());
    }
    if (queries.empty()) break;
    const auto totals = sum_over_ranks(queries).first;
    std::size_t q = 0;
    for (auto& b : open)
      for (std::uint64_t v : b.candidates) {
        if (totals[q++] >= b.target) b.hi = std::min(b.hi, v);
        else b.lo = std::max(b.lo, v + 1);
      }
  }

  // Per open target: every rank's count at or below v and below v (= at or below v - 1).
  std::vector<std::uint64_t> queries;
  for (const auto& b : open) {
    queries.push_back(b.lo);
    queries.push_back(b.lo > 0 ? b.lo - 1 : 0);
  }
  const auto all = queries.empty() ? std::vector<std::int64_t>{} : sum_over_ranks(queries).second;
  std::vector<std::int64_t> c(targets.size() * static_cast<std::size_t>(P), 0);
  std::size_t next_open = 0;
  for (std::size_t t = 0; t < targets.size(); ++t) {
    std::int64_t* out = c.data() + t * static_cast<std::size_t>(P);
    if (!is_open(targets[t])) {
      for (int s = 0; s < P; ++s) out[s] = targets[t] <= 0 ? 0 : counts[s];
      continue;
    }
    const auto& b = open[next_open];
    std::int64_t need = b.target;
    std::vector<std::int64_t> le(P), lt(P);
    for (int s = 0; s < P; ++s) {
      const std::size_t base = static_cast<std::size_t>(s) * queries.size() + 2 * next_open;
      le[s] = all[base];
      lt[s] = b.lo > 0 ? all[base + 1] : 0;
      need -= lt[s];
    }
    for (int s = 0; s < P; ++s) {
      const std::int64_t take = std::clamp<std::int64_t>(need, 0, le[s] - lt[s]);
      out[s] = lt[s] + take;
      need -= take;
    }
    ++next_open;
  }
  return c;
}

#define PARPRIM_INSTANTIATE(K)                                                                    \
  template std::vector<std::int64_t> exact_splits<K>(const device_group&, int, span<const K>,     \
                                                     const std::vector<std::int64_t>&,            \
                                                     const std::vector<std::int64_t>&, key_order);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::detail
