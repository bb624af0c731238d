// Distributed radix sort: local sort, exact splitters, one all-to-all, merge of the runs.
//
// Output slice r must hold global ranks [offset(r), offset(r) + count(r)) of the stable order
// (key, source rank, source position). For each boundary b = offset(p), p = 1..P-1, we need
// c_s(b): how many of rank s's sorted keys come before global rank b. Let F(v) be the number
// of keys, over all ranks, whose ordered field is <= v. The boundary's key is the smallest v
// with F(v) >= b, found by a (1 + fanout)-ary search over the field's range: each round every
// rank counts its keys at or below `fanout` candidates per boundary (binary searches in its
// sorted slice), one allgather sums them, and every rank narrows the same interval. Keys below
// v all go before b; of the keys equal to v, the lowest ranks' go first, which is what
// stability asks for. Rank s then sends [c_s(offset(p)), c_s(offset(p+1))) to rank p.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

#include "core/dist_local.hpp"
#include "core/dist_support.hpp"
#include "parprim/distributed.hpp"
#include "parprim/merge.hpp"
#include "parprim/types.hpp"

namespace parprim::dist {

namespace {

// Candidates per boundary per round: 255 split an interval 256 ways, 8 bits per round, so 4
// rounds (each a host round trip and an allgather, tens of microseconds) for 32-bit keys
// instead of 8 with 15; the extra binary searches (255 per boundary, log2 n steps each)
// are one small kernel either way.
constexpr int splitter_fanout = 255;

struct boundary_search {
  std::int64_t target = 0;  // global rank b
  std::uint64_t lo = 0, hi = 0;  // the answer lies in [lo, hi]
  std::vector<std::uint64_t> candidates;
};

std::vector<std::uint64_t> candidates_in(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> c;
  const std::uint64_t span = hi - lo;
  if (span <= static_cast<std::uint64_t>(splitter_fanout)) {
    for (std::uint64_t v = lo; v < hi; ++v) c.push_back(v);
  } else {
    const std::uint64_t step = span / (splitter_fanout + 1);
    for (int j = 1; j <= splitter_fanout; ++j) c.push_back(lo + step * static_cast<std::uint64_t>(j));
  }
  return c;
}

// c[p * P + s] = c_s(offset(p)) for every boundary p in 0..P and every rank s.
template <class K>
std::vector<std::int64_t> exact_splits(const device_group& g, int r, span<const K> sorted,
                                       const std::vector<std::int64_t>& counts,
                                       detail::key_order order) {
  const int P = g.size();
  communicator& comm = g.comm(r);
  std::vector<std::int64_t> offsets(static_cast<std::size_t>(P) + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), offsets.begin() + 1);
  const std::int64_t total = offsets.back();
  const std::uint64_t top =
      order.width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << order.width) - 1;

  std::vector<boundary_search> open;
  for (int p = 1; p < P; ++p)
    if (offsets[p] > 0 && offsets[p] < total) open.push_back({offsets[p], 0, top, {}});
  auto sum_over_ranks = [&](const std::vector<std::uint64_t>& queries) {
    const auto all = detail::allgather_vector(comm, detail::local::count_at_most<K>(
                                                        g.ctx(r), sorted, order, queries));
    std::vector<std::int64_t> per_rank_sum(queries.size(), 0);
    for (int s = 0; s < P; ++s)
      for (std::size_t j = 0; j < queries.size(); ++j)
        per_rank_sum[j] += all[static_cast<std::size_t>(s) * queries.size() + j];
    return std::make_pair(per_rank_sum, all);
  };

  for (;;) {
    std::vector<std::uint64_t> queries;
    for (auto& b : open) {
      b.candidates = b.lo < b.hi ? candidates_in(b.lo, b.hi) : std::vector<std::uint64_t>{};
      queries.insert(queries.end(), b.candidates.begin(), b.candidates.end());
    }
    if (queries.empty()) break;
    const auto totals = sum_over_ranks(queries).first;
    std::size_t q = 0;
    for (auto& b : open)
      for (std::uint64_t v : b.candidates) {
        if (totals[q++] >= b.target) b.hi = std::min(b.hi, v);
        else b.lo = std::max(b.lo, v + 1);
      }
  }

  // Per boundary: every rank's count at or below v and below v (= at or below v - 1).
  std::vector<std::uint64_t> queries;
  for (const auto& b : open) {
    queries.push_back(b.lo);
    queries.push_back(b.lo > 0 ? b.lo - 1 : 0);
  }
  const auto all = queries.empty() ? std::vector<std::int64_t>{} : sum_over_ranks(queries).second;
  std::vector<std::int64_t> c(static_cast<std::size_t>(P + 1) * P, 0);
  std::size_t next_open = 0;
  for (int p = 0; p <= P; ++p) {
    for (int s = 0; s < P; ++s) {
      std::int64_t& out = c[static_cast<std::size_t>(p) * P + s];
      if (offsets[p] == 0) out = 0;
      else if (offsets[p] >= total) out = counts[s];
    }
    if (p == 0 || p == P || offsets[p] == 0 || offsets[p] >= total) continue;
    const auto& b = open[next_open];
    std::int64_t need = b.target;
    std::vector<std::int64_t> le(P), lt(P);
    for (int s = 0; s < P; ++s) {
      const std::size_t base = static_cast<std::size_t>(s) * queries.size() + 2 * next_open;
      le[s] = all[base];
      lt[s] = b.lo > 0 ? all[base + 1] : 0;
      need -= lt[s];
    }
    for (int s = 0; s < P; ++s) {
      const std::int64_t take = std::clamp<std::int64_t>(need, 0, le[s] - lt[s]);
      c[static_cast<std::size_t>(p) * P + s] = lt[s] + take;
      need -= take;
    }
    ++next_open;
  }
  return c;
}

template <class K>
detail::key_order order_of(sort_order order, int begin_bit, int end_bit) {
  return {detail::kind_of<K>(), order == sort_order::descending, begin_bit, end_bit - begin_bit};
}

// Merges the P sorted runs of `keys` (run p holds run_sizes[p] keys, in rank order) into one
// sorted run, stably, with a tree of 2-way merges: runs 2i and 2i+1 are merged per round, so
// ceil(log2 P) rounds, each one read and one write of the slice (values moving with their
// keys), instead of a second full radix sort (4 digit passes for 32-bit keys). Over the whole
// key the library's merge does it (its order is radix_sort's, ties to the first run); a bit
// range narrower than the key needs the merge of detail::local, which compares only the range.
template <class K, class V>
void merge_received(const context& ctx, buffer<K>& keys, buffer<V>* values,
                    const std::vector<std::int64_t>& run_sizes, sort_order direction,
                    detail::key_order order) {
  static_assert(sizeof(V) == 4 || sizeof(V) == 8, "values move as 4- or 8-byte words");
  const std::int64_t n = keys.size();
  std::vector<std::int64_t> runs;  // run boundaries, non-empty runs only
  runs.push_back(0);
  for (std::int64_t c : run_sizes)
    if (c > 0) runs.push_back(runs.back() + c);
  if (runs.size() <= 2) return;  // one run (or none): already sorted
  const bool whole_key = order.shift == 0 && order.width == static_cast<int>(sizeof(K) * 8);
  buffer<K> spare(ctx, n);
  buffer<V> spare_values(ctx, values ? n : 0);
  auto merge_two = [&](std::int64_t lo, std::int64_t mid, std::int64_t hi) {
    const K* k = keys.data();
    K* k_out = spare.data();
    const V* v = values ? values->data() : nullptr;
    V* v_out = spare_values.data();
    if (!whole_key) {
      detail::local::merge_runs<K>(ctx, span<const K>(k + lo, hi - lo), mid - lo,
                                   span<K>(k_out + lo, hi - lo), v ? v + lo : nullptr,
                                   v ? v_out + lo : nullptr, v ? sizeof(V) : 0, order);
    } else if (v) {
      parprim::merge_by_key<K, V>(ctx, span<const K>(k + lo, mid - lo), span<const V>(v + lo, mid - lo),
                                  span<const K>(k + mid, hi - mid), span<const V>(v + mid, hi - mid),
                                  span<K>(k_out + lo, hi - lo), span<V>(v_out + lo, hi - lo),
                                  direction);
    } else {
      parprim::merge<K>(ctx, span<const K>(k + lo, mid - lo), span<const K>(k + mid, hi - mid),
                        span<K>(k_out + lo, hi - lo), direction);
    }
  };
  while (runs.size() > 2) {
    std::vector<std::int64_t> merged{0};
    for (std::size_t a = 0; a + 1 < runs.size(); a += 2) {
      if (a + 2 < runs.size()) {
        merge_two(runs[a], runs[a + 1], runs[a + 2]);
        merged.push_back(runs[a + 2]);
      } else {  // the odd run out (no partner) is copied
        const std::int64_t lo = runs[a], len = runs[a + 1] - lo;
        ctx.copy(spare.data() + lo, keys.data() + lo, static_cast<std::size_t>(len) * sizeof(K));
        if (values)
          ctx.copy(spare_values.data() + lo, values->data() + lo,
                   static_cast<std::size_t>(len) * sizeof(V));
        merged.push_back(runs[a + 1]);
      }
    }
    std::swap(keys, spare);
    if (values) std::swap(*values, spare_values);
    runs = std::move(merged);
  }
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
  const auto c = exact_splits<K>(g, r, keys.slice(r).view(), keys.counts(), key_order);
  t.splitters = clock.lap_ms();
  std::vector<std::int64_t> send(P), recv(P);
  for (int p = 0; p < P; ++p) {
    send[p] = c[static_cast<std::size_t>(p + 1) * P + r] - c[static_cast<std::size_t>(p) * P + r];
    recv[p] = c[static_cast<std::size_t>(r + 1) * P + p] - c[static_cast<std::size_t>(r) * P + p];
  }
  buffer<K> got_keys(ctx, n);
  g.comm(r).alltoallv(ctx, keys.slice(r).data(), detail::to_bytes(send, sizeof(K)),
                      got_keys.data(), detail::to_bytes(recv, sizeof(K)));
  buffer<V> got_values(ctx, values ? n : 0);
  if (values)
    g.comm(r).alltoallv(ctx, values->slice(r).data(), detail::to_bytes(send, sizeof(V)),
                        got_values.data(), detail::to_bytes(recv, sizeof(V)));
  ctx.synchronize();
  t.exchange = clock.lap_ms();
  // The received runs are each sorted and arrive in source-rank order: a stable merge of them
  // is the global stable order.
  merge_received<K, V>(ctx, got_keys, values ? &got_values : nullptr, recv, order, key_order);
  ctx.synchronize();
  t.merge = clock.lap_ms();
  keys.replace_slice(r, std::move(got_keys));
  if (values) values->replace_slice(r, std::move(got_values));
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
  PARPRIM_INSTANTIATE_PAIRS(K, std::int32_t)                                                 \
  PARPRIM_INSTANTIATE_PAIRS(K, std::uint32_t)                                                \
  PARPRIM_INSTANTIATE_PAIRS(K, std::int64_t)                                                 \
  PARPRIM_INSTANTIATE_PAIRS(K, std::uint64_t)                                                \
  PARPRIM_INSTANTIATE_PAIRS(K, float)                                                        \
  PARPRIM_INSTANTIATE_PAIRS(K, double)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_PAIRS

}  // namespace parprim::dist
