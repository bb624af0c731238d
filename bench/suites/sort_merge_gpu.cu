// The GPU side of the sort suite's merge sort rows (sort.cpp): merge_sort with a comparator
// runs on the device only from code compiled by nvcc.
#include "parprim/merge_sort.hpp"
#include "sort_records.hpp"

namespace parprim::bench {

namespace {
template <class T, class Comp>
double time_merge_sort(session& s, const T* input, T* work, std::int64_t n, Comp comp) {
  const context& ctx = s.ctx();
  workspace ws(ctx);
  auto restore = [&] { ctx.copy(work, input, std::size_t(n) * sizeof(T)); };
  const double copy_ms = s.time_ms(restore);
  const double ms = s.time_ms([&] { restore(); merge_sort(ctx, span<T>(work, n), comp, &ws); });
  return ms - copy_ms > 1e-6 ? ms - copy_ms : 1e-6;
}
}  // namespace

double gpu_merge_sort_ms(session& s, const std::uint64_t* input, std::uint64_t* work, std::int64_t n) {
  return time_merge_sort(s, input, work, n, less_than{});
}
double gpu_merge_sort_ms(session& s, const record16* input, record16* work, std::int64_t n) {
  return time_merge_sort(s, input, work, n, record16_less{});
}

}  // namespace parprim::bench
