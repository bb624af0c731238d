// The cost model of the multi-pass scatter (He et al., SC07) and the bandwidths it needs.
//
// The seed's model:  T = (|R| + |L|) * k / B_seq + |R| / B_rand(|out| / k)
// (k sweeps over the values R and the indices L, then the random writes into slices of
// |out| / k bytes). What we evaluate, per scheme (scatter_bandwidths::binned):
//
// k sweeps (the seed's scheme; the CPU, and CUDA with multi_pass_scatter_tuning::binned off):
//   T(k) = k * t_launch + (|L| + |R| * touched(k)) * k / B_seq + |R| / B_rand(|out| / k)
//   - a fixed cost per pass (a kernel launch);
//   - the reads of R counted by the 32-byte sectors they touch: pass p loads a value only when
//     its index falls into slice p, so with random indices a sector of s values is read with
//     probability touched(k) = 1 - (1 - 1/k)^s.
//
// binned (CUDA with binned on): a counting sweep over L, a binning sweep that reads L + R and
// writes them grouped by slice, and one scatter over the binned pairs:
//   T(k) = 4 * t_launch + (|L| + 2 (|L| + |R|) + (|L| + |R|)) / B_seq + |R| / B_rand(|out| / k)
//   i.e. the seed's k sweeps become three, independent of k.
//
// With k = 1 both are the single pass: T(1) = t_launch + (|L| + |R|) / B_seq + |R| / B_rand(|out|).
//
// B_rand(S) is measured for regions of several sizes S and interpolated in log(S). Either as
// the rate of useful bytes when each element of a region of S bytes is written once, in random
// order, including the later write-back to memory; or (CUDA, calibration 1) backed out of the
// timed scatter itself: B_rand(S) = |R| / (T_measured(k) - sequential_seconds(k)) for a
// calibration scatter with |out| / k = S, so that the model reproduces the real kernels there.
// Why: on an H100 the synthetic fill gave B_rand ~ 220-250 GB/s for slices of 20-40 MB, yet
// the k-sweep scatter ran ~1 ms slower than predicted for k = 5..12 (its random writes share
// the L2 with the streamed input, and more of them miss), so the model chose k = 7 where
// k = 13 was 17% faster. The calibration scatter uses indices as wide as the values (i32 with
// 4-byte, i64 with 8-byte values); other widths change only the sequential terms.
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/gather_scatter.hpp"

namespace parprim::detail {

struct scatter_bandwidths {
  double seq_bytes_per_s = 0;        // B_seq: streaming reads
  double launch_s = 0;               // fixed cost of one pass
  bool binned = false;               // the scheme of the multi-pass scatter (see above)
  std::vector<double> region_bytes;  // ascending sizes S at which B_rand was measured
  std::vector<double> rand4;         // B_rand(S) for 4-byte elements, bytes per second
  std::vector<double> rand8;         // B_rand(S) for 8-byte elements
  double rand_at(double bytes, int value_bytes) const;
};

// The measured bandwidths of the context's device (or host), measured on first use and
// cached per backend and device for the life of the process (on the host, with the thread
// count of the first context that asked).
const scatter_bandwidths& bandwidths_of(const context& ctx);

// T(k) without the random writes' term |R| / B_rand (both schemes, see above).
double sequential_seconds(const scatter_bandwidths& bw, double n, int value_bytes, int index_bytes,
                          int k);

// T(k) for the given sizes; passes = 0 chooses the k in [1, max_scatter_passes] with the
// smallest T(k).
scatter_plan plan_with(const scatter_bandwidths& bw, std::int64_t n, std::int64_t out_size,
                       int value_bytes, int index_bytes, int passes);

}  // namespace parprim::detail
