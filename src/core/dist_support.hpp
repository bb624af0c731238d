// Shared pieces of the distributed algorithms: argument checks against the group, folds over
// the ranks' partial results, and typed collectives on host vectors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parprim/detail/op_functors.hpp"
#include "parprim/group.hpp"

namespace parprim::detail {

class dist_checker {
 public:
  dist_checker(const device_group& g, const char* function) : g_(g), function_(function) {}

  [[noreturn]] void fail(const std::string& what, errc code = errc::invalid_argument) const {
    throw error(code, "parprim::dist::" + std::string(function_) + " [" + g_.name() + "]: " + what);
  }

  // b belongs to this group and every local slice is where and as large as it should be.
  template <class T>
  void member(const dist_buffer<T>& b, const char* name) const {
    if (!b.group().same_as(g_))
      fail(std::string(name) + " belongs to the group " + b.group().name() + ", not to this one");
    for (int i = 0; i < g_.local_size(); ++i) {
      const int r = g_.local_rank(i);
      const buffer<T>& s = b.slice(r);
      if (&s.ctx().state() != &g_.ctx(r).state())
        fail(std::string(name) + "'s slice of rank " + std::to_string(r) + " lives on " +
             s.ctx().name() + ", not on " + g_.ctx(r).name());
      if (s.size() != b.count(r))
        fail(std::string(name) + "'s slice of rank " + std::to_string(r) + " holds " +
             std::to_string(s.size()) + " elements, not " + std::to_string(b.count(r)));
    }
  }

  template <class A, class B>
  void same_counts(const dist_buffer<A>& a, const char* a_name, const dist_buffer<B>& b,
                   const char* b_name) const {
    for (int r = 0; r < g_.size(); ++r)
      if (a.count(r) != b.count(r))
        fail(std::string(a_name) + ".count(" + std::to_string(r) + ")=" + std::to_string(a.count(r)) +
             " but " + b_name + ".count(" + std::to_string(r) + ")=" + std::to_string(b.count(r)));
  }

 private:
  const device_group& g_;
  const char* function_;
};

// The left fold `start op v[a] op v[b] ...` over the ranks a < b < ... < end with counts > 0.
template <class T, class Op>
T fold_nonempty(T start, const std::vector<T>& v, const std::vector<std::int64_t>& counts, int end,
                Op f) {
  T acc = start;
  for (int k = 0; k < end; ++k)
    if (counts[static_cast<std::size_t>(k)] > 0) acc = f(acc, v[static_cast<std::size_t>(k)]);
  return acc;
}

// Every rank's vector (all of the same length), concatenated in rank order.
template <class V>
std::vector<V> allgather_vector(communicator& c, const std::vector<V>& mine) {
  std::vector<V> all(mine.size() * static_cast<std::size_t>(c.size()));
  if (!mine.empty()) c.allgather_host(mine.data(), all.data(), mine.size() * sizeof(V));
  return all;
}

inline std::vector<std::size_t> to_bytes(const std::vector<std::int64_t>& counts, std::size_t elem) {
  std::vector<std::size_t> b(counts.size());
  for (std::size_t i = 0; i < counts.size(); ++i) b[i] = static_cast<std::size_t>(counts[i]) * elem;
  return b;
}

}  // namespace parprim::detail
