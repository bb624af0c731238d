// CPU yardsticks of `parprim bench cpu`: reduce, exclusive scan, copy_if and a 256-bin
// histogram written the natural way with TBB (parallel_reduce, parallel_scan, a
// parallel_scan-based compaction, enumerable_thread_specific histograms), the C++17 parallel
// algorithms (libstdc++ runs std::execution::par on TBB) and the GNU parallel mode
// (__gnu_parallel::accumulate and partial_sum; it has no exclusive scan, compaction or
// histogram). Every function runs on `threads` threads. Header-only, plain C++; without TBB
// the TBB and std::execution functions are absent and callers check have_tbb.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <omp.h>

#include <parallel/numeric>

#if PARPRIM_HAVE_TBB
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/parallel_scan.h>
#include <tbb/task_arena.h>

#include <execution>
#include <numeric>
#endif

#include "yardsticks/cpu_sort.hpp"

namespace parprim::bench::yardstick {

// The GNU mode takes its thread count from omp_get_max_threads(); set it for the call.
template <class F>
auto with_omp_threads(int threads, F&& f) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(threads);
  auto r = f();
  omp_set_num_threads(before);
  return r;
}

inline std::uint32_t gnu_parallel_sum(const std::uint32_t* x, std::int64_t n, int threads) {
  return with_omp_threads(threads, [&] {
    return __gnu_parallel::accumulate(x, x + n, std::uint32_t(0), std::plus<std::uint32_t>(),
                                      __gnu_parallel::parallel_unbalanced);
  });
}

// Inclusive: the GNU mode has no exclusive scan.
inline void gnu_parallel_inclusive_sum(const std::uint32_t* x, std::uint32_t* y, std::int64_t n,
                                       int threads) {
  with_omp_threads(threads, [&] {
    __gnu_parallel::partial_sum(x, x + n, y, std::plus<std::uint32_t>());
    return 0;
  });
}

#if PARPRIM_HAVE_TBB

template <class F>
void in_arena(int threads, F&& f) {
  tbb::task_arena arena(threads);
  arena.execute(f);
}

inline std::uint32_t tbb_reduce_sum(const std::uint32_t* x, std::int64_t n) {
  return tbb::parallel_reduce(
      tbb::blocked_range<std::int64_t>(0, n), std::uint32_t(0),
      [x](const tbb::blocked_range<std::int64_t>& r, std::uint32_t acc) {
        for (std::int64_t i = r.begin(); i < r.end(); ++i) acc += x[i];
        return acc;
      },
      std::plus<std::uint32_t>());
}

// The textbook parallel_scan body: a pre-scan pass that only sums and a final pass that writes.
inline void tbb_exclusive_sum(const std::uint32_t* x, std::uint32_t* y, std::int64_t n) {
  tbb::parallel_scan(
      tbb::blocked_range<std::int64_t>(0, n), std::uint32_t(0),
      [x, y](const tbb::blocked_range<std::int64_t>& r, std::uint32_t sum, bool is_final) {
        if (is_final) {
          for (std::int64_t i = r.begin(); i < r.end(); ++i) {
            y[i] = sum;
            sum += x[i];
          }
        } else {
          for (std::int64_t i = r.begin(); i < r.end(); ++i) sum += x[i];
        }
        return sum;
      },
      std::plus<std::uint32_t>());
}

// Compaction by parallel_scan over the selection flags: the final pass writes each selected
// element at its running count. Returns the count.
template <class Pred>
std::int64_t tbb_copy_if(const std::uint32_t* x, std::uint32_t* y, std::int64_t n, Pred pred) {
  return tbb::parallel_scan(
      tbb::blocked_range<std::int64_t>(0, n), std::int64_t(0),
      [x, y, pred](const tbb::blocked_range<std::int64_t>& r, std::int64_t count, bool is_final) {
        if (is_final) {
          for (std::int64_t i = r.begin(); i < r.end(); ++i)
            if (pred(x[i])) y[count++] = x[i];
        } else {
          for (std::int64_t i = r.begin(); i < r.end(); ++i) count += pred(x[i]) ? 1 : 0;
        }
        return count;
      },
      std::plus<std::int64_t>());
}

// Per-thread histograms (enumerable_thread_specific), added at the end. `bin_of` returns the
// bin or a value >= bins for samples outside the range.
template <class BinOf>
void tbb_histogram(const std::uint32_t* x, std::int64_t n, std::uint64_t* out, std::int64_t bins,
                   BinOf bin_of) {
  tbb::enumerable_thread_specific<std::vector<std::uint64_t>> local(
      [bins] { return std::vector<std::uint64_t>(static_cast<std::size_t>(bins), 0); });
  tbb::parallel_for(tbb::blocked_range<std::int64_t>(0, n),
                    [&](const tbb::blocked_range<std::int64_t>& r) {
                      std::uint64_t* h = local.local().data();
                      for (std::int64_t i = r.begin(); i < r.end(); ++i) {
                        std::uint32_t b = bin_of(x[i]);
                        if (b < bins) ++h[b];
                      }
                    });
  std::fill(out, out + bins, std::uint64_t(0));
  for (const auto& h : local)
    for (std::int64_t b = 0; b < bins; ++b) out[b] += h[static_cast<std::size_t>(b)];
}

inline std::uint32_t std_par_reduce_sum(const std::uint32_t* x, std::int64_t n) {
  return std::reduce(std::execution::par, x, x + n, std::uint32_t(0));
}

inline void std_par_exclusive_sum(const std::uint32_t* x, std::uint32_t* y, std::int64_t n) {
  std::exclusive_scan(std::execution::par, x, x + n, y, std::uint32_t(0));
}

template <class Pred>
std::int64_t std_par_copy_if(const std::uint32_t* x, std::uint32_t* y, std::int64_t n, Pred pred) {
  return std::copy_if(std::execution::par, x, x + n, y, pred) - y;
}

#endif  // PARPRIM_HAVE_TBB

}  // namespace parprim::bench::yardstick
