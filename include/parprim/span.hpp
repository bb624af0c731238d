// span<T>: a non-owning view of T elements with a 64-bit size.
//
// The pointer may live on the host or on a device; the context a span is passed with says
// which (front ends check that they agree). A span<T> converts to span<const T>.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace parprim {

template <class T>
struct span {
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  T* ptr = nullptr;
  std::int64_t count = 0;

  constexpr span() = default;
  constexpr span(T* p, std::int64_t n) : ptr(p), count(n) {}
  // span<const T> from span<T>.
  template <class U, class = std::enable_if_t<std::is_same_v<const U, T>>>
  constexpr span(span<U> other) : ptr(other.ptr), count(other.count) {}
  // Host vectors convert directly, for the CPU backend.
  template <class A, class U = T, class = std::enable_if_t<!std::is_const_v<U>>>
  span(std::vector<value_type, A>& v) : ptr(v.data()), count(static_cast<std::int64_t>(v.size())) {}
  template <class A, class U = T, class = std::enable_if_t<std::is_const_v<U>>>
  span(const std::vector<value_type, A>& v)
      : ptr(v.data()), count(static_cast<std::int64_t>(v.size())) {}

  constexpr T* data() const { return ptr; }
  constexpr std::int64_t size() const { return count; }
  constexpr bool empty() const { return count == 0; }
  constexpr std::int64_t size_bytes() const { return count * static_cast<std::int64_t>(sizeof(T)); }
  // Host-side element access: only meaningful for host memory.
  constexpr T& operator[](std::int64_t i) const { return ptr[i]; }
  constexpr span subspan(std::int64_t offset, std::int64_t n) const { return span(ptr + offset, n); }
  constexpr span<const T> as_const() const { return span<const T>(ptr, count); }
};

template <class T>
span<T> make_span(T* p, std::int64_t n) { return span<T>(p, n); }

}  // namespace parprim
