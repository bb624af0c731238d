// workspace: temporary memory kept between calls, for callers that want no allocation per
// call. Pass one to any primitive; it grows to the largest request and stays there.
//
// A primitive's temporaries are carved from it as a stack (detail::temp_memory): one that
// calls another with the same workspace gets its inner temporaries above its own, never on
// them. A request that does not fit above the ones held is served by the context's allocator
// for that call, and the workspace grows to the whole stack's need the next time nothing is
// held, so that from the second call on none is allocated.
#pragma once

#include <algorithm>
#include <cstddef>

#include "parprim/context.hpp"
#include "parprim/error.hpp"

namespace parprim {

namespace detail {
class temp_memory;

// Round up to 256 bytes, so that several arrays carved from one block stay aligned.
constexpr std::size_t align_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }
}  // namespace detail

class workspace {
 public:
  explicit workspace(const context& ctx) : ctx_(ctx) {}
  workspace(const workspace&) = delete;
  workspace& operator=(const workspace&) = delete;
  ~workspace() {
    if (ptr_) ctx_.deallocate(ptr_, capacity_);
  }

  // Memory for at least `bytes` bytes on the context's backend, 256-byte aligned: the whole
  // buffer. Contents are not kept across calls. Only one primitive uses a workspace at a
  // time; asking while one holds part of it is an error.
  void* reserve(std::size_t bytes) {
    if (held_ != 0)
      throw error(errc::invalid_argument, "parprim::workspace::reserve [" + ctx_.name() +
                                              "]: the workspace is in use by a primitive (" +
                                              std::to_string(held_) + " bytes held)");
    grow_to(bytes);
    return ptr_;
  }
  std::size_t capacity() const { return capacity_; }
  const context& ctx() const { return ctx_; }

 private:
  friend class detail::temp_memory;

  void grow_to(std::size_t bytes) {
    if (bytes <= capacity_) return;
    if (ptr_) ctx_.deallocate(ptr_, capacity_);
    ptr_ = nullptr;
    capacity_ = 0;
    ptr_ = ctx_.allocate(bytes);
    capacity_ = bytes;
  }

  // `bytes` above the ones held, or nullptr when they do not fit (the caller allocates).
  void* lease(std::size_t bytes) {
    const std::size_t rounded = detail::align_up(bytes);
    if (held_ == 0) grow_to(std::max(rounded, wanted_));
    if (held_ + rounded > capacity_) {
      wanted_ = std::max(wanted_, held_ + rounded);
      return nullptr;
    }
    void* p = static_cast<unsigned char*>(ptr_) + held_;
    held_ += rounded;
    return p;
  }
  // The last lease's bytes back (temporaries are scoped: they end in reverse order).
  void release(std::size_t bytes) { held_ -= detail::align_up(bytes); }

  context ctx_;
  void* ptr_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t held_ = 0;    // bytes leased, from the start of the buffer
  std::size_t wanted_ = 0;  // the largest stack of leases asked for
};

}  // namespace parprim
