// The few element-wise steps of the distributed algorithms that no public primitive covers,
// run on one rank's own context: adding a rank's prefix to its scanned slice, counting sorted
// keys against splitter candidates, numbering positions, merging sorted runs and ordering
// work between two streams of one device. One
// implementation per backend (src/cpu/dist_local.cpp, src/cuda/kernels/dist_local.cu); front
// ends call the dispatchers.
#pragma once

#include <cstdint>
#include <vector>

#include "core/sort_keys.hpp"
#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runtime/bridge.hpp"
#endif

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


// Merge path (Odeh, Green, Mwassi, Shmueli, Birk 2012): how many of the first d outputs of the
// stable merge of a[0, na) and b[0, nb) come from a (a wins ties). Lets every thread merge its
// own stretch of the output independently.
template <class U>
PARPRIM_HD std::int64_t merge_path_split(const U* a, std::int64_t na, const U* b, std::int64_t nb,
                                         std::int64_t d, const key_order& o) {
  std::int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (order_field(a[mid], o) <= order_field(b[d - 1 - mid], o)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Outputs [d, d + count) of that merge (a = keys[0, na), b = keys[na, n)), with the values
// (when values_out is given) moved alongside their keys; see merge_runs.
template <class U, class W>
PARPRIM_HD void merge_stretch(const U* keys, std::int64_t na, std::int64_t n, std::int64_t d,
                              std::int64_t count, U* out, const W* values_in, W* values_out,
                              const key_order& o) {
  const U* b = keys + na;
  const std::int64_t nb = n - na;
  std::int64_t i = merge_path_split(keys, na, b, nb, d, o), j = d - i;
  const std::int64_t end = d + count < n ? d + count : n;
  for (std::int64_t k = d; k < end; ++k) {
    const bool take_a = j >= nb || (i < na && order_field(keys[i], o) <= order_field(b[j], o));
    const std::int64_t from = take_a ? i++ : na + j++;
    out[k] = keys[from];
    if (values_out) values_out[k] = values_in[from];
  }
}

}  // namespace parprim::detail

namespace parprim::cpu_backend {
template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o);
template <class K>
void count_at_most(const context& ctx, span<const K> sorted, detail::key_order order,
                   const std::vector<std::uint64_t>& bounds, std::vector<std::int64_t>& counts);
void iota(const context& ctx, span<std::int64_t> out);
template <class K>
void merge_runs(const context& ctx, span<const K> keys, std::int64_t mid, span<K> out,
                const void* values_in, void* values_out, std::size_t value_bytes,
                detail::key_order order);
}  // namespace parprim::cpu_backend

namespace parprim::cuda_backend {
template <class T>
void apply_prefix(const context& ctx, span<T> data, T prefix, op o);
template <class K>
void count_at_most(const context& ctx, span<const K> sorted, detail::key_order order,
                   const std::vector<std::uint64_t>& bounds, std::vector<std::int64_t>& counts);
void iota(const context& ctx, span<std::int64_t> out);
template <class K>
void merge_runs(const context& ctx, span<const K> keys, std::int64_t mid, span<K> out,
                const void* values_in, void* values_out, std::size_t value_bytes,
                detail::key_order order);
void stream_wait(const context& waiter, const context& signaler);
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

// Stable merge of the two sorted runs a = keys[0, mid) and b = keys[mid, n) into out (n keys;
// out must not overlap keys). Among equal fields a's keys come first, so merging runs that
// arrived in source-rank order keeps the global stable order. With value_bytes 4 or 8, the n
// values at values_in move with their keys to values_out; 0: keys only.
template <class K>
void merge_runs(const context& ctx, span<const K> keys, std::int64_t mid, span<K> out,
                const void* values_in, void* values_out, std::size_t value_bytes, key_order order) {
  if (keys.size() == 0) return;
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::merge_runs<K>(ctx, keys, mid, out, values_in, values_out, value_bytes,
                                       order);
#endif
  cpu_backend::merge_runs<K>(ctx, keys, mid, out, values_in, values_out, value_bytes, order);
}

// Work queued on `waiter` from now on starts only after the work queued on `signaler` so far
// (both contexts on one device). CPU contexts run every call to its end before returning:
// nothing to wait for.
inline void stream_wait(const context& waiter, const context& signaler) {
#if PARPRIM_HAVE_CUDA
  if (waiter.kind() == backend::cuda) return cuda_backend::stream_wait(waiter, signaler);
#endif
  (void)waiter;
  (void)signaler;
}

// A second queue on ctx's device for work that runs beside ctx's own and goes first: on CUDA a
// context over a stream of the device's highest priority, so that the blocks of its kernels
// (the exchange's NCCL kernels) are scheduled ahead of the blocks still waiting in ctx's
// kernels (the merges of the chunks already received). On the 2-H200 sort at equal priority
// the exchange ran at 143 GB/s against 301 GB/s for NCCL alone in the same 8 chunks
// (bench/results/2026-11-23-h200x2-exchange.md). On the CPU, ctx itself.
class side_queue {
 public:
  explicit side_queue(const context& ctx) : device_(ctx.device()), ctx_(make(ctx, stream_)) {}
  ~side_queue() {
#if PARPRIM_HAVE_CUDA
    if (stream_) {
      try {
        ctx_.synchronize();
      } catch (...) {  // the stream goes anyway; the caller has its own error to report
      }
      cuda_rt::destroy_stream(device_, stream_);
    }
#endif
  }
  side_queue(const side_queue&) = delete;
  side_queue& operator=(const side_queue&) = delete;
  const context& ctx() const { return ctx_; }

 private:
  static context make(const context& ctx, void*& stream) {
#if PARPRIM_HAVE_CUDA
    if (ctx.kind() == backend::cuda) {
      stream = cuda_rt::create_stream(ctx.device(), "dist::side_queue", true);
      return context::cuda(ctx.device(), stream);
    }
#endif
    (void)stream;
    return ctx;
  }
  void* stream_ = nullptr;
  int device_;
  context ctx_;
};

}  // namespace parprim::detail::local
