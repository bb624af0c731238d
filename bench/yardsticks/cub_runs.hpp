// CUB and Thrust yardsticks for the by-key, unique, run-length, segmented, merge and search
// primitives, timed by the session in the same run on the same buffers. u32 keys, f32 values.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

double cub_reduce_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                            std::uint32_t* keys_out, float* values_out, std::int64_t* runs,
                            std::int64_t n);
double cub_inclusive_sum_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                                   float* out, std::int64_t n);
double cub_unique_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                     std::int64_t* count, std::int64_t n);
double cub_run_length_encode_ms(session& s, const std::uint32_t* in, std::uint32_t* unique_out,
                                std::int64_t* lengths, std::int64_t* runs, std::int64_t n);
double cub_segmented_sum_ms(session& s, const float* in, float* out,
                            const std::int64_t* offsets, std::int64_t segments);
double thrust_merge_ms(session& s, const std::uint32_t* a, std::int64_t na,
                       const std::uint32_t* b, std::int64_t nb, std::uint32_t* out);
double thrust_lower_bound_ms(session& s, const std::uint32_t* sorted, std::int64_t n,
                             const std::uint32_t* queries, std::int64_t m, std::int64_t* out);

// Sort-then-slice top-k: DeviceRadixSort::SortKeysDescending of all n f32 keys (the k
// largest are then the first k; the slice itself costs nothing).
double cub_sort_then_slice_ms(session& s, const float* in, float* sorted, std::int64_t n);

}  // namespace parprim::bench::yardstick
