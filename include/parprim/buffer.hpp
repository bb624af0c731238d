// buffer<T>: owning, uninitialized memory for n elements on a context's backend.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"

namespace parprim {

template <class T>
class buffer {
  static_assert(std::is_trivially_copyable_v<T>, "buffer<T> needs a trivially copyable T");

 public:
  buffer() = default;
  buffer(const context& ctx, std::int64_t n) : ctx_(ctx), count_(n) {
    if (n < 0)
      throw error(errc::invalid_argument,
                  "parprim::buffer [" + ctx.name() + "]: n=" + std::to_string(n) + " is negative");
    // n * sizeof(T) must not wrap: 2^62 floats would otherwise become a 0-byte buffer.
    if (n > max_bytes / static_cast<std::int64_t>(sizeof(T)))
      throw error(errc::out_of_memory, "parprim::buffer [" + ctx.name() + "]: n=" + std::to_string(n) +
                                           " elements of " + std::to_string(sizeof(T)) +
                                           " bytes is more than any memory holds");
    if (n > 0) ptr_ = static_cast<T*>(ctx.allocate(bytes()));
  }
  static buffer from_host(const context& ctx, const T* src, std::int64_t n) {
    buffer b(ctx, n);
    b.copy_from_host(src, n);
    return b;
  }
  static buffer from_host(const context& ctx, const std::vector<T>& v) {
    return from_host(ctx, v.data(), static_cast<std::int64_t>(v.size()));
  }

  buffer(buffer&& o) noexcept { swap(o); }
  buffer& operator=(buffer&& o) noexcept {
    buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer() {
    if (ptr_) ctx_.deallocate(ptr_, bytes());
  }

  void copy_from_host(const T* src, std::int64_t n) {
    check_count("copy_from_host", n);
    if (n > 0) ctx_.copy_from_host(ptr_, src, bytes());
  }
  void copy_to_host(T* dst, std::int64_t n) const {
    check_count("copy_to_host", n);
    if (n > 0) ctx_.copy_to_host(dst, ptr_, bytes());
  }
  std::vector<T> to_host() const {
    std::vector<T> v(static_cast<std::size_t>(count_));
    copy_to_host(v.data(), count_);
    return v;
  }
  // Fills every byte with `value` (tests poison outputs with 0xFF, say).
  void fill_bytes(unsigned char value) {
    if (count_ > 0) ctx_.fill_bytes(ptr_, value, bytes());
  }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::int64_t size() const { return count_; }
  std::size_t bytes() const { return static_cast<std::size_t>(count_) * sizeof(T); }
  const context& ctx() const { return ctx_; }
  span<T> view() { return span<T>(ptr_, count_); }
  span<const T> view() const { return span<const T>(ptr_, count_); }
  operator span<T>() { return view(); }
  operator span<const T>() const { return view(); }

 private:
  void swap(buffer& o) noexcept {
    std::swap(ctx_, o.ctx_);
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
  }
  void check_count(const char* what, std::int64_t n) const {
    if (n != count_)
      throw error(errc::invalid_argument, std::string("parprim::buffer::") + what + " [" +
                                              ctx_.name() + "]: n=" + std::to_string(n) +
                                              " but size()=" + std::to_string(count_));
  }

  static constexpr std::int64_t max_bytes = std::int64_t(1) << 62;

  context ctx_ = context::cpu();
  T* ptr_ = nullptr;
  std::int64_t count_ = 0;
};

}  // namespace parprim
