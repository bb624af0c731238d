// gather and scatter: moving elements by an index array.
//
//   gather:  out[i] = values[indices[i]]     for i < indices.size()  (out.size() == indices.size())
//   scatter: out[indices[i]] = values[i]     for i < values.size()   (indices.size() == values.size())
//
// Element types: the six of types.hpp (4- and 8-byte); index types: int32_t and int64_t.
//
// Bounds: an index outside [0, values.size()) (gather) or [0, out.size()) (scatter) is never
// used to read or write. It is reported as parprim::error with errc::out_of_range naming the
// first offending position (the lowest i):
//   - cpu: thrown by the call itself, before anything is written;
//   - cuda: thrown by the next ctx.synchronize() (the kernel skips bad indices and records
//     the lowest bad position on the device). Elements with valid indices may already have
//     been written when the error is raised.
//
// Duplicate indices in a scatter are the caller's business: which of the colliding values
// lands is unspecified (and may differ between runs and backends).
//
// Multi-pass scatter (He, Govindaraju, Luo, Smith, SC07): the output is cut into k slices
// and pass p writes only the elements whose index falls into slice p, reading the whole input
// again each pass. When a slice fits in the GPU's L2 cache (or the CPU's last-level cache) the
// random writes hit the cache instead of memory, which can beat one pass of scattered writes
// by several times despite the k-fold reads. A device may instead bin the (index, value) pairs
// by slice first (two sweeps, into a temporary copy of the pairs) and then write slice after
// slice from the bins: the same slices, three sweeps for any k. With passes = 0 the seed's cost model chooses k:
//   T(k) = (|R| + |L|) * k / B_seq + |R| / B_rand(|out| / k)
// from bandwidths measured once per device (B_rand as a function of the size of the region
// written at random). The first call that needs the model measures them (up to a few tenths
// of a second, synchronizing the context once); later calls reuse the figures.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim {

enum class scatter_algorithm {
  single_pass,  // one pass of scattered writes (the naive scatter, vectorized)
  multi_pass,   // k passes, each writing one cache-sized slice of the output
};
const char* to_string(scatter_algorithm a) noexcept;

struct scatter_options {
  scatter_algorithm algorithm = scatter_algorithm::single_pass;
  int passes = 0;  // multi_pass only: number of passes k >= 1, or 0 to let the cost model pick
};

template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out);

template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             scatter_options options = {});

// What the cost model predicts for a multi-pass scatter of n elements of value_bytes, with
// index_bytes indices, into an output of out_size elements, in `passes` passes (0: the
// model's own choice). Measures the bandwidths on first use, like scatter itself.
struct scatter_plan {
  int passes = 1;              // k
  double predicted_ms = 0;     // T(k)
  double seq_gbps = 0;         // B_seq: streaming read bandwidth
  double rand_gbps = 0;        // B_rand(|out| / k): useful bytes per second of random writes
  double slice_bytes = 0;      // |out| / k
  bool binned = false;         // k > 1 runs as count + bin + one scatter over the bins (see
                               // src/core/scatter_model.hpp), not as k sweeps over the input
};
scatter_plan plan_scatter(const context& ctx, std::int64_t n, std::int64_t out_size,
                          int value_bytes, int index_bytes, int passes = 0);

// The largest k the model considers (and the largest that scatter accepts).
inline constexpr int max_scatter_passes = 64;

}  // namespace parprim
