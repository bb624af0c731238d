// Distributed radix sort: local sort, exact splitters, then the all-to-all of the sorted runs
// in chunks, each chunk's runs merged while the next chunk crosses the links.
//
// Splitters (core/dist_splitters.hpp): c_s(b), how many of rank s's sorted keys come before
// global rank b of the stable order (key, source rank, source position), the same on every rank.
//
// Chunks: rank p's output range is cut into K equal chunks (targets offset(p) + k count(p) / K),
// so chunk k of rank p gets from every rank s the contiguous run [c_s(t_k), c_s(t_{k+1})) of
// s's sorted slice, sent from and received at 16-byte aligned positions (the received runs
// may have small gaps between them). The K exchanges go on a second stream of each GPU, of
// the highest priority, so its NCCL kernels are not held back by the merges; chunk k is merged on
// the rank's own stream as soon as it has arrived, while chunk k+1 is in flight. The merge
// (ceil(log2 P) passes over the chunk) then hides behind the exchange except for the last
// chunk's.
//
// Estimates, 2^31 u32 keys on 2 H200 (HBM ~4.8 TB/s, ~3.5 TB/s reached by a merge; NCCL over
// NVLink ~350 GB/s per direction; one-GPU Onesweep 49.3 ms for 2^31, so ~24.7 ms for 2^30):
//   sort first (this file): local sort 24.7 + splitters ~0.5 (5 rounds of host round trips)
//     + exchange 2 GiB / 350 GB/s = 6.1 + merge 8 GiB / 3.5 TB/s = 2.5, of which K = 8 chunks
//     leave 0.3 unhidden: ~31.6 ms, 1.56x (33.8 ms, 1.46x unchunked). Pairs: 31.4 + 0.5 + 12.3
//     + 0.6 = ~45 ms, 1.40x.
//   partition first (exact splitters from key histograms of the unsorted slice, a stable
//     split by destination, the exchange overlapped with sorting the half that stays, then
//     the received half sorted and the two merged): two 16-bit histogram passes 2.2 + split
//     (reads twice, writes once) 3.2 + max(sort of 2^29 12.4 slowed ~10% by the exchange's
//     HBM traffic, exchange 6.1) + sort of the received 2^29 12.4 + merge 2.5 = ~34 ms.
//   Both lose the same ~6 ms to the exchange of half the data; partition first pays it again
//   in its extra passes, so sort first with the chunked merge is the one built. The 1.7x
//   target (29 ms) needs everything but the local sort in 4.3 ms, under what the exchange of
//   2 GiB alone takes at NCCL's link rate. Measured on 2 H200s (2026-11-23, 4 aligned chunks):
//   local sort 20.95 + splitters 0.68 + exchange 6.54 (329 GB/s) + merge left 0.86 = 29.0 ms,
//   1.44x; pairs 42.8 ms, 1.30x.
#include <algorithm>
#include <chrono>
#include <vector>

#include "core/dist_local.hpp"
#include "core/dist_splitters.hpp"
#include "core/dist_support.hpp"
#include "parprim/distributed.hpp"
#include "parprim/merge.hpp"
#include "parprim/types.hpp"

namespace parprim::dist {

namespace {

template <class K>
detail::key_order order_of(sort_order order, int begin_bit, int end_bit) {
  return {detail::kind_of<K>(), order == sort_order::descending, begin_bit, end_bit - begin_bit};
}

// The exchange in chunks (see the top of the file): enough that the merge of the last chunk,
// the part that cannot hide behind the exchange, is small (1/4 of it); few enough that each
// chunk is a large transfer and that few merges compete with the transfers for the GPU. On 2
// H200s, 2^31 u32 keys (bench/results/2026-11-23-h200x2-exchange.md), whole sort in ms for
// 1 / 2 / 4 / 8 chunks: 34.4 (misaligned runs) / 29.8 / 29.5 / 30.8, pairs 44.8 / 44.4 / 47.3
// for 2 / 4 / 8. Slices under 4 * 2^12 keys get fewer chunks (one per 2^12), so the tests'
// inputs are chunked too. Every rank computes the same number.
constexpr int max_exchange_chunks = 4;
constexpr std::int64_t min_chunk_keys = std::int64_t(1) << 12;

int exchange_chunks(std::int64_t total, int P) {
  return static_cast<int>(std::clamp<std::int64_t>(total / P / min_chunk_keys, 1, max_exchange_chunks));
}

// Elements per 16 bytes of the narrower of key and value: runs leave and arrive at positions
// that are multiples of it, so NCCL copies between 16-byte aligned addresses. On 2 H200s NCCL
// moved 2 GiB each way at 362 GB/s per direction between aligned buffers and at 233 GB/s with
// both sides 4 bytes off (bench distributed's link yardsticks); aligning the sort's runs took
// its exchange of 2^31 u32 keys from 155 to 256 GB/s (8 chunks).
template <class K, class V>
constexpr std::int64_t exchange_alignment() {
  return 16 / static_cast<std::int64_t>(sizeof(K) < sizeof(V) ? sizeof(K) : sizeof(V));
}

// Global ranks where chunks begin: chunk k of rank p starts at offset(p) + k count(p) / K
// (index p K + k), then the total.
std::vector<std::int64_t> chunk_targets(const std::vector<std::int64_t>& counts, int chunks) {
  std::vector<std::int64_t> t;
  std::int64_t offset = 0;
  for (std::int64_t count : counts) {
    for (int k = 0; k < chunks; ++k) t.push_back(offset + count * k / chunks);
    offset += count;
  }
  t.push_back(offset);
  return t;
}

// A sorted run of a chunk: its keys and (pairs) values, somewhere in a buffer.
template <class K, class V>
struct sorted_run {
  K* keys;
  V* values;  // null for keys only
  std::int64_t n;
};

// Merges the chunk's received runs (in rank order, each sorted, anywhere) into one sorted run
// in `out`, stably: a tree of 2-way merges, runs 2i and 2i+1 merged per round, so
// ceil(log2 P) rounds, each one read and one write of the chunk (values moving with their
// keys), instead of a second full radix sort (4 digit passes for 32-bit keys). The rounds
// alternate between `out` and `scratch` (as large, free once the first round has read the
// runs); a result left in scratch is copied to out. Over the whole key the library's merge
// does it (its order is radix_sort's, ties to the first run); a bit range narrower than the
// key needs the merge of detail::local, which compares only the range and takes its two runs
// side by side, so there the runs are first gathered into out.
template <class K, class V>
void merge_chunk(const context& ctx, const std::vector<sorted_run<K, V>>& received,
                 sorted_run<K, V> out, sorted_run<K, V> scratch, sort_order direction,
                 detail::key_order order) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values move as 4- or 8-byte words");
  using run = sorted_run<K, V>;
  const bool whole_key = order.shift == 0 && order.width == static_cast<int>(sizeof(K) * 8);
  const bool with_values = out.values != nullptr;
  auto part = [&](const run& base, std::int64_t at, std::int64_t n) {
    return run{base.keys + at, with_values ? base.values + at : nullptr, n};
  };
  auto copy_to = [&](const run& from, const run& to) {
    ctx.copy(to.keys, from.keys, static_cast<std::size_t>(from.n) * sizeof(K));
    if (with_values) ctx.copy(to.values, from.values, static_cast<std::size_t>(from.n) * sizeof(V));
  };
  auto merge_to = [&](const run& a, const run& b, const run& to) {
    if (!whole_key) {  // a and b side by side
      detail::local::merge_runs<K>(ctx, span<const K>(a.keys, a.n + b.n), a.n, span<K>(to.keys, to.n),
                                   a.values, to.values, with_values ? sizeof(V) : 0, order);
    } else if (with_values) {
      parprim::merge_by_key<K, V>(ctx, span<const K>(a.keys, a.n), span<const V>(a.values, a.n),
                                  span<const K>(b.keys, b.n), span<const V>(b.values, b.n),
                                  span<K>(to.keys, to.n), span<V>(to.values, to.n), direction);
    } else {
      parprim::merge<K>(ctx, span<const K>(a.keys, a.n), span<const K>(b.keys, b.n),
                        span<K>(to.keys, to.n), direction);
    }
  };
  std::vector<run> runs;
  for (const run& r : received)
    if (r.n > 0) runs.push_back(r);
  if (runs.empty()) return;
  if (!whole_key && runs.size() > 1) {
    std::int64_t at = 0;
    for (run& r : runs) {
      const run to = part(out, at, r.n);
      copy_to(r, to);
      r = to;
      at += r.n;
    }
  }
  run target = runs.front().keys == out.keys ? scratch : out;
  while (runs.size() > 1) {
    std::vector<run> merged;
    std::int64_t at = 0;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      const bool pair = i + 1 < runs.size();  // the odd run out (no partner) is copied
      const run to = part(target, at, runs[i].n + (pair ? runs[i + 1].n : 0));
      if (pair) merge_to(runs[i], runs[i + 1], to);
      else copy_to(runs[i], to);
      merged.push_back(to);
      at += to.n;
    }
    runs = std::move(merged);
    target = target.keys == out.keys ? scratch : out;
  }
  if (runs.front().keys != out.keys) copy_to(runs.front(), out);
}

// Chunk k's exchange on rank r: where each rank's run goes in and comes from (element offsets
// and counts for alltoallv_at), the P runs to merge in source-rank order and their total.
template <class K, class V>
struct chunk_plan {
  std::vector<std::int64_t> send_at, send_n, recv_at, recv_n;
  std::vector<sorted_run<K, V>> runs;
  std::int64_t count = 0;
};

// split(p, k, s): rank s's sorted position where chunk k of rank p starts. mine: rank r's
// sorted slice. in_got(at, m): the run of m elements at `at` in the receive buffer. got_at:
// where this chunk's runs start in it (a multiple of align), moved past them.
template <class K, class V, class Split, class InGot>
chunk_plan<K, V> plan_chunk(int r, int P, int k, std::int64_t align, Split split,
                            sorted_run<K, V> mine, InGot in_got, std::int64_t& got_at) {
  chunk_plan<K, V> c;
  c.send_at.assign(P, 0);
  c.send_n.assign(P, 0);
  c.recv_at.assign(P, 0);
  c.recv_n.assign(P, 0);
  c.runs.resize(P);
  for (int p = 0; p < P; ++p) {
    // From rank p: its keys in my chunk k (its last chunk ends where rank p + 1's first
    // begins), at the next aligned place of got with the same lead as at their source.
    const std::int64_t source = split(r, k, p);
    const std::int64_t m = split(r, k + 1, p) - source;
    const std::int64_t lead = source % align;
    if (p == r) {
      // My own run is merged where it lies in the sorted slice; its place in got stays
      // reserved (the merge rounds of 3 or more ranks use the chunk's part of got as scratch).
      c.runs[p] = {mine.keys + source, mine.values ? mine.values + source : nullptr, m};
    } else {
      c.recv_at[p] = got_at;
      c.recv_n[p] = m > 0 ? m + lead : 0;
      c.runs[p] = in_got(got_at + lead, m);
      // To rank p: my keys in its chunk k, from the aligned position at or before their start.
      const std::int64_t from = split(p, k, r);
      const std::int64_t count = split(p, k + 1, r) - from;
      c.send_at[p] = from - from % align;
      c.send_n[p] = count > 0 ? count + from % align : 0;
    }
    if (m > 0) got_at = (got_at + lead + m + align - 1) / align * align;
    c.count += m;
  }
  return c;
}

// Host wall clock since the last lap (the caller waits for its device before each lap).
class phase_clock {
 public:
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - last_).count();
    last_ = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// The whole distributed sort on rank r; values == nullptr for keys only. `phases` (if given)
// receives this rank's step times.
template <class K, class V>
void sort_on_rank(const device_group& g, int r, dist_buffer<K>& keys, dist_buffer<V>* values,
                  sort_order order, int begin_bit, int end_bit, sort_phase_ms* phases) {
  const context& ctx = g.ctx(r);
  const std::int64_t n = keys.count(r);
  sort_phase_ms t;
  phase_clock clock;
  auto local_sort = [&](span<K> k, span<V> v) {
    if (k.size() == 0) return;
    if (values) parprim::radix_sort_pairs<K, V>(ctx, k, v, order, begin_bit, end_bit);
    else parprim::radix_sort<K>(ctx, k, order, begin_bit, end_bit);
  };
  span<V> no_values;
  local_sort(keys.slice(r), values ? span<V>(values->slice(r)) : no_values);
  // Waited for here, not inside the splitter search's first small copy to the host (see
  // exchange_totals in distributed_reduce_scan.cpp).
  ctx.synchronize();
  t.local_sort = clock.lap_ms();
  if (g.size() == 1) {
    if (phases) *phases = t;
    return;
  }

  const int P = g.size();
  const auto key_order = order_of<K>(order, begin_bit, end_bit);
  const int chunks = exchange_chunks(keys.size(), P);
  const auto targets = chunk_targets(keys.counts(), chunks);
  const auto c = detail::exact_splits<K>(g, r, keys.slice(r).view(), keys.counts(), targets, key_order);
  t.splitters = clock.lap_ms();
  auto split = [&](int p, int k, int s) {  // c_s(start of chunk k of rank p)
    return c[(static_cast<std::size_t>(p) * chunks + k) * P + s];
  };

  // Runs are received at 16-byte aligned positions of `got` (see exchange_alignment) and
  // merged into `sorted`, which becomes the slice.
  const std::int64_t align = exchange_alignment<K, V>();
  const std::int64_t got_n = n + static_cast<std::int64_t>(chunks) * P * 2 * align;
  buffer<K> got_keys(ctx, got_n), sorted_keys(ctx, n);
  buffer<V> got_values(ctx, values ? got_n : 0), sorted_values(ctx, values ? n : 0);
  auto in_got = [&](std::int64_t at, std::int64_t count) {
    return sorted_run<K, V>{got_keys.data() + at, values ? got_values.data() + at : nullptr, count};
  };
  const detail::local::side_queue exchange_queue(ctx);
  const context& side = exchange_queue.ctx();
  detail::local::stream_wait(side, ctx);  // the exchange reads the sorted slice
  communicator& comm = g.comm(r);
  std::int64_t got_at = 0;  // where the next chunk's runs go in got (a multiple of align)
  const sorted_run<K, V> mine{keys.slice(r).data(), values ? values->slice(r).data() : nullptr, n};
  for (int k = 0; k < chunks; ++k) {
    const std::int64_t chunk_got = got_at;
    const auto plan = plan_chunk<K, V>(r, P, k, align, split, mine, in_got, got_at);
    comm.alltoallv_at(side, mine.keys, detail::to_bytes(plan.send_at, sizeof(K)),
                      detail::to_bytes(plan.send_n, sizeof(K)), got_keys.data(),
                      detail::to_bytes(plan.recv_at, sizeof(K)), detail::to_bytes(plan.recv_n, sizeof(K)));
    if (values)
      comm.alltoallv_at(side, mine.values, detail::to_bytes(plan.send_at, sizeof(V)),
                        detail::to_bytes(plan.send_n, sizeof(V)), got_values.data(),
                        detail::to_bytes(plan.recv_at, sizeof(V)), detail::to_bytes(plan.recv_n, sizeof(V)));
    // The chunk's runs are each sorted and arrive in source-rank order: a stable merge of
    // them is the global stable order. It runs on ctx while the next chunk crosses on side;
    // its scratch is the chunk's own part of got, which the next chunks do not touch.
    detail::local::stream_wait(ctx, side);
    const std::int64_t chunk_lo = targets[static_cast<std::size_t>(r) * chunks + k] - keys.offset(r);
    const sorted_run<K, V> out{sorted_keys.data() + chunk_lo,
                               values ? sorted_values.data() + chunk_lo : nullptr, plan.count};
    merge_chunk<K, V>(ctx, plan.runs, out, in_got(chunk_got, plan.count), order, key_order);
  }
  side.synchronize();
  t.exchange = clock.lap_ms();
  ctx.synchronize();
  t.merge = clock.lap_ms();
  keys.replace_slice(r, std::move(sorted_keys));
  if (values) values->replace_slice(r, std::move(sorted_values));
  if (phases) *phases = t;
}

template <class K>
int checked_end_bit(const detail::dist_checker& c, int begin_bit, int end_bit) {
  const int bits = static_cast<int>(sizeof(K) * 8);
  const int end = end_bit < 0 ? bits : end_bit;
  if (begin_bit < 0 || end > bits || begin_bit >= end)
    c.fail("bit range [" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) +
           ") is not within [0, " + std::to_string(bits) + ") or is empty");
  return end;
}

void check_order(const detail::dist_checker& c, sort_order order) {
  if (order != sort_order::ascending && order != sort_order::descending)
    c.fail("order=" + std::to_string(static_cast<int>(order)) + " is not a known option");
}

// Room for every rank's step times, or null.
sort_phase_ms* phases_of(const device_group& g, std::vector<sort_phase_ms>* phases) {
  if (!phases) return nullptr;
  phases->assign(static_cast<std::size_t>(g.size()), sort_phase_ms{});
  return phases->data();
}

}  // namespace

template <class K>
void radix_sort(const device_group& g, dist_buffer<K>& keys, sort_order order, int begin_bit,
                int end_bit, std::vector<sort_phase_ms>* phases) {
  detail::dist_checker c(g, "radix_sort");
  c.member(keys, "keys");
  check_order(c, order);
  const int end = checked_end_bit<K>(c, begin_bit, end_bit);
  sort_phase_ms* t = phases_of(g, phases);
  g.run([&](int r) {
    sort_on_rank<K, K>(g, r, keys, nullptr, order, begin_bit, end, t ? t + r : nullptr);
  });
}

template <class K, class V>
void radix_sort_pairs(const device_group& g, dist_buffer<K>& keys, dist_buffer<V>& values,
                      sort_order order, int begin_bit, int end_bit,
                      std::vector<sort_phase_ms>* phases) {
  detail::dist_checker c(g, "radix_sort_pairs");
  c.member(keys, "keys");
  c.member(values, "values");
  c.same_counts(keys, "keys", values, "values");
  check_order(c, order);
  const int end = checked_end_bit<K>(c, begin_bit, end_bit);
  sort_phase_ms* t = phases_of(g, phases);
  g.run([&](int r) {
    sort_on_rank<K, V>(g, r, keys, &values, order, begin_bit, end, t ? t + r : nullptr);
  });
}

#define PARPRIM_INSTANTIATE_PAIRS(K, V)                                                       \
  template void radix_sort_pairs<K, V>(const device_group&, dist_buffer<K>&, dist_buffer<V>&, \
                                       sort_order, int, int, std::vector<sort_phase_ms>*);
#define PARPRIM_INSTANTIATE(K)                                                               \
  template void radix_sort<K>(const device_group&, dist_buffer<K>&, sort_order, int, int,  \
                             std::vector<sort_phase_ms>*);                                 \
  PARPRIM_FOR_EACH_TYPE_WITH(PARPRIM_INSTANTIATE_PAIRS, K)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_PAIRS

}  // namespace parprim::dist
