// Compaction, partition and split: keep the small values, move them to the front, bucket them.
#include <parprim/parprim.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<float> host(10000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = float(i % 100) / 100.0f;  // 0.00 .. 0.99
  auto in = parprim::buffer<float>::from_host(ctx, host);
  parprim::buffer<float> out(ctx, in.size());

  parprim::predicate<float> below_half{parprim::compare::less, 0.5f};
  std::int64_t kept = parprim::copy_if<float>(ctx, in, out, below_half);    // stable compaction
  std::int64_t front = parprim::partition<float>(ctx, in, out, below_half); // selected first

  // Ten buckets of width 0.1, with the first position of each bucket in `offsets`.
  parprim::buffer<std::int64_t> offsets(ctx, 11);
  parprim::split<float>(ctx, in, out, parprim::bucket_fn::even_range(0.0, 1.0, 10), offsets);
  std::vector<std::int64_t> starts = offsets.to_host();

  std::printf("%s: %lld kept, %lld in front, bucket 5 starts at %lld\n", ctx.name().c_str(),
              static_cast<long long>(kept), static_cast<long long>(front),
              static_cast<long long>(starts[5]));
  return kept == 5000 && front == 5000 && starts[5] == 5000 && starts[10] == 10000 ? 0 : 1;
}
