// workspace: temporary memory kept between calls, for callers that want no allocation
// per call. Pass one to any primitive; it grows to the largest request and stays there.
#pragma once

#include <cstddef>

#include "parprim/context.hpp"

namespace parprim {

class workspace {
 public:
  explicit workspace(const context& ctx) : ctx_(ctx) {}
  workspace(const workspace&) = delete;
  workspace& operator=(const workspace&) = delete;
  ~workspace() {
    if (ptr_) ctx_.deallocate(ptr_, capacity_);
  }

  // Memory for at least `bytes` bytes on the context's backend, 256-byte aligned. Contents
  // are not kept across calls. Only one primitive uses a workspace at a time.
  void* reserve(std::size_t bytes) {
    if (bytes > capacity_) {
      if (ptr_) ctx_.deallocate(ptr_, capacity_);
      ptr_ = nullptr;
      capacity_ = 0;
      ptr_ = ctx_.allocate(bytes);
      capacity_ = bytes;
    }
    return ptr_;
  }
  std::size_t capacity() const { return capacity_; }
  const context& ctx() const { return ctx_; }

 private:
  context ctx_;
  void* ptr_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace parprim
