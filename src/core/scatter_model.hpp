// The cost model of the multi-pass scatter (He et al., SC07) and the bandwidths it needs.
//
//   T(k) = k * t_launch + (|L| + |R| * touched(k)) * k / B_seq + |R| / B_rand(|out| / k)
//
// is the seed's  T = (|R| + |L|) * k / B_seq + |R| / B_rand  with two refinements the
// implementation earns: a fixed cost per pass (a kernel launch), and the reads of R counted
// by the 32-byte sectors they touch. Pass p loads a value only when its index falls into
// slice p, so with random indices a sector of s values is read with probability
// touched(k) = 1 - (1 - 1/k)^s. B_rand(S) is measured for regions of several sizes S and
// interpolated in log(S); it is the rate of useful bytes when each element of a region of S
// bytes is written once, in random order, including the later write-back to memory.
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/gather_scatter.hpp"

namespace parprim::detail {

struct scatter_bandwidths {
  double seq_bytes_per_s = 0;        // B_seq: streaming reads
  double launch_s = 0;               // fixed cost of one pass
  std::vector<double> region_bytes;  // ascending sizes S at which B_rand was measured
  std::vector<double> rand4;         // B_rand(S) for 4-byte elements, bytes per second
  std::vector<double> rand8;         // B_rand(S) for 8-byte elements
  double rand_at(double bytes, int value_bytes) const;
};

// The measured bandwidths of the context's device (or host), measured on first use and
// cached per backend and device for the life of the process (on the host, with the thread
// count of the first context that asked).
const scatter_bandwidths& bandwidths_of(const context& ctx);

// T(k) for the given sizes; passes = 0 chooses the k in [1, max_scatter_passes] with the
// smallest T(k).
scatter_plan plan_with(const scatter_bandwidths& bw, std::int64_t n, std::int64_t out_size,
                       int value_bytes, int index_bytes, int passes);

}  // namespace parprim::detail
