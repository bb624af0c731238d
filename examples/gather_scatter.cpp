// Gather and scatter: reverse an array by reading through indices, then put it back.
#include <parprim/parprim.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  const std::int32_t n = 100000;
  std::vector<float> values_host(n);
  std::vector<std::int32_t> reversed_host(n);
  for (std::int32_t i = 0; i < n; ++i) values_host[i] = float(i), reversed_host[i] = n - 1 - i;
  auto values = parprim::buffer<float>::from_host(ctx, values_host);
  auto indices = parprim::buffer<std::int32_t>::from_host(ctx, reversed_host);
  parprim::buffer<float> gathered(ctx, n), restored(ctx, n);

  parprim::gather<float, std::int32_t>(ctx, values, indices, gathered);    // gathered[i] = values[indices[i]]
  parprim::scatter<float, std::int32_t>(ctx, gathered, indices, restored); // restored[indices[i]] = gathered[i]

  std::vector<float> g = gathered.to_host(), r = restored.to_host();
  std::printf("%s: gathered[0] = %.0f, restored == values: %s\n", ctx.name().c_str(), g[0],
              r == values_host ? "yes" : "no");
  return g[0] == float(n - 1) && r == values_host ? 0 : 1;
}
