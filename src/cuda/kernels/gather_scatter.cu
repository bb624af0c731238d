// gather and scatter on the GPU, single- and multi-pass, and the measurements behind the
// multi-pass scatter's cost model.
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
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/bad_position.hpp"
#include "core/hash_permutation.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "core/word_of.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/tuning/gather_scatter_tuning.hpp"
#include "cuda/tuning/multi_pass_scatter_tuning.hpp"
#include "parprim/gather_scatter.hpp"
#include "parprim/timer.hpp"
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

// ---- Calibration kernels: B_seq, B_rand(S) and the cost of a launch.

// Reads n16 16-byte words (evict-first, as the multi-pass scatter reads its input).
__global__ void read_kernel(const uint4* __restrict__ p, std::int64_t n16, unsigned* sink) {
  unsigned acc = 0;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n16;
       i += stride) {
    uint4 w = __ldcs(p + i);
    acc ^= w.x ^ w.y ^ w.z ^ w.w;
  }
  if (acc == 0x9E3779B9u) *sink = acc;  // keeps the loads; practically never taken
}

// Writes every element of a region once, in a pseudo-random order.
template <class V>
__global__ void random_fill_kernel(V* __restrict__ region, detail::hash_permutation perm) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < perm.n) region[perm(i)] = static_cast<V>(i);
}

// A calibration scatter's input: indices[i] = perm(i), values[i] = i.
template <class V, class I>
__global__ void calibration_input_kernel(V* __restrict__ values, I* __restrict__ indices,
                                         detail::hash_permutation perm) {
  const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < perm.n) {
    indices[i] = static_cast<I>(perm(i));
    values[i] = static_cast<V>(i);
  }
}

__global__ void empty_kernel() {}

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

namespace {

// Seconds the work queued by fn takes on the timer's stream (never 0: callers divide by it).
template <class F>
double seconds(stream_timer& timer, F&& fn) {
  return std::max(1e-9, timer.time_ms(fn) * 1e-3);
}

// Scratch for the calibration: as large as `want` bytes if the device has room.
struct scratch {
  const context& ctx;
  void* p = nullptr;
  std::size_t bytes = 0;
  scratch(const context& c, std::size_t want) : ctx(c) {
    for (bytes = want; bytes >= (std::size_t(1) << 24); bytes /= 2) {
      try {
        p = ctx.allocate(bytes);
        return;
      } catch (const error&) {
      }
    }
    p = ctx.allocate(bytes);  // 8 MiB, or the error
  }
  ~scratch() { ctx.deallocate(p, bytes); }
};

// B_rand(S): every S-byte slice of the scratch filled once in random order, slice after
// slice as the passes of a scatter do; useful bytes per second.
template <class V>
double random_fill_rate(const context& ctx, stream_timer& ev, scratch& buf, std::size_t region) {
  // At least 64 MiB written per size: enough to cycle the L2 over, so that the write-back
  // of earlier slices is part of the figure.
  const std::size_t slices = std::max<std::size_t>(1, std::min<std::size_t>(buf.bytes, std::size_t(1) << 26) / region);
  const auto perm = detail::hash_permutation::of(region / sizeof(V));
  const unsigned blocks = static_cast<unsigned>(ceil_div(static_cast<std::int64_t>(perm.n), 256));
  auto fill = [&](std::size_t s) {
    random_fill_kernel<V><<<blocks, 256, 0, stream_of(ctx)>>>(
        reinterpret_cast<V*>(static_cast<char*>(buf.p) + s * region), perm);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter (calibration)");
  };
  fill(0);  // warm-up
  double t = seconds(ev, [&] {
    for (std::size_t s = 0; s < slices; ++s) fill(s);
  });
  return double(slices) * double(region) / t;
}

// Calibration 1: B_rand(S) backed out of the scatter itself. A random permutation of
// out_bytes / sizeof(V) elements is scattered (unchecked) in k passes for several k, and
// B_rand(out_bytes / k) is set so that the model's T(k) equals the measured time:
//   B_rand = |R| / (T_measured - sequential_seconds(k))   (the seed's |R| / B_rand term)
// with the difference kept at 5% of T or more. Ascending region sizes, and their rates.
struct region_rates {
  std::vector<double> bytes, rates;
};

template <class V, class I>
region_rates scatter_rates(const context& ctx, stream_timer& ev, scratch& buf,
                           const detail::scatter_bandwidths& bw, std::size_t out_bytes) {
  const std::int64_t m = static_cast<std::int64_t>(out_bytes / sizeof(V));
  V* values = static_cast<V*>(buf.p);
  I* indices = reinterpret_cast<I*>(values + m);
  V* out = reinterpret_cast<V*>(indices + m);
  const auto perm = detail::hash_permutation::of(static_cast<std::uint64_t>(m));
  calibration_input_kernel<V, I><<<static_cast<unsigned>(ceil_div(m, 256)), 256, 0, stream_of(ctx)>>>(
      values, indices, perm);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter (calibration)");
  auto run = [&](int k) {
    cuda_backend::scatter<V, I>(ctx, span<const V>(values, m), span<const I>(indices, m),
                                span<V>(out, m), k, false);
  };
  run(1);  // warm-up: every kernel loaded, the bins' memory in the cache
  run(2);
  region_rates r;
  const double R = double(m) * sizeof(V);
  for (int k : {64, 48, 32, 24, 20, 16, 14, 12, 10, 8, 7, 6, 5, 4, 3, 2, 1}) {
    if (m / k < 1024) continue;  // slices of at least 4 KiB
    const double t = seconds(ev, [&] { run(k); });
    const double seq = detail::sequential_seconds(bw, double(m), int(sizeof(V)), int(sizeof(I)), k);
    r.bytes.push_back(double(out_bytes) / k);
    r.rates.push_back(R / std::max(t - seq, 0.05 * t));
  }
  return r;
}

}  // namespace

detail::scatter_bandwidths measure_scatter_bandwidths(const context& ctx) {
  use_device(ctx, "scatter (calibration)");
  detail::scatter_bandwidths bw;
  bw.binned = multi_tuning::binned;
  // Calibration 1 holds values, indices and output of its calibration scatter.
  scratch buf(ctx, multi_tuning::calibration == 1
                       ? 3 * static_cast<std::size_t>(multi_tuning::calibration_out_bytes)
                       : std::size_t(1) << 28);
  stream_timer ev(ctx, "scatter (calibration)");
  int sms = 0;
  PARPRIM_CUDA_CHECK(ctx.name(), "scatter (calibration)",
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx.device()));

  // B_seq: streaming reads of the whole scratch, best of three after a warm-up.
  auto read_all = [&] {
    read_kernel<<<static_cast<unsigned>(sms * 8), 256, 0, stream_of(ctx)>>>(
        static_cast<const uint4*>(buf.p), static_cast<std::int64_t>(buf.bytes / 16),
        static_cast<unsigned*>(buf.p));
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter (calibration)");
  };
  read_all();
  for (int rep = 0; rep < 3; ++rep) bw.seq_bytes_per_s = std::max(bw.seq_bytes_per_s, double(buf.bytes) / seconds(ev, read_all));

  // The fixed cost of a pass: back-to-back empty launches.
  const int launches = 20;
  bw.launch_s = seconds(ev, [&] {
                  for (int i = 0; i < launches; ++i) {
                    empty_kernel<<<1, 32, 0, stream_of(ctx)>>>();
                    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter (calibration)");
                  }
                }) / launches;

  if (multi_tuning::calibration == 1) {
    // The same output size for both widths: one list of regions.
    const std::size_t out_bytes = buf.bytes / 3 / 4096 * 4096;
    region_rates r4 = scatter_rates<std::uint32_t, std::int32_t>(ctx, ev, buf, bw, out_bytes);
    region_rates r8 = scatter_rates<std::uint64_t, std::int64_t>(ctx, ev, buf, bw, out_bytes);
    bw.region_bytes = r4.bytes;
    bw.rand4 = r4.rates;
    bw.rand8 = r8.rates;
    return bw;
  }

  // Calibration 0, B_rand(S): 1, 2, 4 MiB, then quarter-octave steps from 8 MiB to the scratch size (the L2
  // cliff of current GPUs lies in there), 256-byte multiples.
  std::vector<std::size_t> regions = {std::size_t(1) << 20, std::size_t(1) << 21, std::size_t(1) << 22};
  for (int q = 0;; ++q) {
    double s = std::ldexp(std::pow(2.0, q / 4.0), 23);
    std::size_t r = static_cast<std::size_t>(s) / 256 * 256;
    if (r > buf.bytes) break;
    regions.push_back(r);
  }
  for (std::size_t r : regions) {
    bw.region_bytes.push_back(double(r));
    bw.rand4.push_back(random_fill_rate<std::uint32_t>(ctx, ev, buf, r));
    bw.rand8.push_back(random_fill_rate<std::uint64_t>(ctx, ev, buf, r));
  }
  return bw;
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
