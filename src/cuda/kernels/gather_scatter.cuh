// Kernel bodies of gather and of the plain and multi-pass scatter (host dispatch in
// gather_scatter.cu), and the per-thread loads that the binned scatter's sweeps
// (gather_scatter_binned.cuh) share with them.
//
// Each thread owns `items` consecutive elements: their indices arrive in two (int32) or four
// (int64) 16-byte streaming loads, and the `items` random accesses are independent, so a thread has all of
// them in flight at once. Elements are moved as raw 4- or 8-byte words: one kernel per
// (element size, index type), not per element type.
//
// Bounds: an index outside [0, size) is never dereferenced. The kernel records the lowest
// such position in a word owned by the call (atomicMin: only bad elements touch it), and a
// deferred check raises it at the next synchronize() (cuda/runtime/bad_position.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>

#include "cuda/tuning/gather_scatter_tuning.hpp"

namespace parprim::cuda_kernels::gather_scatter {

using tuning = cuda_tuning::gather_scatter_tuning;
constexpr int items = tuning::items;

// `items` consecutive elements from a 16-byte aligned address, evict-first.
template <class T>
__device__ __forceinline__ void load_streaming(const T* p, T (&x)[items]) {
  constexpr int words = items * int(sizeof(T)) / 16;
  uint4 w[words];
#pragma unroll
  for (int i = 0; i < words; ++i) w[i] = __ldcs(reinterpret_cast<const uint4*>(p) + i);
  memcpy(x, w, sizeof(x));
}

template <class T>
__device__ __forceinline__ void store_streaming(T* p, const T (&x)[items]) {
  constexpr int words = items * int(sizeof(T)) / 16;
  uint4 w[words];
  memcpy(w, x, sizeof(x));
#pragma unroll
  for (int i = 0; i < words; ++i) __stcs(reinterpret_cast<uint4*>(p) + i, w[i]);
}

// An index as an unsigned offset: negative indices become huge, so `k < size` is the whole
// bounds test.
template <class I>
__device__ __forceinline__ std::uint64_t as_offset(I i) {
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(i));
}

// Loads the thread's elements [base, base + m) of p (indices or values), evict-first; full:
// all `items` at once with vector loads; past m: zero.
template <class T>
__device__ __forceinline__ void load_run(const T* p, std::int64_t base, int m, bool full,
                                         T (&x)[items]) {
  if (full) {
    load_streaming(p + base, x);
  } else {
#pragma unroll
    for (int j = 0; j < items; ++j) x[j] = j < m ? __ldcs(p + base + j) : T(0);
  }
}

// out[i] = values[indices[i]]. A bad index leaves zero bits in out[i] and is recorded.
template <class V, class I>
__global__ void __launch_bounds__(tuning::threads)
    gather_kernel(const V* __restrict__ values, std::uint64_t size, const I* __restrict__ indices,
                  V* __restrict__ out, std::int64_t n, bool vec, bool checked,
                  unsigned long long* bad) {
  const std::int64_t base = (static_cast<std::int64_t>(blockIdx.x) * tuning::threads + threadIdx.x) * items;
  if (base >= n) return;
  const int m = n - base < items ? static_cast<int>(n - base) : items;
  const bool full = vec && m == items;

  // Phase 1: the indices, then every random read issued before any is used.
  I idx[items];
  load_run(indices, base, m, full, idx);
  V v[items];
#pragma unroll
  for (int j = 0; j < items; ++j) {
    const std::uint64_t k = as_offset(idx[j]);
    v[j] = V(0);
    if (j < m) {
      if (!checked || k < size) v[j] = values[k];
      else atomicMin(bad, static_cast<unsigned long long>(base + j));
    }
  }

  // Phase 2: contiguous, streaming stores.
  if (full) {
    store_streaming(out + base, v);
  } else {
#pragma unroll
    for (int j = 0; j < items; ++j)
      if (j < m) __stcs(out + base + j, v[j]);
  }
}

// out[indices[i]] = values[i] for the i whose index lies in [slice_begin, slice_begin +
// slice_len). Single pass: the slice is the whole output (multi = false) and values arrive
// in vector loads. Multi-pass: each value is loaded only if its index is in the slice.
// `bad` is non-null in the first pass only (every pass sees the same indices).
template <class V, class I>
__global__ void __launch_bounds__(tuning::threads)
    scatter_kernel(const V* __restrict__ values, const I* __restrict__ indices, V* __restrict__ out,
                   std::int64_t n, std::uint64_t size, std::uint64_t slice_begin,
                   std::uint64_t slice_len, bool vec, bool multi, bool checked,
                   unsigned long long* bad) {
  const std::int64_t base = (static_cast<std::int64_t>(blockIdx.x) * tuning::threads + threadIdx.x) * items;
  if (base >= n) return;
  const int m = n - base < items ? static_cast<int>(n - base) : items;
  const bool full = vec && m == items;

  // Phase 1: indices (and in a single pass the values) in streaming loads.
  I idx[items];
  load_run(indices, base, m, full, idx);
  V v[items];
  if (!multi) load_run(values, base, m, full, v);

  // Phase 2: the scattered writes.
#pragma unroll
  for (int j = 0; j < items; ++j) {
    if (j >= m) continue;
    const std::uint64_t k = as_offset(idx[j]);
    if (multi) {
      if (k - slice_begin < slice_len) out[k] = __ldcs(values + base + j);
    } else if (!checked || k < size) {
      out[k] = v[j];
    }
    if (bad != nullptr && k >= size) atomicMin(bad, static_cast<unsigned long long>(base + j));
  }
}

}  // namespace parprim::cuda_kernels::gather_scatter
