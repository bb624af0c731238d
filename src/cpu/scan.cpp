// CPU scan: the three phases of the course's arbitrary-size scan, with threads for blocks.
//
// 1. Reduce each fixed-size block to a sum (parallel).
// 2. Exclusive-scan the block sums, starting from init (sequential: n / block values).
// 3. Scan each block again, seeded with its prefix (parallel).
// Each input element is read twice and each output written once. Block boundaries depend
// only on n, so float results are the same on every run and on any number of threads.
// In place (out == in) is safe: phase 1 only reads, and phase 3 reads each element before
// it writes that same element.
#include <vector>

#include "core/op_functors.hpp"
#include "cpu/cpu_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t scan_block = 1 << 16;

// Scans [begin, end) sequentially, starting from `carry`; returns the carry after the block.
// Kept out of line: inlined into the blocked lambdas, g++ 12 kept the exclusive loop's carry in
// a stack slot (a store-to-load round trip per element, 4x slower than the inclusive loop).
template <class T, class Op>
__attribute__((noinline)) T scan_range(const T* x, T* y, std::int64_t begin, std::int64_t end, T carry, bool inclusive, Op o) {
  if (inclusive) {
    for (std::int64_t i = begin; i < end; ++i) {
      carry = o(carry, x[i]);
      y[i] = carry;
    }
  } else {
    for (std::int64_t i = begin; i < end; ++i) {
      T v = x[i];
      y[i] = carry;
      carry = o(carry, v);
    }
  }
  return carry;
}

template <class T, class Op>
T fold_range(const T* x, std::int64_t begin, std::int64_t end, Op o) {
  T acc = Op::identity();
  for (std::int64_t i = begin; i < end; ++i) acc = o(acc, x[i]);
  return acc;
}
}  // namespace

template <class T>
void scan(const context& ctx, span<const T> in, span<T> out, op o, bool inclusive, T init) {
  detail::with_op<T>(o, [&](auto f) {
    using Op = decltype(f);
    const std::int64_t n = in.size();
    const T* x = in.data();
    T* y = out.data();
    // An inclusive scan starts from the identity; an exclusive one from init.
    const T start = inclusive ? Op::identity() : init;
    if (n <= scan_block) {
      scan_range(x, y, 0, n, start, inclusive, f);
      return;
    }
    const std::int64_t blocks = block_count(n, scan_block);
    std::vector<T> prefix(static_cast<std::size_t>(blocks));
    // Phase 1: per-block totals.
    blocked_for(ctx, n, scan_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
      prefix[static_cast<std::size_t>(b)] = fold_range(x, s, e, f);
    });
    // Phase 2: exclusive scan of the totals.
    T carry = start;
    for (auto& p : prefix) {
      T total = p;
      p = carry;
      carry = f(carry, total);
    }
    // Phase 3: rescan each block from its prefix.
    blocked_for(ctx, n, scan_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
      scan_range(x, y, s, e, prefix[static_cast<std::size_t>(b)], inclusive, f);
    });
  });
}

#define PARPRIM_INSTANTIATE(T) \
  template void scan<T>(const context&, span<const T>, span<T>, op, bool, T);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
