// Distributed reduce and scans: every rank reduces its slice on its own stream, the slice
// totals are exchanged device to device (an in-place allgatherv), and each rank waits once,
// for the copy of the totals to the host, where it folds them in rank order. So every rank's
// device work is queued before any host wait, and a call costs one pass over the slice
// (reduce) or three (scan: reduce, then a seeded single-context scan), plus one exchange of
// a few bytes. NCCL's own allreduce is not used for the totals: its combining order depends
// on the algorithm NCCL picks (ring or tree) and on the topology, so float results would vary
// between machines and runs.
#include <vector>

#include "core/dist_support.hpp"
#include "parprim/distributed.hpp"
#include "parprim/reduce.hpp"
#include "parprim/scan.hpp"
#include "parprim/types.hpp"

namespace parprim::dist {

namespace {

// Reduces rank r's slice into a small device buffer, exchanges the totals of the non-empty
// slices in place and copies them to the host in one wait: L_k by rank, T{} for empty slices.
template <class T>
std::vector<T> exchange_totals(const device_group& g, const dist_buffer<T>& in, op o, int r) {
  const context& ctx = g.ctx(r);
  const int P = g.size();
  std::vector<std::size_t> bytes(static_cast<std::size_t>(P), 0);
  std::size_t mine = 0, nonempty = 0;  // this rank's slot among the non-empty slices
  for (int k = 0; k < P; ++k) {
    if (in.count(k) == 0) continue;
    if (k < r) ++mine;
    bytes[static_cast<std::size_t>(k)] = sizeof(T);
    ++nonempty;
  }
  buffer<T> dev(ctx, static_cast<std::int64_t>(nonempty));
  if (in.count(r) > 0) parprim::reduce_into<T>(ctx, in.slice(r), span<T>(dev.data() + mine, 1), o);
  g.comm(r).allgatherv(ctx, dev.data() + mine, dev.data(), bytes);
  std::vector<T> packed(nonempty);
  // The one wait: in the stream synchronization rather than inside the copy to pageable host
  // memory, so the driver stages a few bytes instead of holding the copy across the whole
  // reduction while the other ranks' threads launch on their GPUs.
  ctx.synchronize();
  ctx.copy_to_host(packed.data(), dev.data(), nonempty * sizeof(T));
  std::vector<T> totals(static_cast<std::size_t>(P), T{});
  std::size_t next = 0;
  for (int k = 0; k < P; ++k)
    if (in.count(k) > 0) totals[static_cast<std::size_t>(k)] = packed[next++];
  return totals;
}

// The group's result: the left fold of the non-empty slices' totals in rank order.
template <class T>
T reduce_on_rank(const device_group& g, const dist_buffer<T>& in, op o, int r) {
  const auto totals = exchange_totals(g, in, o, r);
  return detail::with_op<T>(o, [&](auto f) -> T {
    using Op = decltype(f);
    bool any = false;
    T acc = Op::identity();
    for (int k = 0; k < g.size(); ++k) {
      if (in.count(k) == 0) continue;
      const T v = totals[static_cast<std::size_t>(k)];
      acc = any ? f(acc, v) : v;
      any = true;
    }
    return acc;
  });
}

template <class T>
void check_reduce(const detail::dist_checker& c, const dist_buffer<T>& in, op o) {
  c.member(in, "in");
  if (static_cast<int>(o) < 0 || o > op::max)
    c.fail("op=" + std::to_string(static_cast<int>(o)) + " is not a known option");
}

template <class T>
void check_scan(const detail::dist_checker& c, const dist_buffer<T>& in, const dist_buffer<T>& out,
                op o) {
  check_reduce(c, in, o);
  c.member(out, "out");
  c.same_counts(in, "in", out, "out");
}

}  // namespace

template <class T>
T reduce(const device_group& g, const dist_buffer<T>& in, op o) {
  check_reduce(detail::dist_checker(g, "reduce"), in, o);
  // Every rank computes the same value; the first local rank's is returned.
  std::vector<T> results(static_cast<std::size_t>(g.size()));
  g.run([&](int r) { results[static_cast<std::size_t>(r)] = reduce_on_rank(g, in, o, r); });
  return results[static_cast<std::size_t>(g.local_rank(0))];
}

template <class T>
void reduce_into(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out, op o) {
  detail::dist_checker c(g, "reduce_into");
  check_reduce(c, in, o);
  c.member(out, "out");
  for (int r = 0; r < g.size(); ++r)
    if (out.count(r) != 1)
      c.fail("out.count(" + std::to_string(r) + ")=" + std::to_string(out.count(r)) +
             " but reduce_into needs one element per rank");
  g.run([&](int r) {
    const T v = reduce_on_rank(g, in, o, r);
    g.ctx(r).copy_from_host(out.slice(r).data(), &v, sizeof(T));
    g.ctx(r).synchronize();  // v lives on this thread's stack
  });
}

template <class T>
void exclusive_scan(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out, T init,
                    op o) {
  check_scan(detail::dist_checker(g, "exclusive_scan"), in, out, o);
  g.run([&](int r) {
    const context& ctx = g.ctx(r);
    // Totals first, so that the slice is scanned once, already seeded with its prefix.
    const auto totals = exchange_totals(g, in, o, r);
    if (in.count(r) == 0) return;
    const T seed = detail::with_op<T>(
        o, [&](auto f) { return detail::fold_nonempty(init, totals, in.counts(), r, f); });
    parprim::exclusive_scan<T>(ctx, in.slice(r), out.slice(r), seed, o);
    ctx.synchronize();
  });
}

template <class T>
void inclusive_scan(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out, op o) {
  check_scan(detail::dist_checker(g, "inclusive_scan"), in, out, o);
  int first_nonempty = 0;
  while (first_nonempty < g.size() && in.count(first_nonempty) == 0) ++first_nonempty;
  g.run([&](int r) {
    const context& ctx = g.ctx(r);
    const auto totals = exchange_totals(g, in, o, r);
    if (in.count(r) == 0) return;
    if (r == first_nonempty) {
      parprim::inclusive_scan<T>(ctx, in.slice(r), out.slice(r), o);
      return ctx.synchronize();
    }
    // The left fold of the non-empty totals before r, starting from the first of them; the
    // slice is scanned from it (until 2026-11-24 an exclusive scan of x + 1 did this, 4 bytes
    // off a 16-byte boundary for 4-byte types, which kept it off the pipelined kernel).
    const T prefix = detail::with_op<T>(o, [&](auto f) {
      T acc = totals[static_cast<std::size_t>(first_nonempty)];
      for (int k = first_nonempty + 1; k < r; ++k)
        if (in.count(k) > 0) acc = f(acc, totals[static_cast<std::size_t>(k)]);
      return acc;
    });
    parprim::inclusive_scan<T>(ctx, in.slice(r), out.slice(r), prefix, o);
    ctx.synchronize();
  });
}

#define PARPRIM_INSTANTIATE(T)                                                                    \
  template T reduce<T>(const device_group&, const dist_buffer<T>&, op);                           \
  template void reduce_into<T>(const device_group&, const dist_buffer<T>&, dist_buffer<T>&, op);  \
  template void inclusive_scan<T>(const device_group&, const dist_buffer<T>&, dist_buffer<T>&, op); \
  template void exclusive_scan<T>(const device_group&, const dist_buffer<T>&, dist_buffer<T>&, T, op);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::dist
