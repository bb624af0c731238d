// The state behind a parprim::context handle. Internal: backends and front ends only.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "parprim/context.hpp"

namespace parprim::cuda_rt {
struct verdict_slot;  // cuda/runtime/verdict_slot.hpp
}

namespace parprim::detail {

struct context_state {
  backend kind = backend::cpu;
  int device = -1;
  void* stream = nullptr;   // cudaStream_t
  bool owns_stream = false;
  int threads = 1;
  int multiprocessors = 0;  // of the CUDA device; 0 on cpu
  std::string name;

  // Caching allocator: blocks by size class, reused in stream order (see allocator.cpp).
  std::mutex alloc_mutex;
  std::multimap<std::size_t, void*> free_blocks;

  // Checks queued by kernels, run and cleared by synchronize().
  std::mutex check_mutex;
  std::vector<std::function<void()>> deferred_checks;

  // CUDA: the offsets check's verdict slots (pinned host words and an event each; see
  // cuda/runtime/verdict_slot.hpp), one per call in flight, created once and reused.
  std::mutex verdict_mutex;
  std::vector<std::unique_ptr<cuda_rt::verdict_slot, void (*)(cuda_rt::verdict_slot*)>>
      verdict_slots;

  ~context_state();
};

// No request above 2^62 bytes can be met by any machine; refusing it up front keeps every
// size computation below (rounding to a class, 256-byte alignment) free of wrap-around.
inline constexpr std::size_t max_allocation_bytes = std::size_t(1) << 62;

// Size classes with four steps per power of two: at most 25% of a block is slack. Requests
// above max_allocation_bytes are returned unrounded.
std::size_t allocation_size_class(std::size_t bytes);

// context::cpu(threads) refuses more threads than this: far more than any host has cores, and
// far below where the OpenMP runtime fails (40000 threads make libgomp exit the process,
// 100000 overflow the stack inside GOMP_parallel).
inline constexpr int max_cpu_threads = 1024;

}  // namespace parprim::detail
