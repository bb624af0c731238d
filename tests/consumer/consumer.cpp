// A program that uses parprim as a package: scans and reduces on the best backend and checks
// the answers against plain loops. Built by find_package/ and subdirectory/ (see CMakeLists.txt).
#include <parprim/parprim.hpp>
#include <parprim/version.hpp>

#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<std::int64_t> host(100000);
  std::iota(host.begin(), host.end(), std::int64_t(1));
  auto in = parprim::buffer<std::int64_t>::from_host(ctx, host);
  parprim::buffer<std::int64_t> out(ctx, in.size());
  parprim::inclusive_scan<std::int64_t>(ctx, in, out);
  std::int64_t total = parprim::reduce<std::int64_t>(ctx, in);
  std::vector<std::int64_t> scanned = out.to_host();

  std::vector<std::int64_t> expected(host.size());
  std::partial_sum(host.begin(), host.end(), expected.begin());
  bool ok = scanned == expected && total == expected.back();
  std::printf("parprim %s on %s: sum of 1..%zu = %lld (%s)\n", PARPRIM_VERSION_STRING,
              ctx.name().c_str(), host.size(), static_cast<long long>(total), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
