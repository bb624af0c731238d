// The CPU backend's parallel loop as seen from header code: one call per fixed-size block,
// run on the library's OpenMP threads. The loop itself is compiled into the library
// (src/cpu/parallel.cpp), so a caller's file needs no OpenMP flags; the caller's body is
// reached through one indirect call per block (blocks are tens of thousands of elements).
//
// Blocks depend on n and `block` only, never on the thread count: algorithms that combine
// per-block results in block order are bitwise reproducible on any number of threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <type_traits>

#include "parprim/context.hpp"

#if defined(_OPENMP)
#define PARPRIM_SIMD _Pragma("omp simd")
#else
#define PARPRIM_SIMD
#endif

namespace parprim::detail::cpu {

using block_body = void (*)(void* state, std::int64_t b, std::int64_t begin, std::int64_t end);

// Calls body(state, b, b * block, min(n, (b + 1) * block)) for every block b, in parallel.
// Blocks start in increasing order (each thread takes the next one from a shared counter), so
// a block may wait for a result of a lower-numbered block (block_chain below) without
// deadlock: every lower block is already taken by a running thread, and the lowest unfinished
// block never waits.
void run_blocks(const context& ctx, std::int64_t n, std::int64_t block, block_body body,
                void* state);

inline std::int64_t block_count(std::int64_t n, std::int64_t block) {
  return (n + block - 1) / block;
}

template <class F>
void blocked_for(const context& ctx, std::int64_t n, std::int64_t block, F&& f) {
  using Fn = std::remove_reference_t<F>;
  run_blocks(
      ctx, n, block,
      [](void* state, std::int64_t b, std::int64_t begin, std::int64_t end) {
        (*static_cast<Fn*>(state))(b, begin, end);
      },
      const_cast<void*>(static_cast<const void*>(&f)));
}

// The running value handed from block to block in a single-pass (chained) scan under
// blocked_for: block b waits for the value block b - 1 published, combines its own
// total, and publishes the result at once, before its second, cache-hot pass over its
// elements. Every block combines in block order, so the values depend on the blocks only,
// never on the thread count. The handoff costs one cache-line transfer per block (blocks hold
// 2^16 elements, tens of microseconds of work), so the chain never holds the threads up.
template <class T>
class block_chain {
 public:
  explicit block_chain(std::int64_t blocks)
      : ready_(new std::atomic<bool>[static_cast<std::size_t>(blocks)]),
        value_(new T[static_cast<std::size_t>(blocks)]) {
    for (std::int64_t b = 0; b < blocks; ++b) ready_[b].store(false, std::memory_order_relaxed);
  }
  // The value block b - 1 published (b >= 1). Spins briefly, then yields: on a loaded machine
  // the publishing thread may be descheduled, and spinning would only keep it off the core.
  T wait(std::int64_t b) const {
    for (int spins = 0; !ready_[b - 1].load(std::memory_order_acquire); ++spins)
      if (spins > spin_limit) std::this_thread::yield();
    return value_[b - 1];
  }
  void publish(std::int64_t b, const T& v) {
    value_[b] = v;
    ready_[b].store(true, std::memory_order_release);
  }

 private:
  static constexpr int spin_limit = 1 << 10;
  std::unique_ptr<std::atomic<bool>[]> ready_;
  std::unique_ptr<T[]> value_;
};

}  // namespace parprim::detail::cpu
