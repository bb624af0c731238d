// The few element-wise steps of the distributed algorithms that no public primitive covers,
// run on one rank's own context: adding a rank's prefix to its scanned slice, counting sorted
// keys against splitter candidates, and numbering positions. One implementation per backend
// (src/cpu/dist_local.cpp, src/cuda/kernels/dist_local.cu); front ends call the dispatchers.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"

namespace parprim::detail {

// Where a key lies in the sort order: bits [shift, shift + width) of its ordered image
// (core/sort_keys.hpp), compared as an unsigned number.
struct key_order {
  key_kind kind = key_kind::unsigned_int;
  bool descending = false;
  int shift = 0;
  int width = 32;
};

// The field of `raw` (a key's bits) that the order compares.
template <class U>
PARPRIM_HD std::uint64_t order_field(U raw, const key_order& o) {
  const std::uint64_t v = static_cast<std::uint64_t>(ordered_bits(raw, o.kind, o.descending)) >> o.shift;
  return o.width >= 64 ? v : v & ((std::uint64_t(1) << o.width) - 1);
}

}  // namespace parprim::detail

namespace parprim::cpu_backend {
template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o);
template <class K>
void count_at_most(const context& ctx, span<const K> sorted, detail::key_order order,
                   const std::vector<std::uint64_t>& bounds, std::vector<std::int64_t>& counts);
void iota(const context& ctx, span<std::int64_t> out);
}  // namespace parprim::cpu_backend

namespace parprim::cuda_backend {
template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o);
template <class K>
void count_at_most(const context& ctx, span<const K> sorted, detail::key_order order,
                   const std::vector<std::uint64_t>& bounds, std::vector<std::int64_t>& counts);
void iota(const context& ctx, span<std::int64_t> out);
}  // namespace parprim::cuda_backend

namespace parprim::detail::local {

// data[i] = prefix op data[i]
template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o) {
  if (data.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::apply_prefix<T>(ctx, data, prefix, o);
#endif
  cpu_backend::apply_prefix<T>(ctx, data, prefix, o);
}

// counts[j] = how many keys of `sorted` (sorted in `order`) have a field <= bounds[j].
// Returns to the host (waits for the device).
template <class K>
std::vector<std::int64_t> count_at_most(const context& ctx, span<const K> sorted, key_order order,
                                        const std::vector<std::uint64_t>& bounds) {
  std::vector<std::int64_t> counts(bounds.size(), 0);
  if (sorted.size() == 0 || bounds.empty()) return counts;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    cuda_backend::count_at_most<K>(ctx, sorted, order, bounds, counts);
    return counts;
  }
#endif
  cpu_backend::count_at_most<K>(ctx, sorted, order, bounds, counts);
  return counts;
}

// out[i] = i
inline void iota(const context& ctx, span<std::int64_t> out) {
  if (out.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::iota(ctx, out);
#endif
  cpu_backend::iota(ctx, out);
}

}  // namespace parprim::detail::local
