// Sorting: radix sort of keys, of key-value pairs, and a counting sort of small keys.
#include <parprim/parprim.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::mt19937 rng(42);
  std::vector<float> keys_host(100000);
  std::vector<std::uint32_t> small_host(100000);
  for (auto& k : keys_host) k = std::uniform_real_distribution<float>(-1, 1)(rng);
  for (auto& k : small_host) k = rng() % 256;

  auto keys = parprim::buffer<float>::from_host(ctx, keys_host);
  parprim::radix_sort<float>(ctx, keys, parprim::sort_order::descending);  // in place

  // Sort the keys and carry each one's original position along.
  auto pair_keys = parprim::buffer<float>::from_host(ctx, keys_host);
  std::vector<std::uint32_t> position_host(keys_host.size());
  for (std::uint32_t i = 0; i < position_host.size(); ++i) position_host[i] = i;
  auto positions = parprim::buffer<std::uint32_t>::from_host(ctx, position_host);
  parprim::radix_sort_pairs<float, std::uint32_t>(ctx, pair_keys, positions);

  auto small = parprim::buffer<std::uint32_t>::from_host(ctx, small_host);
  parprim::buffer<std::uint32_t> small_sorted(ctx, small.size());
  parprim::counting_sort<std::uint32_t>(ctx, small, small_sorted, 256);  // keys below 256

  std::vector<float> descending = keys.to_host(), ascending = pair_keys.to_host();
  std::vector<std::uint32_t> where = positions.to_host(), counted = small_sorted.to_host();
  bool ok = std::is_sorted(descending.rbegin(), descending.rend()) &&
            std::is_sorted(ascending.begin(), ascending.end()) &&
            keys_host[where[0]] == ascending[0] && std::is_sorted(counted.begin(), counted.end());
  std::printf("%s: largest %.6f, smallest %.6f (was at %u): %s\n", ctx.name().c_str(),
              descending[0], ascending[0], where[0], ok ? "sorted" : "NOT sorted");
  return ok ? 0 : 1;
}
