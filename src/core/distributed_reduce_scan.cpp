// Distributed reduce and scans: local single-context work, then one allgather of the slice
// totals (host scalars) so that every rank folds them in rank order. NCCL's own allreduce is
// not used for the totals: its combining order depends on the algorithm NCCL picks (ring or
// tree) and on the topology, so float results would vary between machines and runs.
#include <vector>

#include "core/dist_local.hpp"
#include "core/dist_support.hpp"
#include "parprim/distributed.hpp"
#include "parprim/reduce.hpp"
#include "parprim/scan.hpp"
#include "parprim/types.hpp"

namespace parprim::dist {

namespace {

// The group's result on every rank: the fold of the non-empty slices' reductions.
template <class T>
T reduce_on_rank(const device_group& g, const dist_buffer<T>& in, op o, int r) {
  const T local = in.count(r) > 0 ? parprim::reduce<T>(g.ctx(r), in.slice(r), o) : T{};
  const std::vector<T> all = g.comm(r).allgather(local);
  return detail::with_op<T>(o, [&](auto f) -> T {
    using Op = decltype(f);
    bool any = false;
    T acc = Op::identity();
    for (int k = 0; k < g.size(); ++k) {
      if (in.count(k) == 0) continue;
      acc = any ? f(acc, all[static_cast<std::size_t>(k)]) : all[static_cast<std::size_t>(k)];
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
    g.ctx(r).synchronize();
  });
}

template <class T>
void exclusive_scan(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out, T init,
                    op o) {
  check_scan(detail::dist_checker(g, "exclusive_scan"), in, out, o);
  g.run([&](int r) {
    const context& ctx = g.ctx(r);
    // Totals first, so that the slice is scanned once, already seeded with its prefix.
    const T local = in.count(r) > 0 ? parprim::reduce<T>(ctx, in.slice(r), o) : T{};
    const std::vector<T> totals = g.comm(r).allgather(local);
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
  g.run([&](int r) {
    const context& ctx = g.ctx(r);
    const std::int64_t n = in.count(r);
    // Scan first (in may be out), then the slice's total is its last element.
    T last{};
    if (n > 0) {
      parprim::inclusive_scan<T>(ctx, in.slice(r), out.slice(r), o);
      ctx.copy_to_host(&last, out.slice(r).data() + (n - 1), sizeof(T));
    }
    const std::vector<T> totals = g.comm(r).allgather(last);
    int first_nonempty = 0;
    while (first_nonempty < g.size() && in.count(first_nonempty) == 0) ++first_nonempty;
    if (n == 0 || r == first_nonempty) return ctx.synchronize();
    // The left fold of the non-empty totals before r, starting from the first of them.
    const T prefix = detail::with_op<T>(o, [&](auto f) {
      T acc = totals[static_cast<std::size_t>(first_nonempty)];
      for (int k = first_nonempty + 1; k < r; ++k)
        if (in.count(k) > 0) acc = f(acc, totals[static_cast<std::size_t>(k)]);
      return acc;
    });
    detail::local::apply_prefix<T>(ctx, out.slice(r), prefix, o);
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
