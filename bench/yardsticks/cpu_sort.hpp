// CPU yardsticks of the sort suite: the GNU libstdc++ parallel mode (__gnu_parallel::sort, an
// OpenMP multiway mergesort) and, when found at configure time, TBB's parallel_sort, both on
// the session's thread count. Header-only: plain C++, built with or without CUDA.
#pragma once

#include <parallel/algorithm>

#if PARPRIM_HAVE_TBB
#include <tbb/parallel_sort.h>
#include <tbb/task_arena.h>
#endif

namespace parprim::bench::yardstick {

#if PARPRIM_HAVE_TBB
inline constexpr bool have_tbb = true;
#else
inline constexpr bool have_tbb = false;
#endif

template <class It, class Comp>
void gnu_parallel_sort(It begin, It end, Comp comp, int threads) {
  __gnu_parallel::sort(begin, end, comp, __gnu_parallel::default_parallel_tag(threads));
}

// Without TBB the call does nothing; callers check have_tbb and leave the column empty.
template <class It, class Comp>
void tbb_parallel_sort(It begin, It end, Comp comp, int threads) {
#if PARPRIM_HAVE_TBB
  tbb::task_arena arena(threads);
  arena.execute([&] { tbb::parallel_sort(begin, end, comp); });
#else
  (void)begin, (void)end, (void)comp, (void)threads;
#endif
}

}  // namespace parprim::bench::yardstick
