// gather and scatter on the GPU, single- and multi-pass. The measurements behind the
// multi-pass scatter's cost model are in scatter_calibration.cu.
//
// Each thread owns `items` consecutive elements: their indices arrive in two (int32) or four
// (int64) 16-byte streaming loads, and the `items` random accesses are independent, so a thread has all of
// them in flight at once. Elements are moved as raw 4- or 8-byte words: one kernel per
// (element size, index type), not per element type.
//
// Bounds: an index outside [0, size) is never dereferenced. The kernel records the lowest
// such position in a word owned by the call (atomicMin: only bad elements touch it), and a
// deferred check raises it at the next synchronize() (cuda/runtime/bad_position.hpp).
//
// Multi-pass scatter (He et al., SC07): pass p writes only the elements whose index lies in
// slice p of the output, so the random writes of a pass land in a region that stays in L2.
// Inputs are read with evict-first (streaming) loads so that they do not push the slice out,
// and a value is loaded only when its index is in the slice. With
// multi_pass_scatter_tuning::binned the input is instead read twice in all (count, bin by
// slice) and the binned pairs are scattered in one launch, slice after slice (see below).
#include <algorithm>
#include <optional>
#include <string>

#include "core/bad_position.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "core/word_of.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/tuning/gather_scatter_tuning.hpp"
#include "cuda/tuning/multi_pass_scatter_tuning.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::gather_scatter_tuning;
using multi_tuning = cuda_tuning::multi_pass_scatter_tuning;
constexpr int items = tuning::items;

using detail::word_of;
template <class T>
using word_t = typename word_of<sizeof(T)>::type;

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

// ---- Binned multi-pass scatter: count, bin, then one scatter over the bins.
//
// The k slices of the output are buckets 0..k-1; bucket k collects the indices outside
// [0, size), which the final scatter skips (its bounds test), so no count of good elements
// is needed on the host. Bucket b's run in the bins starts at the sum of the totals of the
// buckets before it; blocks reserve their part of a run with one atomicAdd per bucket, so
// the order inside a run varies from call to call (the scatter's result does not, except
// for duplicate indices, whose winner is unspecified anyway).

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
  T incl = sum;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    T o = __shfl_up_sync(0xFFFFFFFFu, incl, d);
    if (lane >= d) incl += o;
  }
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

inline std::int64_t blocks_for(std::int64_t n) {
  return ceil_div(n, std::int64_t(tuning::threads) * items);
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

using namespace cuda_kernels;

template <class T, class I>
void gather(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
            bool checked) {
  using V = word_t<T>;
  const std::int64_t n = indices.size();
  if (n == 0) return;
  use_device(ctx, "gather");
  unsigned long long* bad = nullptr;
  if (checked) {
    bad = cuda_rt::arm_bad_position(ctx, "gather");
    const std::string prefix = "parprim::gather [" + ctx.name() + "]: ";
    const std::int64_t size = values.size();
    cuda_rt::defer_bad_position(ctx, bad, [prefix, size](std::int64_t pos) {
      return error(errc::out_of_range, prefix + detail::bad_index_what(pos, "values", size));
    });
  }
  const bool vec = cuda_prim::aligned16(indices.data()) && cuda_prim::aligned16(out.data());
  gather_kernel<V, I><<<static_cast<unsigned>(blocks_for(n)), tuning::threads, 0, stream_of(ctx)>>>(
      reinterpret_cast<const V*>(values.data()), static_cast<std::uint64_t>(values.size()),
      indices.data(), reinterpret_cast<V*>(out.data()), n, vec, checked, bad);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "gather");
}

namespace {

// The binned multi-pass scatter: counters cleared, count, bin, one scatter over the bins
// (which skips bucket k, the bad indices, by its bounds test). Returns false, with nothing
// queued, when the bins' memory cannot be had or there are too many slices.
template <class V, class I>
bool scatter_binned(const context& ctx, const V* values, const I* indices, V* out, std::int64_t n,
                    std::uint64_t size, std::uint64_t slice, bool vec, unsigned long long* bad) {
  slicing sl;
  sl.size = size;
  sl.slice = slice;
  sl.slices = static_cast<int>((size + slice - 1) / slice);
  sl.narrow = size <= 0xFFFFFFFFull;
  const int buckets = sl.slices + 1;
  if (buckets > max_buckets) return false;
  const std::size_t index_bytes = detail::align_up(static_cast<std::size_t>(n) * sizeof(I));
  const std::size_t value_bytes = detail::align_up(static_cast<std::size_t>(n) * sizeof(V));
  const std::size_t counter_bytes = 2 * static_cast<std::size_t>(buckets) * sizeof(unsigned long long);
  std::optional<detail::temp_memory> mem;
  try {
    mem.emplace(ctx, nullptr, index_bytes + value_bytes + counter_bytes);
  } catch (const error&) {
    return false;
  }
  char* p = mem->as<char>();
  I* bin_indices = reinterpret_cast<I*>(p);
  V* bin_values = reinterpret_cast<V*>(p + index_bytes);
  auto* totals = reinterpret_cast<unsigned long long*>(p + index_bytes + value_bytes);
  unsigned long long* fill = totals + buckets;
  cudaStream_t stream = stream_of(ctx);
  PARPRIM_CUDA_CHECK(ctx.name(), "scatter", cudaMemsetAsync(totals, 0, counter_bytes, stream));
  const unsigned blocks = static_cast<unsigned>(blocks_for(n));
  bin_count_kernel<I><<<blocks, tuning::threads, 0, stream>>>(indices, n, sl, vec, totals, bad);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  bin_kernel<V, I><<<blocks, tuning::threads, 0, stream>>>(values, indices, n, sl, vec, totals, fill,
                                                            bin_values, bin_indices);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  // The bins are 256-byte aligned: vector loads throughout.
  scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream>>>(
      bin_values, bin_indices, out, n, size, 0, size, true, false, true, nullptr);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  return true;  // the bins go back to the stream-ordered cache here
}

}  // namespace

template <class T, class I>
void scatter(const context& ctx, span<const T> values, span<const I> indices, span<T> out,
             int passes, bool checked) {
  using V = word_t<T>;
  const std::int64_t n = values.size();
  if (n == 0) return;
  use_device(ctx, "scatter");
  const std::uint64_t size = static_cast<std::uint64_t>(out.size());
  unsigned long long* bad = nullptr;
  if (checked) {
    bad = cuda_rt::arm_bad_position(ctx, "scatter");
    const std::string prefix = "parprim::scatter [" + ctx.name() + "]: ";
    const std::int64_t out_size = out.size();
    cuda_rt::defer_bad_position(ctx, bad, [prefix, out_size](std::int64_t pos) {
      return error(errc::out_of_range, prefix + detail::bad_index_what(pos, "out", out_size));
    });
  }
  const bool vec = cuda_prim::aligned16(indices.data()) && cuda_prim::aligned16(values.data());
  const unsigned blocks = static_cast<unsigned>(blocks_for(n));
  const V* vin = reinterpret_cast<const V*>(values.data());
  V* vout = reinterpret_cast<V*>(out.data());
  if (passes <= 1 || size == 0) {
    scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream_of(ctx)>>>(
        vin, indices.data(), vout, n, size, 0, size, vec, false, checked, bad);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
    return;
  }
  // Slices of whole 128-byte lines, so that no line is written in two passes.
  const std::uint64_t line = 128 / sizeof(T);
  std::uint64_t slice = (size + passes - 1) / passes;
  slice = (slice + line - 1) / line * line;
  if (multi_tuning::binned &&
      scatter_binned<V, I>(ctx, vin, indices.data(), vout, n, size, slice, vec, bad))
    return;
  for (std::uint64_t begin = 0; begin < size; begin += slice) {
    const std::uint64_t len = std::min(slice, size - begin);
    scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream_of(ctx)>>>(
        vin, indices.data(), vout, n, size, begin, len, vec, true, checked,
        begin == 0 ? bad : nullptr);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  }
}

#define PARPRIM_INSTANTIATE_I(T, I)                                                         \
  template void gather<T, I>(const context&, span<const T>, span<const I>, span<T>, bool);  \
  template void scatter<T, I>(const context&, span<const T>, span<const I>, span<T>, int, bool);
#define PARPRIM_INSTANTIATE(T)           \
  PARPRIM_INSTANTIATE_I(T, std::int32_t) \
  PARPRIM_INSTANTIATE_I(T, std::int64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_I

}  // namespace parprim::cuda_backend
