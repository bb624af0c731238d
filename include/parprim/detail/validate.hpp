// Argument checks shared by every front end. Each failure throws parprim::error with
//   parprim::<function> [<backend>]: <argument and what is wrong with it>
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim::detail {

// The public call running on this thread (nullptr outside one): an allocation that fails
// inside a primitive names the primitive, not the allocator (context.cpp).
const char*& current_call() noexcept;

class checker {
 public:
  // Marks `function` as the running call for as long as the checker lives (the whole front end).
  checker(const context& ctx, const char* function)
      : ctx_(ctx), function_(function), outer_call_(current_call()) {
    current_call() = function;
  }
  ~checker() { current_call() = outer_call_; }
  checker(const checker&) = delete;
  checker& operator=(const checker&) = delete;

  [[noreturn]] void fail(const std::string& what, errc code = errc::invalid_argument) const {
    throw error(code, "parprim::" + std::string(function_) + " [" + ctx_.name() + "]: " + what);
  }

  // A span must have a non-negative size, a pointer when it is non-empty, and memory that
  // this context's backend can reach.
  template <class T>
  void valid(span<T> s, const char* name) const {
    if (s.size() < 0) fail(std::string(name) + ".size()=" + std::to_string(s.size()) + " is negative");
    // Beyond this, size_bytes() and every pointer sum overflow: no memory holds such a span.
    if (s.size() > max_span_bytes / static_cast<std::int64_t>(sizeof(T)))
      fail(std::string(name) + ".size()=" + std::to_string(s.size()) + " elements of " +
           std::to_string(sizeof(T)) + " bytes is more than any memory holds");
    if (s.size() > 0 && s.data() == nullptr)
      fail(std::string(name) + ".data() is null but " + name + ".size()=" + std::to_string(s.size()));
    if (s.size() > 0 && !ctx_.can_access(s.data()))
      fail(std::string(name) + " points to memory the " + to_string(ctx_.kind()) +
           " backend cannot access");
  }

  void same_size(std::int64_t a, const char* a_name, std::int64_t b, const char* b_name) const {
    if (a != b)
      fail(std::string(a_name) + ".size()=" + std::to_string(a) + " but " + b_name +
           ".size()=" + std::to_string(b));
  }

  // Exact aliasing (in place) is allowed when allow_same; any other overlap is rejected,
  // since a parallel pass would read elements it has already overwritten.
  template <class A, class B>
  void no_overlap(span<A> a, const char* a_name, span<B> b, const char* b_name,
                  bool allow_same) const {
    if (a.size() == 0 || b.size() == 0) return;
    // Unsigned products: sizes were checked by valid(), and unsigned sums cannot be undefined.
    auto a0 = reinterpret_cast<std::uintptr_t>(a.data()), a1 = a0 + std::uintptr_t(a.size()) * sizeof(A);
    auto b0 = reinterpret_cast<std::uintptr_t>(b.data()), b1 = b0 + std::uintptr_t(b.size()) * sizeof(B);
    bool overlap = a0 < b1 && b0 < a1;
    bool same = a0 == b0 && a1 == b1;
    if (overlap && !(same && allow_same))
      fail(std::string(a_name) + " and " + b_name +
           (allow_same ? " overlap without being the same range" : " overlap"));
  }

  template <class E>
  void known_option(E value, E last, const char* name) const {
    auto v = static_cast<long long>(value);
    if (v < 0 || v > static_cast<long long>(last))
      fail(std::string(name) + "=" + std::to_string(v) + " is not a known option");
  }

  // A workspace holds memory of the context it was made for: it serves no other.
  void own_workspace(const workspace* ws) const {
    if (ws && &ws->ctx().state() != &ctx_.state()) fail("workspace belongs to another context");
  }

  const context& ctx() const { return ctx_; }

  static constexpr std::int64_t max_span_bytes = std::int64_t(1) << 62;

 private:
  const context& ctx_;
  const char* function_;
  const char* outer_call_;
};

}  // namespace parprim::detail
