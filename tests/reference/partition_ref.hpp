// Sequential oracles for copy_if, partition and split: plain loops over the input.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "parprim/partition.hpp"
#include "reference/sort_ref.hpp"

namespace parprim::reference {

template <class T>
bool selects(const predicate<T>& p, T x) {
  switch (p.cmp) {
    case compare::less: return x < p.value;
    case compare::less_equal: return x <= p.value;
    case compare::greater: return x > p.value;
    case compare::greater_equal: return x >= p.value;
    case compare::equal: return x == p.value;
    case compare::not_equal: return x != p.value;
    case compare::bits_set: return (bits_of(x) & bits_of(p.value)) != 0;
  }
  return false;
}

template <class T>
std::vector<T> copy_if(const std::vector<T>& in, const predicate<T>& p) {
  std::vector<T> out;
  for (T x : in)
    if (selects(p, x)) out.push_back(x);
  return out;
}

// Selected in order, then rejected in order.
template <class T>
std::vector<T> partition(const std::vector<T>& in, const predicate<T>& p) {
  std::vector<T> out = copy_if(in, p);
  for (T x : in)
    if (!selects(p, x)) out.push_back(x);
  return out;
}

// Selected in order, then rejected in reverse order: the r-th rejected element (from 0, in
// input order) at out[n - 1 - r], as cub::DevicePartition::If.
template <class T>
std::vector<T> unstable_partition(const std::vector<T>& in, const predicate<T>& p) {
  std::vector<T> out = copy_if(in, p);
  for (auto it = in.rbegin(); it != in.rend(); ++it)
    if (!selects(p, *it)) out.push_back(*it);
  return out;
}

// The documented bucket of x.
template <class T>
std::int64_t bucket_of(const bucket_fn& f, T x) {
  if (f.how == bucket_fn::kind::key_bits)
    return std::int64_t(image_field(x, false, f.shift, f.shift + f.width));
  const double scale = double(f.count) / (f.upper - f.lower);
  const double t = (double(x) - f.lower) * scale;
  if (std::isnan(t)) return f.count - 1;
  if (t < 0) return 0;
  return std::min<std::int64_t>(f.count - 1, std::int64_t(std::floor(std::min(t, 1e18))));
}

// Stable split: bucket 0's elements in order, then bucket 1's, ...; offsets[b] = start of b.
template <class T>
std::vector<T> split(const std::vector<T>& in, const bucket_fn& f, std::vector<std::int64_t>* offsets) {
  const std::int64_t buckets = f.buckets();
  std::vector<std::vector<T>> parts(static_cast<std::size_t>(buckets));
  for (T x : in) parts[static_cast<std::size_t>(bucket_of(f, x))].push_back(x);
  std::vector<T> out;
  if (offsets) offsets->clear();
  for (auto& p : parts) {
    if (offsets) offsets->push_back(std::int64_t(out.size()));
    out.insert(out.end(), p.begin(), p.end());
  }
  if (offsets) offsets->push_back(std::int64_t(out.size()));
  return out;
}

}  // namespace parprim::reference
