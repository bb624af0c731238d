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
double cub_exclusive_sum_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                                   float* out, std::int64_t n);
double cub_unique_ms(session& s, const std::uint32_t* in, std::uint32_t* out,
                     std::int64_t* count, std::int64_t n);
double cub_unique_by_key_ms(session& s, const std::uint32_t* keys, const float* values,
                            std::uint32_t* keys_out, float* values_out, std::int64_t* count,
                            std::int64_t n);
double cub_run_length_encode_ms(session& s, const std::uint32_t* in, std::uint32_t* unique_out,
                                std::int64_t* lengths, std::int64_t* runs, std::int64_t n);
double cub_segmented_sum_ms(session& s, const float* in, float* out,
                            const std::int64_t* offsets, std::int64_t segments);
double thrust_merge_ms(session& s, const std::uint32_t* a, std::int64_t na,
                       const std::uint32_t* b, std::int64_t nb, std::uint32_t* out);
double thrust_merge_by_key_ms(session& s, const std::uint32_t* a_keys, const std::uint32_t* a_values,
                              std::int64_t na, const std::uint32_t* b_keys,
                              const std::uint32_t* b_values, std::int64_t nb, std::uint32_t* keys_out,
                              std::uint32_t* values_out);
// thrust::lower_bound, or (upper) thrust::upper_bound.
double thrust_bound_ms(session& s, bool upper, const std::uint32_t* sorted, std::int64_t n,
                       const std::uint32_t* queries, std::int64_t m, std::int64_t* out);

// Sort-then-slice top-k: DeviceRadixSort::SortKeysDescending of all n f32 keys (the k
// largest are then the first k; the slice itself costs nothing).
double cub_sort_then_slice_ms(session& s, const float* in, float* sorted, std::int64_t n);
// The same for top_k_pairs: DeviceRadixSort::SortPairsDescending (stable, so equal keys keep
// their input order, as top_k_pairs' ties do) of the n keys with their u32 values.
double cub_sort_pairs_then_slice_ms(session& s, const float* keys, const std::uint32_t* values,
                                    float* sorted_keys, std::uint32_t* sorted_values, std::int64_t n);

}  // namespace parprim::bench::yardstick
