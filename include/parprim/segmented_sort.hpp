// segmented_sort and segmented_sort_pairs: stable sorts of every segment of a range, in place.
//
// Segments by offsets: `offsets` holds S + 1 non-decreasing positions into `keys`; segment s is
// keys[offsets[s] .. offsets[s+1]). Segments may be empty. offsets[0] need not be 0 and
// offsets[S] need not be keys.size(): elements outside [offsets[0], offsets[S]) are neither
// read nor written. Offsets that decrease, are negative or exceed keys.size() throw
// parprim::error (errc::invalid_argument) before anything is written; on CUDA a kernel checks
// them and the call waits for its verdict (one small copy back to the host).
//
// Key order is radix_sort's (parprim/sort.hpp): the numeric order, and for floats
//   -inf < ... < -0.0 < +0.0 < ... < +inf < NaN   (ascending)
// (every NaN after +inf, NaNs with a clear sign bit before those with a set one; keys come
// back bit for bit). Descending is the exact reverse of that order, so NaNs come first. Equal
// keys keep their input order in both directions (stable), and values[i] moves with keys[i].
//
// Keys: i32 u32 i64 u64 f32 f64. Values: any of those of the same width as the key (4-byte
// keys carry 4-byte values, 8-byte keys 8-byte values).
//
// How: each segment is sorted by a worker sized to it, so no segment waits on another and none
// serializes on one thread block. On CUDA, one kernel gives every segment of at most
// 64 keys to a warp (rank by comparison in registers) and lists the others; segments up to
// 4096 and up to 16384 keys are sorted in shared memory by one block each (bitonic network on
// the key image with the position as tie-break, which makes it stable); larger ones by the
// library's Onesweep radix sort, one call per segment on the context's stream (at most
// n / 16384 of them, each a few launches: many segments just above 16384 keys cost that many
// host-launched sorts). On the CPU, one parallel loop over segments sorts each of up to
// 65536 keys with std::stable_sort on the key images; larger ones by the parallel LSD radix
// sort.
//
// Temporary memory: small per-segment lists and what radix_sort takes for the large segments;
// from `ws` when given. On CUDA the call waits for the device twice (the offsets check, then
// the class counts and the list of large segments); the sorting itself is stream-ordered.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/sort.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class K>
void segmented_sort(const context& ctx, span<K> keys, span<const std::int64_t> offsets,
                    sort_order order = sort_order::ascending, workspace* ws = nullptr);

template <class K, class V>
void segmented_sort_pairs(const context& ctx, span<K> keys, span<V> values,
                          span<const std::int64_t> offsets,
                          sort_order order = sort_order::ascending, workspace* ws = nullptr);

}  // namespace parprim
