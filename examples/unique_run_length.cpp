// Compress a signal with long flat stretches: run_length_encode gives each stretch's value
// and length, unique_count how many stretches there are, and unique_by_key, fed each
// sample's index as its value, where each stretch starts.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<std::uint32_t> signal;
  for (std::uint32_t level : {0u, 5u, 5u, 2u}) signal.insert(signal.end(), 1000 + level * 10, level);
  auto in = parprim::buffer<std::uint32_t>::from_host(ctx, signal);

  std::int64_t stretches = parprim::unique_count<std::uint32_t>(ctx, in);
  parprim::buffer<std::uint32_t> values(ctx, stretches);
  parprim::buffer<std::int64_t> lengths(ctx, stretches);
  parprim::run_length_encode<std::uint32_t>(ctx, in, values, lengths);
  auto v = values.to_host();
  auto l = lengths.to_host();
  std::printf("%zu samples -> %lld stretches on %s\n", signal.size(),
              static_cast<long long>(stretches), ctx.name().c_str());
  for (std::int64_t i = 0; i < stretches; ++i)
    std::printf("  value %u x %lld\n", v[i], static_cast<long long>(l[i]));

  parprim::buffer<std::uint32_t> distinct(ctx, in.size());
  std::int64_t k = parprim::unique<std::uint32_t>(ctx, in, distinct);

  std::vector<std::int64_t> index(signal.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::int64_t>(i);
  auto sample = parprim::buffer<std::int64_t>::from_host(ctx, index);
  parprim::buffer<std::uint32_t> levels(ctx, stretches);
  parprim::buffer<std::int64_t> starts(ctx, stretches);
  std::int64_t r = parprim::unique_by_key<std::uint32_t, std::int64_t>(ctx, in, sample, levels,
                                                                      starts);
  auto s = starts.to_host();
  std::printf("  stretches start at samples");
  for (std::int64_t start : s) std::printf(" %lld", static_cast<long long>(start));
  std::printf("\n");
  bool ok = stretches == 3 && k == 3 && v[1] == 5u && l[0] == 1000 && l[1] == 2100 &&
            l[2] == 1020 && r == 3 && levels.to_host() == v &&
            s == std::vector<std::int64_t>{0, 1000, 3100};
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
