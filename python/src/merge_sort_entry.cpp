// merge_sort and merge_sort_pairs for the Python package. The library's merge sort is a template
// over the caller's comparator, compiled where it is called: in a CUDA build this file is
// compiled by nvcc (python/CMakeLists.txt), so that its calls run on the device; it includes
// no nanobind header for that reason, and bind_ordering.cpp binds the functions below.
// Python arrays hold numbers, so the comparator is operator< (ascending; sort() and
// segmented_sort() cover descending orders): keys of every element type, alone or with int64
// values (the permutation a caller carries), which keeps nvcc to 12 instantiations.
#include "merge_sort_entry.hpp"

#include <cstdint>

#include "parprim/merge_sort.hpp"

namespace parprim::python {

namespace {

template <class F>
void with_key_type(int dtype, F&& f) {
  switch (dtype) {  // the codes of dtype_code in common.hpp
    case 0: return f(std::int32_t{});
    case 1: return f(std::uint32_t{});
    case 2: return f(std::int64_t{});
    case 3: return f(std::uint64_t{});
    case 4: return f(float{});
    case 5: return f(double{});
    default: throw error(errc::invalid_argument, "parprim.merge_sort: element type code not supported");
  }
}

}  // namespace

void merge_sort_keys(const context& ctx, int dtype, std::uintptr_t keys, std::int64_t n) {
  with_key_type(dtype, [&](auto tag) {
    using K = decltype(tag);
    merge_sort(ctx, span<K>(reinterpret_cast<K*>(keys), n), less_than{});
  });
}

void merge_sort_keys_with_indices(const context& ctx, int dtype, std::uintptr_t keys,
                                  std::int64_t n_keys, std::uintptr_t values,
                                  std::int64_t n_values) {
  with_key_type(dtype, [&](auto tag) {
    using K = decltype(tag);
    merge_sort_pairs(ctx, span<K>(reinterpret_cast<K*>(keys), n_keys),
                     span<std::int64_t>(reinterpret_cast<std::int64_t*>(values), n_values),
                     less_than{});
  });
}

}  // namespace parprim::python
