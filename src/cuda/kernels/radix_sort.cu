// Onesweep LSD radix sort (Adinets & Merrill, "Onesweep: A Faster Least Significant Digit
// Radix Sort for GPUs", 2022): 8-bit digits, one read of the keys for all histograms, then one
// kernel per digit that reads and writes every key exactly once.
//
// Kernels, in stream order:
//   1. histogram  every digit histogram of every pass in one read of the keys
//   2. scan       per pass: where each digit starts (exclusive scan over digits), which passes
//                 are trivial (one digit holds every key: skipped), and which buffer each
//                 executed pass reads (the ping-pong parity, decided on the device)
//   3. pass x P   per tile: count the keys of each digit and publish the tile's counts,
//                 then rank the keys by digit inside the tile (warp-level multisplit; that
//                 order is measured in radix_sort_common.cuh), find
//                 the tile's place among the keys of each digit by decoupled look-back over
//                 the predecessor tiles, then scatter through shared memory so that writes
//                 of equal digits are contiguous
//   4. copy back  when an odd number of passes ran, the result is in the temporary buffer
//
// A keys-only sort of 1-byte keys over all 8 bits needs no pass: the digit counts give the
// sorted keys, which a fill kernel writes (radix_sort_histogram.cuh). Keys-only sorts of
// 2-byte keys over all 16 bits are counting sorts alike (radix_sort_counting.cuh).
//
// Keys are raw 8-, 16-, 32- or 64-bit words; the digit is taken from their order-preserving
// image (core/sort_keys.hpp), so signed, float and descending sorts cost nothing extra and the
// kernels exist only for 4 key widths x 3 value widths (none, 4, 8 bytes); 1- and 2-byte keys
// run 1 and 2 passes.
//
// The body lives in four headers: radix_sort_common.cuh (tile shapes, control block,
// look-back and segment chaining), radix_sort_histogram.cuh (kernels 1 and 2),
// radix_sort_pass.cuh (kernels 3 and 4) and radix_sort_launch.cuh (the host side); this
// file picks the instantiation for the key and value widths.
#include <cstdint>

#include "cuda/kernels/radix_sort_launch.cuh"
#include "cuda/sort_backend.hpp"

namespace parprim::cuda_kernels::onesweep {

template <class U>
void onesweep_by_value(const context& ctx, const detail::sort_request& r, workspace* ws,
                       std::int64_t tiles_per_segment) {
  if (r.value_bytes == 4) onesweep_sort<U, std::uint32_t, true>(ctx, r, ws, tiles_per_segment);
  else if (r.value_bytes == 8) onesweep_sort<U, std::uint64_t, true>(ctx, r, ws, tiles_per_segment);
  else onesweep_sort<U, std::uint32_t, false>(ctx, r, ws, tiles_per_segment);
}


}  // namespace parprim::cuda_kernels::onesweep

namespace parprim::cuda_backend {

void radix_sort_onesweep_segmented(const context& ctx, const detail::sort_request& r,
                                   workspace* ws, std::int64_t tiles_per_segment) {
  using namespace cuda_kernels::onesweep;
  switch (r.key_bytes) {
    case 1: return onesweep_by_value<std::uint8_t>(ctx, r, ws, tiles_per_segment);
    case 2: return onesweep_by_value<std::uint16_t>(ctx, r, ws, tiles_per_segment);
    case 4: return onesweep_by_value<std::uint32_t>(ctx, r, ws, tiles_per_segment);
    default: return onesweep_by_value<std::uint64_t>(ctx, r, ws, tiles_per_segment);
  }
}

void radix_sort_onesweep(const context& ctx, const detail::sort_request& r, workspace* ws) {
  radix_sort_onesweep_segmented(ctx, r, ws, 0);
}

}  // namespace parprim::cuda_backend
