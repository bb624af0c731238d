// CPU lower_bound / upper_bound (one binary search per query) and merge (merge-path splits
// of fixed output blocks, each block merged sequentially).
#include <algorithm>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/search_merge_backend.hpp"

namespace parprim::cpu_backend {

template <class U>
void search(const context& ctx, const U* sorted, std::int64_t n, const U* queries,
            std::int64_t m, std::int64_t* out, detail::key_order<U> ord, bool upper) {
  if (upper)
    parallel_for(ctx, m, [&](std::int64_t q) { out[q] = detail::bound<U, true>(sorted, n, queries[q], ord); });
  else
    parallel_for(ctx, m, [&](std::int64_t q) { out[q] = detail::bound<U, false>(sorted, n, queries[q], ord); });
}

namespace {

constexpr std::int64_t check_block = 1 << 16;

template <class U>
std::int64_t first_unsorted_in(const context& ctx, const U* x, std::int64_t n,
                               detail::key_order<U> ord) {
  if (n < 2) return -1;
  const std::int64_t blocks = block_count(n - 1, check_block);
  std::vector<std::int64_t> first(static_cast<std::size_t>(blocks), -1);
  blocked_for(ctx, n - 1, check_block, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    for (std::int64_t p = begin; p < end; ++p)
      if (ord.less(x[p + 1], x[p])) {
        first[b] = p;
        return;
      }
  });
  for (std::int64_t p : first)
    if (p >= 0) return p;
  return -1;
}

}  // namespace

template <class U>
std::int64_t first_unsorted(const context& ctx, const U* a, std::int64_t na, const U* b,
                            std::int64_t nb, detail::key_order<U> ord) {
  std::int64_t p = first_unsorted_in(ctx, a, na, ord);
  if (p >= 0) return p;
  p = first_unsorted_in(ctx, b, nb, ord);
  return p >= 0 ? na + p : -1;
}

// Output blocks of 2^16: each finds where it starts in a and b by a merge-path search.
template <class U, class W>
void merge(const context& ctx, const U* a, const W* a_values, std::int64_t na, const U* b,
           const W* b_values, std::int64_t nb, U* out, W* out_values, detail::key_order<U> ord) {
  const std::int64_t n = na + nb;
  blocked_for(ctx, n, std::int64_t(1) << 16, [&](std::int64_t, std::int64_t d0, std::int64_t d1) {
    std::int64_t i = detail::merge_path(a, na, b, nb, d0, ord);
    std::int64_t j = d0 - i;
    for (std::int64_t d = d0; d < d1; ++d) {
      const bool take_b = i == na || (j < nb && ord.less(b[j], a[i]));
      if (take_b) {
        out[d] = b[j];
        if (out_values) out_values[d] = b_values[j];
        ++j;
      } else {
        out[d] = a[i];
        if (out_values) out_values[d] = a_values[i];
        ++i;
      }
    }
  });
}

#define PARPRIM_INSTANTIATE_UW(U, W)                                                           \
  template void merge<U, W>(const context&, const U*, const W*, std::int64_t, const U*,        \
                            const W*, std::int64_t, U*, W*, detail::key_order<U>);
#define PARPRIM_INSTANTIATE(U)                                                                  \
  template void search<U>(const context&, const U*, std::int64_t, const U*, std::int64_t,       \
                          std::int64_t*, detail::key_order<U>, bool);                           \
  template std::int64_t first_unsorted<U>(const context&, const U*, std::int64_t, const U*,     \
                                          std::int64_t, detail::key_order<U>);                  \
  PARPRIM_INSTANTIATE_UW(U, std::uint32_t)                                                      \
  PARPRIM_INSTANTIATE_UW(U, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_UW

}  // namespace parprim::cpu_backend
