// CPU copy_if and partition with the built-in predicates, and split: the course's lock-free split on threads (copy_if and partition: the generic
// body in parprim/detail/cpu/partition.hpp).
//
// Each fixed-size block (one per task, independent of the thread count) is handled by one
// thread in three steps: (1) count its elements per output partition, (2) an exclusive scan
// of the counts in partition-major, block-minor order gives each block its write position in
// every partition, (3) each block writes its elements in input order. Stable by construction.
#include <algorithm>
#include <vector>

#include "cpu/parallel.hpp"
#include "cpu/partition_backend.hpp"
#include "parprim/detail/cpu/partition.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t select_block = 1 << 16;
// even_range splits into fewer buckets than this clamp the bucket without a branch (see split).
constexpr std::int64_t branchless_range_below = 128;
}  // namespace

// predicate_eval switches on its compare for every element: in the select loops that switch
// kept the count from vectorizing and cost 1.6-1.9x in CPU time (copy_if at 50%, 2^24 u32,
// 2 threads: 58-71 ms against 36-38 ms with the compare fixed at compile time).
template <class T>
std::int64_t select(const context& ctx, span<const T> in, span<T> out,
                    const detail::predicate_eval<T>& pred, detail::select_mode mode) {
  auto run = [&](auto p) { return detail::cpu::select(ctx, in, out, p, mode); };
  const T v = pred.value;
  switch (static_cast<compare>(pred.cmp)) {
    case compare::less: return run([v](T x) { return x < v; });
    case compare::less_equal: return run([v](T x) { return x <= v; });
    case compare::greater: return run([v](T x) { return x > v; });
    case compare::greater_equal: return run([v](T x) { return x >= v; });
    case compare::equal: return run([v](T x) { return x == v; });
    case compare::not_equal: return run([v](T x) { return x != v; });
    case compare::bits_set: break;
  }
  return run(pred);
}

namespace {

// The split with `bucket` (an element -> its bucket) fixed at compile time. Blocks are large
// enough that the count table (buckets x blocks) stays below n / 16.
template <class T, class Bucket>
void split_by(const context& ctx, const T* x, T* y, std::int64_t n, std::int64_t buckets,
              Bucket bucket, std::int64_t* bucket_offsets) {
  const std::int64_t block = std::max<std::int64_t>(select_block, 16 * buckets);
  const std::int64_t blocks = block_count(n, block);
  std::vector<std::int64_t> table(static_cast<std::size_t>(buckets * blocks), 0);
  auto at = [&](std::int64_t k, std::int64_t b) -> std::int64_t& {
    return table[static_cast<std::size_t>(k * blocks + b)];
  };
  blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    std::vector<std::int64_t> h(static_cast<std::size_t>(buckets), 0);
    for (std::int64_t i = s; i < e; ++i) ++h[bucket(x[i])];
    for (std::int64_t k = 0; k < buckets; ++k) at(k, b) = h[static_cast<std::size_t>(k)];
  });
  std::int64_t running = 0;  // bucket-major: where block b writes its elements of bucket k
  for (auto& c : table) {
    const std::int64_t t = c;
    c = running;
    running += t;
  }
  if (bucket_offsets) {
    for (std::int64_t k = 0; k < buckets; ++k) bucket_offsets[k] = at(k, 0);
    bucket_offsets[buckets] = n;
  }
  blocked_for(ctx, n, block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    std::vector<std::int64_t> pos(static_cast<std::size_t>(buckets));
    for (std::int64_t k = 0; k < buckets; ++k) pos[static_cast<std::size_t>(k)] = at(k, b);
    for (std::int64_t i = s; i < e; ++i) y[pos[bucket(x[i])]++] = x[i];
  });
}

}  // namespace

// Each bucket_fn form in its own loop (bucket_eval decides its form per element), the key_bits
// form with the key kind known at compile time. 2^24 u32, 256 buckets by the top byte, 2
// threads: 39-40 -> 33-34 ms. (Writing through 64-byte lines by streaming stores, as the sort's
// MSD split does, took that case to 27 ms but lost with fewer than 128 buckets, with 1000, and
// on 2^20 elements, which stay in cache: 0.85 -> 2.1 ms.)
// The even_range form works on its own copies of the bounds (through the closure, the counts'
// stores could alias them, and every element reloaded them) and, below branchless_range_below
// buckets, clamps with a max and a min: with a branch, the 1 in `buckets` elements that land in
// the last bucket are mispredicted. f32 in [0, 1), 2 threads, 2^24, 8 / 64 / 1000 / 4096 buckets:
// 55.7 / 31.0 / 44.2 / 52.7 ms before, 50.2 / 25.4 / 37.9 / 46.0 with the copies alone, 18.5 /
// 22.3 / 39.6 / 50.1 without the branch as well
// (bench/results/2026-11-25-cpu2-split-even-range.md).
template <class T>
void split(const context& ctx, span<const T> in, span<T> out, const detail::bucket_eval& f,
           std::int64_t* bucket_offsets) {
  if (f.key_bits) {
    const int shift = f.shift, width = f.width;
    auto field = [shift, width](T x) {
      return detail::key_field(detail::raw_bits(x), detail::kind_of<T>(), false, shift, width);
    };
    return split_by(ctx, in.data(), out.data(), in.size(), f.buckets, field, bucket_offsets);
  }
  const double lower = f.lower, scale = f.scale, last = static_cast<double>(f.buckets - 1);
  if (f.buckets < branchless_range_below) {
    auto clamped = [lower, scale, last](T x) {
      const double t = (static_cast<double>(x) - lower) * scale;
      const double bucket = std::min(std::max(t, 0.0), last);
      return static_cast<std::uint32_t>(t == t ? bucket : last);  // NaN: the last bucket
    };
    return split_by(ctx, in.data(), out.data(), in.size(), f.buckets, clamped, bucket_offsets);
  }
  auto range = [lower, scale, last](T x) {
    return detail::even_range_bucket((static_cast<double>(x) - lower) * scale, last);
  };
  split_by(ctx, in.data(), out.data(), in.size(), f.buckets, range, bucket_offsets);
}

#define PARPRIM_INSTANTIATE(T)                                                                 \
  template std::int64_t select<T>(const context&, span<const T>, span<T>,                     \
                                  const detail::predicate_eval<T>&, detail::select_mode);    \
  template void split<T>(const context&, span<const T>, span<T>, const detail::bucket_eval&, \
                         std::int64_t*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
