// Per-row sums and row-wise prefix sums of a ragged array stored as values + row offsets
// (the CSR layout of a sparse matrix). Row 2 is empty and gets the init value.
// The same rows can be given by head flags instead, one per element (1 where a row starts),
// when the boundaries come with the data rather than as a separate index; an empty row then
// has no element to flag, and the scans give the same results as by offsets.
#include <parprim/parprim.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<double> values{1, 2, 3, 10, 20, 5, 5, 5, 5};
  std::vector<std::int64_t> row_offsets{0, 3, 5, 5, 9};  // rows: [1 2 3] [10 20] [] [5 5 5 5]
  std::vector<std::uint8_t> row_starts{1, 0, 0, 1, 0, 1, 0, 0, 0};
  auto in = parprim::buffer<double>::from_host(ctx, values);
  auto offsets = parprim::buffer<std::int64_t>::from_host(ctx, row_offsets);
  auto flags = parprim::buffer<std::uint8_t>::from_host(ctx, row_starts);
  parprim::buffer<double> sums(ctx, 4);
  parprim::segmented_reduce<double>(ctx, in, offsets, sums);
  parprim::buffer<double> prefix(ctx, in.size()), before(ctx, in.size());
  parprim::segmented_inclusive_scan<double>(ctx, in, offsets, prefix);
  parprim::segmented_exclusive_scan<double>(ctx, in, offsets, before);  // init 0
  parprim::buffer<double> prefix_f(ctx, in.size()), before_f(ctx, in.size());
  parprim::segmented_inclusive_scan_by_flags<double>(ctx, in, flags, prefix_f);
  parprim::segmented_exclusive_scan_by_flags<double>(ctx, in, flags, before_f);
  auto s = sums.to_host();
  auto p = prefix.to_host();
  auto b = before.to_host();
  std::printf("row sums on %s: %g %g %g %g\n", ctx.name().c_str(), s[0], s[1], s[2], s[3]);
  std::printf("sum of the row before each value:");
  for (double x : b) std::printf(" %g", x);
  std::printf("\n");
  bool ok = s == std::vector<double>{6, 30, 0, 20} &&
            p == std::vector<double>{1, 3, 6, 10, 30, 5, 10, 15, 20} &&
            b == std::vector<double>{0, 1, 3, 0, 10, 0, 5, 10, 15} && prefix_f.to_host() == p &&
            before_f.to_host() == b;
  std::printf("%s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
