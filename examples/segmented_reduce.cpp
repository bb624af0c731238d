// Per-row sums and row-wise prefix sums of a ragged array stored as values + row offsets
// (the CSR layout of a sparse matrix). Row 2 is empty and gets the init value.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<double> values{1, 2, 3, 10, 20, 5, 5, 5, 5};
  std::vector<std::int64_t> row_offsets{0, 3, 5, 5, 9};  // rows: [1 2 3] [10 20] [] [5 5 5 5]
  auto in = parprim::buffer<double>::from_host(ctx, values);
  auto offsets = parprim::buffer<std::int64_t>::from_host(ctx, row_offsets);
  parprim::buffer<double> sums(ctx, 4);
  parprim::segmented_reduce<double>(ctx, in, offsets, sums);
  parprim::buffer<double> prefix(ctx, in.size());
  parprim::segmented_inclusive_scan<double>(ctx, in, offsets, prefix);
  auto s = sums.to_host();
  auto p = prefix.to_host();
  std::printf("row sums on %s: %g %g %g %g\n", ctx.name().c_str(), s[0], s[1], s[2], s[3]);
  bool ok = s[0] == 6 && s[1] == 30 && s[2] == 0 && s[3] == 20 && p[2] == 6 && p[4] == 30 && p[8] == 20;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
