// The CUDA backend's gather, scatter, histogram and counting sort, in plain C++ for the
// front ends. Defined in src/cuda/kernels/{gather_scatter,histogram,counting_sort}.cu. All
// calls are stream-ordered; out-of-range indices and keys are recorded on the device and
// raised by ctx.synchronize() (see parprim/gather_scatter.hpp).
#pragma once

#include <cstdint>

#include "core/scatter_model.hpp"
#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda_backend {

// checked = false drops the bounds test altogether (benchmarks measure its cost with it;
// the caller guarantees every index is in range).
template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
            bool checked = true);
// passes >= 1; passes > 1 writes one slice of `out` per pass.
template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             int passes, bool checked = true);

// B_seq, B_rand(S) and the launch cost of the context's device (synchronizes the context).
detail::scatter_bandwidths measure_scatter_bandwidths(const context& ctx);

template <class T>
void histogram(const context& ctx, span<const T> samples, span<std::uint64_t> bins_out,
               std::int64_t num_bins, T lower, T upper);

// V is any 4- or 8-byte type; values may be empty (keys only).
template <class K, class V>
void counting_sort(const context& ctx, span<const K> keys_in, span<const V> values_in,
                   span<K> keys_out, span<V> values_out, std::int64_t key_range, K min_key);

}  // namespace parprim::cuda_backend
