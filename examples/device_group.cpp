// Device groups: one call sorts, reduces and scans data spread over several ranks. Here four
// CPU ranks in one process (runs anywhere); device_group::cuda({0, 1, 2, 3}) joins four GPUs.
#include <parprim/parprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

int main() {
  const std::int64_t n = 1 << 20;
  std::mt19937 rng(7);
  std::vector<std::uint32_t> host_keys(n);
  for (auto& k : host_keys) k = rng() % 1000;

  auto g = parprim::device_group::cpu(4);                              // or device_group::cuda({0, 1, 2, 3})
  auto keys = parprim::dist_buffer<std::uint32_t>::from_host(g, host_keys,
                                                             parprim::even_counts(n, g.size()));
  parprim::dist::radix_sort<std::uint32_t>(g, keys);   // rank r keeps its count, globally ordered
  auto total = parprim::dist::reduce<std::uint32_t>(g, keys);
  parprim::dist::exclusive_scan<std::uint32_t>(g, keys, keys);

  std::vector<std::uint32_t> expected = host_keys;
  std::sort(expected.begin(), expected.end());
  const auto expected_total = std::accumulate(expected.begin(), expected.end(), std::uint32_t(0));
  std::exclusive_scan(expected.begin(), expected.end(), expected.begin(), std::uint32_t(0));
  const bool ok = keys.to_host() == expected && total == expected_total;
  std::printf("%s: %lld keys on %d ranks, sum %u: %s\n", g.name().c_str(), (long long)n, g.size(),
              total, ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
