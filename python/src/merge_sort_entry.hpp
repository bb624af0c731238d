// The merge sorts of merge_sort_entry.cpp (compiled by nvcc in CUDA builds), for
// bind_ordering.cpp. Keys in place at `keys`, element type by dtype_code (common.hpp).
#pragma once

#include <cstdint>

#include "parprim/context.hpp"

namespace parprim::python {

void merge_sort_keys(const context& ctx, int dtype, std::uintptr_t keys, std::int64_t n);

// values: int64, carried with their keys.
void merge_sort_keys_with_indices(const context& ctx, int dtype, std::uintptr_t keys,
                                  std::int64_t n_keys, std::uintptr_t values,
                                  std::int64_t n_values);

}  // namespace parprim::python
