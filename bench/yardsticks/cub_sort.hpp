// CUB DeviceRadixSort, timed by the session in the same run as our sorts. Yardsticks only;
// the library never calls them. Out of place (CUB's input stays untouched between runs), with
// CUB's temporary storage allocated once outside the timed region.
#pragma once

#include <cstdint>

#include "engine.hpp"
#include "suites/sort_records.hpp"

namespace parprim::bench::yardstick {

// K: u8, u16, u32 or u64 keys, sorted on bits [begin_bit, end_bit) (end_bit -1: every bit).
template <class K>
double cub_sort_keys_ms(session& s, const K* keys_in, K* keys_out, std::int64_t n, int begin_bit = 0,
                        int end_bit = -1);
// u32 keys with u32 or u64 values (V).
template <class V>
double cub_sort_pairs_ms(session& s, const std::uint32_t* keys_in, std::uint32_t* keys_out,
                         const V* values_in, V* values_out, std::int64_t n);

// CUB DeviceMergeSort::SortKeysCopy with the suite's comparators (out of place).
double cub_merge_sort_ms(session& s, const std::uint64_t* in, std::uint64_t* out, std::int64_t n);
double cub_merge_sort_ms(session& s, const record16* in, record16* out, std::int64_t n);

}  // namespace parprim::bench::yardstick
