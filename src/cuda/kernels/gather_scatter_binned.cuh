// Binned multi-pass scatter: count, bin, then one scatter over the bins. This header holds the
// kernel bodies of the count and bin sweeps; scatter_binned in gather_scatter.cu launches them,
// then scatter_kernel (gather_scatter.cuh) over the bins.
//
// The k slices of the output are buckets 0..k-1; bucket k collects the indices outside
// [0, size), which the final scatter skips (its bounds test), so no count of good elements
// is needed on the host. Bucket b's run in the bins starts at the sum of the totals of the
// buckets before it; blocks reserve their part of a run with one atomicAdd per bucket, so
// the order inside a run varies from call to call (the scatter's result does not, except
// for duplicate indices, whose winner is unspecified anyway).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/kernels/gather_scatter.cuh"
#include "parprim/cuda/detail/warp_scan.cuh"
#include "parprim/gather_scatter.hpp"

namespace parprim::cuda_kernels::gather_scatter {

constexpr int max_buckets = max_scatter_passes + 1;
constexpr int tile = tuning::threads * items;

struct slicing {
  std::uint64_t size = 0;   // output elements
  std::uint64_t slice = 1;  // elements per slice (whole 128-byte lines)
  int slices = 1;           // nonempty slices k; bucket `slices` holds the bad indices
  bool narrow = true;       // size < 2^32: 32-bit division

  __device__ __forceinline__ int bucket(std::uint64_t u) const {
    if (u >= size) return slices;
    return narrow ? static_cast<int>(static_cast<unsigned>(u) / static_cast<unsigned>(slice))
                  : static_cast<int>(u / slice);
  }
};

// Exclusive prefix sums of count <= max_buckets entries by one warp (each lane a short run).
template <class T, class Get, class Put>
__device__ __forceinline__ void warp_exclusive_scan(int count, Get get, Put put) {
  const int lane = threadIdx.x & 31;
  const int per = (count + 31) / 32;
  const int lo = min(count, lane * per), hi = min(count, lo + per);
  T sum = 0;
  for (int i = lo; i < hi; ++i) sum += get(i);
  const T incl = cuda_prim::warp_inclusive_scan(sum, [](T a, T b) { return a + b; });
  T run = incl - sum;
  for (int i = lo; i < hi; ++i) {
    const T c = get(i);
    put(i, run);
    run += c;
  }
}

// Sweep 1: elements per bucket (per-block counters in shared memory, then one global atomic
// per bucket), and the lowest bad position.
template <class I>
__global__ void __launch_bounds__(tuning::threads)
    bin_count_kernel(const I* __restrict__ indices, std::int64_t n, slicing sl, bool vec,
                     unsigned long long* __restrict__ totals, unsigned long long* bad) {
  __shared__ unsigned counts[max_buckets];
  for (int b = threadIdx.x; b <= sl.slices; b += blockDim.x) counts[b] = 0;
  __syncthreads();
  const std::int64_t base = (static_cast<std::int64_t>(blockIdx.x) * tuning::threads + threadIdx.x) * items;
  if (base < n) {
    const int m = n - base < items ? static_cast<int>(n - base) : items;
    I idx[items];
    load_run(indices, base, m, vec && m == items, idx);
#pragma unroll
    for (int j = 0; j < items; ++j) {
      if (j >= m) continue;
      const std::uint64_t u = as_offset(idx[j]);
      atomicAdd(&counts[sl.bucket(u)], 1u);
      if (bad != nullptr && u >= sl.size) atomicMin(bad, static_cast<unsigned long long>(base + j));
    }
  }
  __syncthreads();
  for (int b = threadIdx.x; b <= sl.slices; b += blockDim.x)
    if (counts[b] != 0) atomicAdd(&totals[b], static_cast<unsigned long long>(counts[b]));
}

// Sweep 2: each block partitions its tile by bucket in shared memory (rank in the bucket from
// a shared atomic), reserves its run in every bucket, and stores the runs contiguously, so the
// bins are written in full lines although the tile's buckets are random.
template <class V, class I>
__global__ void __launch_bounds__(tuning::threads)
    bin_kernel(const V* __restrict__ values, const I* __restrict__ indices, std::int64_t n,
               slicing sl, bool vec, const unsigned long long* __restrict__ totals,
               unsigned long long* __restrict__ fill, V* __restrict__ bin_values,
               I* __restrict__ bin_indices) {
  __shared__ unsigned counts[max_buckets];            // the tile's elements per bucket
  __shared__ unsigned local_start[max_buckets];       // where each bucket's run starts in the tile
  __shared__ unsigned long long dest[max_buckets];    // ... and in the bins
  __shared__ I tile_idx[tile];
  __shared__ V tile_val[tile];
  __shared__ unsigned char tile_bucket[tile];
  const int buckets = sl.slices + 1;
  for (int b = threadIdx.x; b < buckets; b += blockDim.x) counts[b] = 0;
  __syncthreads();

  // Phase 1: load the thread's elements, rank each in its bucket.
  const std::int64_t tile_base = static_cast<std::int64_t>(blockIdx.x) * tile;
  const std::int64_t base = tile_base + static_cast<std::int64_t>(threadIdx.x) * items;
  const int m = base >= n ? 0 : (n - base < items ? static_cast<int>(n - base) : items);
  const bool full = vec && m == items;
  I idx[items];
  V v[items];
  int bk[items];
  unsigned rank[items];
  if (m > 0) {
    load_run(indices, base, m, full, idx);
    load_run(values, base, m, full, v);
  }
#pragma unroll
  for (int j = 0; j < items; ++j) {
    bk[j] = 0;
    rank[j] = 0;
    if (j < m) {
      bk[j] = sl.bucket(as_offset(idx[j]));
      rank[j] = atomicAdd(&counts[bk[j]], 1u);
    }
  }
  __syncthreads();

  // Phase 2 (one warp): the runs' starts in the tile and in the bins.
  if (threadIdx.x < 32) {
    warp_exclusive_scan<unsigned>(
        buckets, [&](int b) { return counts[b]; }, [&](int b, unsigned s) { local_start[b] = s; });
    warp_exclusive_scan<unsigned long long>(
        buckets, [&](int b) { return totals[b]; },
        [&](int b, unsigned long long s) {
          dest[b] = s + (counts[b] != 0 ? atomicAdd(&fill[b], static_cast<unsigned long long>(counts[b])) : 0ull);
        });
  }
  __syncthreads();

  // Phase 3: the tile in bucket order in shared memory.
#pragma unroll
  for (int j = 0; j < items; ++j) {
    if (j >= m) continue;
    const unsigned slot = local_start[bk[j]] + rank[j];
    tile_idx[slot] = idx[j];
    tile_val[slot] = v[j];
    tile_bucket[slot] = static_cast<unsigned char>(bk[j]);
  }
  __syncthreads();

  // Phase 4: consecutive threads store consecutive slots: within a run, consecutive addresses.
  const int count = n - tile_base < tile ? static_cast<int>(n - tile_base) : tile;
  for (int s = threadIdx.x; s < count; s += tuning::threads) {
    const int b = tile_bucket[s];
    const unsigned long long pos = dest[b] + static_cast<unsigned>(s - static_cast<int>(local_start[b]));
    bin_indices[pos] = tile_idx[s];
    bin_values[pos] = tile_val[s];
  }
}

}  // namespace parprim::cuda_kernels::gather_scatter
