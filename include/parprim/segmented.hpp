// Reductions and scans of segments.
//
// Segments by offsets: `offsets` holds S + 1 non-decreasing positions into `in`; segment s is
// in[offsets[s] .. offsets[s+1]). Segments may be empty. offsets[0] need not be 0 and
// offsets[S] need not be in.size(): elements outside [offsets[0], offsets[S]) are neither read
// nor written. Offsets that decrease, are negative or exceed in.size() throw parprim::error
// (errc::invalid_argument) before anything is written; on CUDA a kernel checks them and the
// call waits for its verdict (one small copy back to the host) before the work starts.
// Segments by flags: a segment starts at element 0 and at every i with flags[i] != 0.
//
//   segmented_reduce           out[s] = init op in[offsets[s]] op ... (left to right); an
//                              empty segment gets init. out.size() == S.
//   segmented_inclusive_scan   out[i] = fold of i's segment up to and including i
//   segmented_exclusive_scan   out[i] = init op (fold of i's segment before i)
//   ..._by_flags               the same scans with segments given by head flags
//
// Integers wrap; floats are folded in a fixed order that depends on the sizes only (bitwise
// reproducible from run to run). Scans may run in place (out aliasing in exactly).
// Precompiled for i32 u32 i64 u64 f32 f64. Stream-ordered on CUDA.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class T>
void segmented_reduce(const context& ctx, span<const T> in, span<const std::int64_t> offsets,
                      span<T> out, T init = T{}, op o = op::plus, workspace* ws = nullptr);

template <class T>
void segmented_inclusive_scan(const context& ctx, span<const T> in,
                              span<const std::int64_t> offsets, span<T> out, op o = op::plus,
                              workspace* ws = nullptr);

template <class T>
void segmented_exclusive_scan(const context& ctx, span<const T> in,
                              span<const std::int64_t> offsets, span<T> out, T init = T{},
                              op o = op::plus, workspace* ws = nullptr);

template <class T>
void segmented_inclusive_scan_by_flags(const context& ctx, span<const T> in,
                                       span<const std::uint8_t> flags, span<T> out,
                                       op o = op::plus, workspace* ws = nullptr);

template <class T>
void segmented_exclusive_scan_by_flags(const context& ctx, span<const T> in,
                                       span<const std::uint8_t> flags, span<T> out,
                                       T init = T{}, op o = op::plus, workspace* ws = nullptr);

}  // namespace parprim
