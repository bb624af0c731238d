// Distributed radix sort: local sort, exact splitters, then the all-to-all of the sorted runs
// in chunks, each chunk's runs merged while the next chunk crosses the links.
//
// Splitters (core/dist_splitters.hpp): c_s(b), how many of rank s's sorted keys come before
// global rank b of the stable order (key, source rank, source position), the same on every rank.
//
// Chunks: rank p's output range is cut into K equal chunks (targets offset(p) + k count(p) / K),
// so chunk k of rank p gets from every rank s the contiguous run [c_s(t_k), c_s(t_{k+1})) of
// s's sorted slice. The K exchanges go on a second stream of each GPU; chunk k is merged on
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
//   2 GiB alone takes at NCCL's link rate.
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
// the part that cannot hide behind the exchange, is small (1/8 of it); few enough that each
// chunk is a large transfer (2^31 keys on 2 GPUs: 2^27 keys, 512 MiB a chunk, far above the
// few MiB at which NCCL reaches its link rate). Slices under 8 * 2^12 keys get fewer chunks
// (one per 2^12), so the tests' inputs are chunked too. Every rank computes the same number.
constexpr int max_exchange_chunks = 8;
constexpr std::int64_t min_chunk_keys = std::int64_t(1) << 12;

int exchange_chunks(std::int64_t total, int P) {
  return static_cast<int>(std::clamp<std::int64_t>(total / P / min_chunk_keys, 1, max_exchange_chunks));
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

// Rounds of 2-way merges that turn P runs into one.
int merge_rounds(int P) {
  int rounds = 0;
  for (int runs = P; runs > 1; runs = (runs + 1) / 2) ++rounds;
  return rounds;
}

// Two slice-sized buffers (each with its values; null for keys only) between which the
// merge rounds of a chunk alternate.
template <class K, class V>
struct ping_pong {
  K* keys[2];
  V* values[2];
};

// Merges the sorted runs of buffer 0 that start at position lo (run s holds run_sizes[s]
// keys, in rank order) into one sorted run, stably, leaving it in buffer `result`: a tree of
// 2-way merges, runs 2i and 2i+1 merged per round, so ceil(log2 P) rounds, each one read and
// one write of the chunk (values moving with their keys), instead of a second full radix
// sort (4 digit passes for 32-bit keys). Over the whole key the library's merge does it (its
// order is radix_sort's, ties to the first run); a bit range narrower than the key needs the
// merge of detail::local, which compares only the range.
template <class K, class V>
void merge_chunk(const context& ctx, const ping_pong<K, V>& buf, std::int64_t lo,
                 const std::vector<std::int64_t>& run_sizes, int result, sort_order direction,
                 detail::key_order order) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values move as 4- or 8-byte words");
  std::vector<std::int64_t> runs{lo};  // run boundaries, non-empty runs only
  for (std::int64_t c : run_sizes)
    if (c > 0) runs.push_back(runs.back() + c);
  const bool whole_key = order.shift == 0 && order.width == static_cast<int>(sizeof(K) * 8);
  const bool with_values = buf.values[0] != nullptr;
  int at = 0;  // the buffer that holds the runs
  auto copy_run = [&](std::int64_t from, std::int64_t to, int src, int dst) {
    const auto len = static_cast<std::size_t>(to - from);
    ctx.copy(buf.keys[dst] + from, buf.keys[src] + from, len * sizeof(K));
    if (with_values) ctx.copy(buf.values[dst] + from, buf.values[src] + from, len * sizeof(V));
  };
  auto merge_two = [&](std::int64_t from, std::int64_t mid, std::int64_t to) {
    const K* k = buf.keys[at];
    K* k_out = buf.keys[1 - at];
    const V* v = buf.values[at];
    V* v_out = buf.values[1 - at];
    if (!whole_key) {
      detail::local::merge_runs<K>(ctx, span<const K>(k + from, to - from), mid - from,
                                   span<K>(k_out + from, to - from), v ? v + from : nullptr,
                                   v ? v_out + from : nullptr, v ? sizeof(V) : 0, order);
    } else if (v) {
      parprim::merge_by_key<K, V>(
          ctx, span<const K>(k + from, mid - from), span<const V>(v + from, mid - from),
          span<const K>(k + mid, to - mid), span<const V>(v + mid, to - mid),
          span<K>(k_out + from, to - from), span<V>(v_out + from, to - from), direction);
    } else {
      parprim::merge<K>(ctx, span<const K>(k + from, mid - from), span<const K>(k + mid, to - mid),
                        span<K>(k_out + from, to - from), direction);
    }
  };
  while (runs.size() > 2) {
    std::vector<std::int64_t> merged{runs.front()};
    for (std::size_t a = 0; a + 1 < runs.size(); a += 2) {
      if (a + 2 < runs.size()) {
        merge_two(runs[a], runs[a + 1], runs[a + 2]);
        merged.push_back(runs[a + 2]);
      } else {  // the odd run out (no partner) is copied
        copy_run(runs[a], runs[a + 1], at, 1 - at);
        merged.push_back(runs[a + 1]);
      }
    }
    at = 1 - at;
    runs = std::move(merged);
  }
  // Chunks with fewer non-empty runs than ranks took fewer rounds.
  if (at != result && runs.back() > runs.front()) copy_run(runs.front(), runs.back(), at, result);
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

  // Buffer 0 receives the runs; the merge rounds alternate with buffer 1 and end in `result`.
  buffer<K> got_keys(ctx, n), spare_keys(ctx, n);
  buffer<V> got_values(ctx, values ? n : 0), spare_values(ctx, values ? n : 0);
  const ping_pong<K, V> buf{{got_keys.data(), spare_keys.data()},
                            {values ? got_values.data() : nullptr, values ? spare_values.data() : nullptr}};
  const int result = merge_rounds(P) % 2;
  const detail::local::side_queue exchange_queue(ctx);
  const context& side = exchange_queue.ctx();
  detail::local::stream_wait(side, ctx);  // the exchange reads the sorted slice
  communicator& comm = g.comm(r);
  for (int k = 0; k < chunks; ++k) {
    std::vector<std::int64_t> send_at(P), send_n(P), recv_at(P), recv_n(P);
    const std::int64_t chunk_lo = targets[static_cast<std::size_t>(r) * chunks + k] - keys.offset(r);
    std::int64_t pos = chunk_lo;
    for (int p = 0; p < P; ++p) {
      // Chunk k of rank p: its last chunk ends where rank p + 1's first begins.
      send_at[p] = split(p, k, r);
      send_n[p] = split(p, k + 1, r) - send_at[p];
      recv_n[p] = split(r, k + 1, p) - split(r, k, p);
      recv_at[p] = pos;
      pos += recv_n[p];
    }
    // The rank's own run is copied on ctx, beside the exchange (the communicator would queue
    // it on side, ahead of the chunk's transfers).
    auto copy_own = [&](auto* to, const auto* from) {
      ctx.copy(to + recv_at[r], from + send_at[r], static_cast<std::size_t>(recv_n[r]) * sizeof(*to));
    };
    if (recv_n[r] > 0) {
      copy_own(got_keys.data(), keys.slice(r).data());
      if (values) copy_own(got_values.data(), values->slice(r).data());
    }
    std::vector<std::int64_t> peer_send_n = send_n, peer_recv_n = recv_n;
    peer_send_n[r] = peer_recv_n[r] = 0;
    comm.alltoallv_at(side, keys.slice(r).data(), detail::to_bytes(send_at, sizeof(K)),
                      detail::to_bytes(peer_send_n, sizeof(K)), got_keys.data(),
                      detail::to_bytes(recv_at, sizeof(K)), detail::to_bytes(peer_recv_n, sizeof(K)));
    if (values)
      comm.alltoallv_at(side, values->slice(r).data(), detail::to_bytes(send_at, sizeof(V)),
                        detail::to_bytes(peer_send_n, sizeof(V)), got_values.data(),
                        detail::to_bytes(recv_at, sizeof(V)), detail::to_bytes(peer_recv_n, sizeof(V)));
    // The chunk's runs are each sorted and arrive in source-rank order: a stable merge of
    // them is the global stable order. It runs on ctx while the next chunk crosses on side.
    detail::local::stream_wait(ctx, side);
    merge_chunk<K, V>(ctx, buf, chunk_lo, recv_n, result, order, key_order);
  }
  side.synchronize();
  t.exchange = clock.lap_ms();
  ctx.synchronize();
  t.merge = clock.lap_ms();
  keys.replace_slice(r, std::move(result == 0 ? got_keys : spare_keys));
  if (values) values->replace_slice(r, std::move(result == 0 ? got_values : spare_values));
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
