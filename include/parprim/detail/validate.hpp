// Argument checks shared by every front end. Each failure throws parprim::error with
//   parprim::<function> [<backend>]: <argument and what is wrong with it>
#pragma once

#include <cstdint>
#include <string>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "parprim/span.hpp"

namespace parprim::detail {

class checker {
 public:
  checker(const context& ctx, const char* function) : ctx_(ctx), function_(function) {}

  [[noreturn]] void fail(const std::string& what, errc code = errc::invalid_argument) const {
    throw error(code, "parprim::" + std::string(function_) + " [" + ctx_.name() + "]: " + what);
  }

  // A span must have a non-negative size, a pointer when it is non-empty, and memory that
  // this context's backend can reach.
  template <class T>
  void valid(span<T> s, const char* name) const {
    if (s.size() < 0) fail(std::string(name) + ".size()=" + std::to_string(s.size()) + " is negative");
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
    auto a0 = reinterpret_cast<std::uintptr_t>(a.data()), a1 = a0 + a.size_bytes();
    auto b0 = reinterpret_cast<std::uintptr_t>(b.data()), b1 = b0 + b.size_bytes();
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

  const context& ctx() const { return ctx_; }

 private:
  const context& ctx_;
  const char* function_;
};

}  // namespace parprim::detail
