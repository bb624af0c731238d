// Compress a signal with long flat stretches: run_length_encode gives each stretch's value
// and length, unique_count how many stretches there are.
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
  bool ok = stretches == 3 && k == 3 && v[1] == 5u && l[0] == 1000 && l[1] == 2100 && l[2] == 1020;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
