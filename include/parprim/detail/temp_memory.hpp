// Scratch memory for one call: carved from the caller's workspace when one is given (above the
// temporaries it already holds; parprim/workspace.hpp), else, or when it has no room left
// this call, taken from the context's caching allocator and returned at scope exit.
#pragma once

#include <cstddef>

#include "parprim/context.hpp"
#include "parprim/workspace.hpp"

namespace parprim::detail {

class temp_memory {
 public:
  temp_memory(const context& ctx, workspace* ws, std::size_t bytes) : ctx_(ctx), bytes_(bytes) {
    if (bytes == 0) return;
    if (ws && (ptr_ = ws->lease(bytes))) {
      ws_ = ws;
      return;
    }
    ptr_ = ctx.allocate(bytes);
  }
  temp_memory(const temp_memory&) = delete;
  temp_memory& operator=(const temp_memory&) = delete;
  ~temp_memory() {
    if (ws_) ws_->release(bytes_);
    else if (ptr_) ctx_.deallocate(ptr_, bytes_);
  }
  void* get() const { return ptr_; }
  template <class T>
  T* as() const { return static_cast<T*>(ptr_); }

 private:
  const context& ctx_;
  std::size_t bytes_;
  void* ptr_ = nullptr;
  workspace* ws_ = nullptr;  // the workspace leased from, else ptr_ is the allocator's
};

}  // namespace parprim::detail
