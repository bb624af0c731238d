// What the sort suite's merge sort rows sort: 8-byte keys and 16-byte records ordered by one
// field, with a comparator; and the GPU timing of our merge_sort, which must be compiled by
// nvcc (sort_merge_gpu.cu) because the comparator runs on the device.
#pragma once

#include <cstdint>

#include "engine.hpp"
#include "parprim/merge_sort.hpp"

namespace parprim::bench {

struct record16 {
  std::uint64_t key;
  std::uint64_t payload;
};

struct record16_less {
  PARPRIM_HOST_DEVICE bool operator()(const record16& a, const record16& b) const { return a.key < b.key; }
};

#if PARPRIM_HAVE_CUDA
// Milliseconds of merge_sort on a copy of `input` in `work` (the copy timed and subtracted).
double gpu_merge_sort_ms(session& s, const std::uint64_t* input, std::uint64_t* work, std::int64_t n);
double gpu_merge_sort_ms(session& s, const record16* input, record16* work, std::int64_t n);
#endif

}  // namespace parprim::bench
