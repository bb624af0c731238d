// Distributed gather and scatter by global indices.
//
// Each rank sorts its (index, position) pairs by index, so the requests for each owner form
// one contiguous run whose length two binary searches give; one all-to-all sends the runs to
// their owners, which serve them with the local gather (scatter) after subtracting their
// offset; a gather sends the values back the same way and puts them in place with a local
// scatter by position.
#include <algorithm>
#include <limits>
#include <vector>

#include "core/dist_local.hpp"
#include "core/dist_support.hpp"
#include "parprim/distributed.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/sort.hpp"
#include "parprim/types.hpp"

namespace parprim::dist {

namespace {

// The requests of rank r, sorted by index, with the positions they came from.
template <class I>
struct sorted_requests {
  buffer<I> index;
  buffer<std::int64_t> position;
  std::vector<std::int64_t> send;  // requests per owner rank
};

template <class I>
sorted_requests<I> sort_requests(const device_group& g, int r, const dist_buffer<I>& indices,
                                 const std::vector<std::int64_t>& owner_offsets, const char* who,
                                 std::int64_t limit) {
  const context& ctx = g.ctx(r);
  const std::int64_t m = indices.count(r);
  sorted_requests<I> q{buffer<I>(ctx, m), buffer<std::int64_t>(ctx, m), {}};
  if (m > 0) {
    ctx.copy(q.index.data(), indices.slice(r).data(), q.index.bytes());
    detail::local::iota(ctx, q.position.view());
    parprim::radix_sort_pairs<I, std::int64_t>(ctx, q.index.view(), q.position.view());
  }
  // Bounds, agreed by every rank before any data moves: the lowest and highest index.
  I ends[2] = {I(0), I(0)};
  if (m > 0) {
    ctx.copy_to_host(&ends[0], q.index.data(), sizeof(I));
    ctx.copy_to_host(&ends[1], q.index.data() + (m - 1), sizeof(I));
  }
  struct bound_report {
    std::int64_t outside;  // 1 when some index lies outside [0, limit)
    std::int64_t index;    // the lowest such index if negative, else the highest
  };
  const bool outside = m > 0 && (ends[0] < 0 || static_cast<std::int64_t>(ends[1]) >= limit);
  const bound_report mine{outside ? 1 : 0, static_cast<std::int64_t>(ends[0] < 0 ? ends[0] : ends[1])};
  const auto reports = g.comm(r).allgather(mine);
  for (int s = 0; s < g.size(); ++s)
    if (reports[static_cast<std::size_t>(s)].outside)
      throw error(errc::out_of_range, std::string("parprim::dist::") + who + " [" + g.name() +
                                          "]: rank " + std::to_string(s) + " holds index " +
                                          std::to_string(reports[static_cast<std::size_t>(s)].index) +
                                          ", outside [0, " + std::to_string(limit) + ")");
  // Requests per owner: how many indices lie at or below each owner's last index.
  const int P = g.size();
  std::vector<std::uint64_t> bounds(static_cast<std::size_t>(P));
  const detail::key_order order{detail::kind_of<I>(), false, 0, static_cast<int>(sizeof(I) * 8)};
  for (int p = 0; p < P; ++p) {
    using U = detail::key_word_t<I>;
    const I last = static_cast<I>(std::min<std::int64_t>(owner_offsets[p + 1] - 1,
                                                         std::numeric_limits<I>::max()));
    bounds[static_cast<std::size_t>(p)] = detail::order_field(static_cast<U>(last), order);
  }
  const auto at_most = detail::local::count_at_most<I>(ctx, q.index.view(), order, bounds);
  q.send.resize(static_cast<std::size_t>(P));
  for (int p = 0; p < P; ++p)
    q.send[p] = at_most[p] - (p > 0 ? at_most[p - 1] : 0);
  return q;
}

template <class T, class I>
void check_args(const detail::dist_checker& c, const dist_buffer<T>& values,
                const dist_buffer<I>& indices, const dist_buffer<T>& out) {
  c.member(values, "values");
  c.member(indices, "indices");
  c.member(out, "out");
}

// What every rank receives from every other: column r of the send matrix.
std::vector<std::int64_t> received_counts(communicator& comm, const std::vector<std::int64_t>& send) {
  const auto all = detail::allgather_vector(comm, send);
  const int P = comm.size();
  std::vector<std::int64_t> recv(static_cast<std::size_t>(P));
  for (int s = 0; s < P; ++s) recv[s] = all[static_cast<std::size_t>(s) * P + comm.rank()];
  return recv;
}

std::int64_t sum(const std::vector<std::int64_t>& v) {
  std::int64_t t = 0;
  for (auto x : v) t += x;
  return t;
}

}  // namespace

template <class T, class I>
void gather(const device_group& g, const dist_buffer<T>& values, const dist_buffer<I>& indices,
            dist_buffer<T>& out) {
  detail::dist_checker c(g, "gather");
  check_args(c, values, indices, out);
  c.same_counts(indices, "indices", out, "out");
  std::vector<std::int64_t> owners(values.counts().size() + 1, 0);
  for (int p = 0; p < g.size(); ++p) owners[p + 1] = values.offset(p) + values.count(p);
  g.run([&](int r) {
    const context& ctx = g.ctx(r);
    communicator& comm = g.comm(r);
    auto q = sort_requests(g, r, indices, owners, "gather", values.size());
    const auto recv = received_counts(comm, q.send);
    buffer<I> asked(ctx, sum(recv));
    comm.alltoallv(ctx, q.index.data(), detail::to_bytes(q.send, sizeof(I)), asked.data(),
                   detail::to_bytes(recv, sizeof(I)));
    detail::local::apply_prefix<I>(ctx, asked.view(), static_cast<I>(-values.offset(r)), op::plus);
    buffer<T> answers(ctx, asked.size());
    if (asked.size() > 0) parprim::gather<T, I>(ctx, values.slice(r), asked.view(), answers.view());
    buffer<T> got(ctx, indices.count(r));
    comm.alltoallv(ctx, answers.data(), detail::to_bytes(recv, sizeof(T)), got.data(),
                   detail::to_bytes(q.send, sizeof(T)));
    if (got.size() > 0)
      parprim::scatter<T, std::int64_t>(ctx, got.view(), q.position.view(), out.slice(r));
    ctx.synchronize();
  });
}

template <class T, class I>
void scatter(const device_group& g, const dist_buffer<T>& values, const dist_buffer<I>& indices,
             dist_buffer<T>& out) {
  detail::dist_checker c(g, "scatter");
  check_args(c, values, indices, out);
  c.same_counts(indices, "indices", values, "values");
  std::vector<std::int64_t> owners(out.counts().size() + 1, 0);
  for (int p = 0; p < g.size(); ++p) owners[p + 1] = out.offset(p) + out.count(p);
  g.run([&](int r) {
    const context& ctx = g.ctx(r);
    communicator& comm = g.comm(r);
    auto q = sort_requests(g, r, indices, owners, "scatter", out.size());
    buffer<T> moving(ctx, indices.count(r));
    if (moving.size() > 0)
      parprim::gather<T, std::int64_t>(ctx, values.slice(r), q.position.view(), moving.view());
    const auto recv = received_counts(comm, q.send);
    buffer<I> where(ctx, sum(recv));
    buffer<T> what(ctx, where.size());
    comm.alltoallv(ctx, q.index.data(), detail::to_bytes(q.send, sizeof(I)), where.data(),
                   detail::to_bytes(recv, sizeof(I)));
    comm.alltoallv(ctx, moving.data(), detail::to_bytes(q.send, sizeof(T)), what.data(),
                   detail::to_bytes(recv, sizeof(T)));
    detail::local::apply_prefix<I>(ctx, where.view(), static_cast<I>(-out.offset(r)), op::plus);
    if (where.size() > 0) parprim::scatter<T, I>(ctx, what.view(), where.view(), out.slice(r));
    ctx.synchronize();
  });
}

#define PARPRIM_INSTANTIATE_INDEX(T, I)                                                        \
  template void gather<T, I>(const device_group&, const dist_buffer<T>&, const dist_buffer<I>&, \
                             dist_buffer<T>&);                                                  \
  template void scatter<T, I>(const device_group&, const dist_buffer<T>&, const dist_buffer<I>&, \
                              dist_buffer<T>&);
#define PARPRIM_INSTANTIATE(T)                \
  PARPRIM_INSTANTIATE_INDEX(T, std::int32_t) \
  PARPRIM_INSTANTIATE_INDEX(T, std::int64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_INDEX

}  // namespace parprim::dist
