// CPU gather and scatter (single and multi-pass), and the host's bandwidths for the
// multi-pass scatter's cost model.
//
// Indices are checked by first_outside() before the front end lets anything be written, so
// the loops here index without tests.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <vector>

#include "core/hash_permutation.hpp"
#include "cpu/gather_scatter_backend.hpp"
#include "cpu/parallel.hpp"
#include "parprim/types.hpp"

namespace parprim::cpu_backend {

namespace {
constexpr std::int64_t check_block = 1 << 16;
}

template <class I>
std::int64_t first_outside(const context& ctx, span<const I> indices, std::int64_t size) {
  const std::int64_t n = indices.size();
  const I* idx = indices.data();
  const std::uint64_t bound = static_cast<std::uint64_t>(size);
  // Each block finds its own first bad position; the lowest block with one wins.
  std::vector<std::int64_t> first(static_cast<std::size_t>(block_count(n, check_block)), -1);
  blocked_for(ctx, n, check_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
    for (std::int64_t i = s; i < e; ++i) {
      // A negative index becomes a huge unsigned one: one comparison covers both ends.
      if (static_cast<std::uint64_t>(static_cast<std::int64_t>(idx[i])) >= bound) {
        first[static_cast<std::size_t>(b)] = i;
        return;
      }
    }
  });
  for (std::int64_t f : first)
    if (f >= 0) return f;
  return -1;
}

template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out) {
  const T* v = values.data();
  const I* idx = indices.data();
  T* o = out.data();
  parallel_for(ctx, indices.size(), [&](std::int64_t i) { o[i] = v[idx[i]]; });
}

template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             int passes) {
  const T* v = values.data();
  const I* idx = indices.data();
  T* o = out.data();
  const std::int64_t n = values.size();
  if (passes <= 1) {
    parallel_for(ctx, n, [&](std::int64_t i) { o[idx[i]] = v[i]; });
    return;
  }
  // Pass p writes only indices in [p * slice, (p + 1) * slice): that part of `out` stays in
  // the last-level cache while the whole input streams by.
  const std::uint64_t slice = static_cast<std::uint64_t>((out.size() + passes - 1) / passes);
  for (int p = 0; p < passes; ++p) {
    const std::uint64_t begin = slice * static_cast<std::uint64_t>(p);
    parallel_for(ctx, n, [&](std::int64_t i) {
      std::uint64_t k = static_cast<std::uint64_t>(static_cast<std::int64_t>(idx[i]));
      if (k - begin < slice) o[k] = v[i];
    });
  }
}

namespace {

using clock = std::chrono::steady_clock;

double seconds_of(clock::time_point t0) {
  return std::chrono::duration<double>(clock::now() - t0).count();
}

// Random writes of m elements of V into the first `elems` elements of `region`, each
// position at most once; returns bytes written per second (best of two runs).
template <class V>
double random_write_rate(const context& ctx, V* region, std::int64_t elems, std::int64_t m) {
  auto perm = detail::hash_permutation::of(static_cast<std::uint64_t>(elems));
  double best = 0;
  for (int rep = 0; rep < 2; ++rep) {
    auto t0 = clock::now();
    parallel_for(ctx, m, [&](std::int64_t i) { region[perm(static_cast<std::uint64_t>(i))] = V(i); });
    best = std::max(best, double(m) * sizeof(V) / seconds_of(t0));
  }
  return best;
}

}  // namespace

detail::scatter_bandwidths measure_scatter_bandwidths(const context& ctx) {
  detail::scatter_bandwidths bw;
  constexpr std::int64_t max_bytes = std::int64_t(1) << 27;
  std::vector<std::uint64_t> buf(static_cast<std::size_t>(max_bytes / 8));
  std::memset(buf.data(), 1, buf.size() * 8);  // fault every page in before timing

  // B_seq: a parallel sum over the whole buffer, best of three.
  {
    const std::int64_t n = static_cast<std::int64_t>(buf.size());
    std::vector<std::uint64_t> part(static_cast<std::size_t>(block_count(n, check_block)));
    for (int rep = 0; rep < 3; ++rep) {
      auto t0 = clock::now();
      blocked_for(ctx, n, check_block, [&](std::int64_t b, std::int64_t s, std::int64_t e) {
        std::uint64_t acc = 0;
        for (std::int64_t i = s; i < e; ++i) acc += buf[static_cast<std::size_t>(i)];
        part[static_cast<std::size_t>(b)] = acc;
      });
      bw.seq_bytes_per_s = std::max(bw.seq_bytes_per_s, double(max_bytes) / seconds_of(t0));
    }
  }
  // The fixed cost of one pass: an (almost) empty parallel loop.
  {
    const int reps = 20;
    std::vector<int> sink(static_cast<std::size_t>(std::max(1, ctx.threads())));
    auto t0 = clock::now();
    for (int r = 0; r < reps; ++r) {
      int t = std::max(1, ctx.threads());
#pragma omp parallel num_threads(t) if (t > 1)
      sink[static_cast<std::size_t>(omp_get_thread_num()) % sink.size()] += r;
    }
    bw.launch_s = seconds_of(t0) / reps;
  }
  // B_rand(S) for S = 64 KiB .. 128 MiB. At most 2^21 writes per size: the rate of random
  // writes into a region does not need the whole region written to show.
  for (std::int64_t bytes = std::int64_t(1) << 16; bytes <= max_bytes; bytes *= 2) {
    bw.region_bytes.push_back(double(bytes));
    bw.rand4.push_back(random_write_rate(ctx, reinterpret_cast<std::uint32_t*>(buf.data()),
                                         bytes / 4, std::min<std::int64_t>(bytes / 4, 1 << 21)));
    bw.rand8.push_back(random_write_rate(ctx, buf.data(), bytes / 8,
                                         std::min<std::int64_t>(bytes / 8, 1 << 21)));
  }
  return bw;
}

#define PARPRIM_INSTANTIATE_I(T, I)                                                          \
  template void gather<T, I>(const context&, span<const T>, span<const I>, span<T>);         \
  template void scatter<T, I>(const context&, span<const T>, span<const I>, span<T>, int);
#define PARPRIM_INSTANTIATE(T)           \
  PARPRIM_INSTANTIATE_I(T, std::int32_t) \
  PARPRIM_INSTANTIATE_I(T, std::int64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_I
template std::int64_t first_outside<std::int32_t>(const context&, span<const std::int32_t>, std::int64_t);
template std::int64_t first_outside<std::int64_t>(const context&, span<const std::int64_t>, std::int64_t);

}  // namespace parprim::cpu_backend
