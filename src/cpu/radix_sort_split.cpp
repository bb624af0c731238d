// The course's 1-bit split radix sort on the CPU: the teaching version, one split per bit.
//
// For each bit, from begin_bit up to end_bit - 1, exactly as in the slides:
//   b[i] = the bit of key i            e[i] = 1 when b[i] is 0
//   f    = exclusive scan of e         totalFalses = e[n-1] + f[n-1]
//   t[i] = i - f[i] + totalFalses      d[i] = b[i] ? t[i] : f[i]
//   out[d[i]] = in[i]
// Keys whose bit is 0 keep their order at the front, keys whose bit is 1 keep their order
// after them: each split is stable, so splitting on every bit from the lowest sorts.
// The scan is the library's own exclusive_scan; b, t and d are computed where they are used.
#include <cstring>
#include <utility>

#include "parprim/detail/temp_memory.hpp"
#include "cpu/parallel.hpp"
#include "cpu/sort_backend.hpp"
#include "parprim/scan.hpp"

namespace parprim::cpu_backend {

namespace {

template <class U, class W>
void split_sort(const context& ctx, const detail::sort_request& r, U* keys, W* values,
                workspace* ws) {
  const std::int64_t n = r.n;
  const std::size_t flag_bytes = detail::align_up(std::size_t(n) * sizeof(std::int64_t));
  const std::size_t key_bytes = detail::align_up(std::size_t(n) * sizeof(U));
  const std::size_t value_bytes = values ? std::size_t(n) * sizeof(W) : 0;
  detail::temp_memory temp(ctx, ws, 2 * flag_bytes + key_bytes + value_bytes);
  auto* base = temp.as<unsigned char>();
  auto* e = reinterpret_cast<std::int64_t*>(base);
  auto* f = reinterpret_cast<std::int64_t*>(base + flag_bytes);
  U* src_k = keys;
  U* dst_k = reinterpret_cast<U*>(base + 2 * flag_bytes);
  W* src_v = values;
  W* dst_v = values ? reinterpret_cast<W*>(base + 2 * flag_bytes + key_bytes) : nullptr;

  for (int bit = r.begin_bit; bit < r.end_bit; ++bit) {
    // Step 1: e[i] = (b[i] == 0).
    parallel_for(ctx, n, [&](std::int64_t i) {
      e[i] = detail::key_field(src_k[i], r.kind, r.descending, bit, 1) == 0 ? 1 : 0;
    });
    // Step 2: f = exclusive scan of e.
    exclusive_scan<std::int64_t>(ctx, span<const std::int64_t>(e, n), span<std::int64_t>(f, n));
    // Step 3: totalFalses.
    const std::int64_t total_falses = e[n - 1] + f[n - 1];
    // Steps 4 and 5: t, d and the scatter.
    parallel_for(ctx, n, [&](std::int64_t i) {
      const bool b = e[i] == 0;
      const std::int64_t t = i - f[i] + total_falses;
      const std::int64_t d = b ? t : f[i];
      dst_k[d] = src_k[i];
      if (values) dst_v[d] = src_v[i];
    });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != keys) {
    std::memcpy(keys, src_k, std::size_t(n) * sizeof(U));
    if (values) std::memcpy(values, src_v, std::size_t(n) * sizeof(W));
  }
}

}  // namespace

void radix_sort_split_1bit(const context& ctx, const detail::sort_request& r, workspace* ws) {
  if (r.key_bytes == 4) {
    auto* k = static_cast<std::uint32_t*>(r.keys);
    if (r.value_bytes == 8) split_sort(ctx, r, k, static_cast<std::uint64_t*>(r.values), ws);
    else split_sort(ctx, r, k, static_cast<std::uint32_t*>(r.values), ws);
  } else {
    auto* k = static_cast<std::uint64_t*>(r.keys);
    if (r.value_bytes == 8) split_sort(ctx, r, k, static_cast<std::uint64_t*>(r.values), ws);
    else split_sort(ctx, r, k, static_cast<std::uint32_t*>(r.values), ws);
  }
}

}  // namespace parprim::cpu_backend
