// The state behind a parprim::context handle. Internal: backends and front ends only.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "parprim/context.hpp"

namespace parprim::detail {

struct context_state {
  backend kind = backend::cpu;
  int device = -1;
  void* stream = nullptr;   // cudaStream_t
  bool owns_stream = false;
  int threads = 1;
  std::string name;

  // Caching allocator: blocks by size class, reused in stream order (see allocator.cpp).
  std::mutex alloc_mutex;
  std::multimap<std::size_t, void*> free_blocks;

  // Checks queued by kernels, run and cleared by synchronize().
  std::mutex check_mutex;
  std::vector<std::function<void()>> deferred_checks;

  ~context_state();
};

// Size classes with four steps per power of two: at most 25% of a block is slack.
std::size_t allocation_size_class(std::size_t bytes);

}  // namespace parprim::detail
