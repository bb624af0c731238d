// Histogram: count samples into equal-width bins over [lower, upper).
#include <parprim/parprim.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<float> host(256 * 1000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = float(i % 256) + 0.5f;  // 1000 per bin
  auto samples = parprim::buffer<float>::from_host(ctx, host);
  parprim::buffer<std::uint64_t> bins(ctx, 256);

  parprim::histogram<float>(ctx, samples, bins, 256, 0.0f, 256.0f);
  std::vector<std::uint64_t> counts = bins.to_host();

  bool flat = true;
  for (auto c : counts) flat = flat && c == 1000;
  std::printf("%s: 256 bins of %llu samples each: %s\n", ctx.name().c_str(),
              static_cast<unsigned long long>(counts[0]), flat ? "yes" : "no");
  return flat ? 0 : 1;
}
