// gather and scatter on the GPU, single- and multi-pass, and the measurements behind the
// multi-pass scatter's cost model.
//
// Each thread owns `items` consecutive elements: their indices arrive in one or two 16-byte
// streaming loads, and the `items` random accesses are independent, so a thread has all of
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
// and a value is loaded only when its index is in the slice.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/bad_position.hpp"
#include "core/hash_permutation.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/primitives/vector_io.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/tuning/gather_scatter_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::gather_scatter_tuning;
constexpr int items = tuning::items;

template <int Bytes>
struct word_of;
template <>
struct word_of<4> {
  using type = std::uint32_t;
};
template <>
struct word_of<8> {
  using type = std::uint64_t;
};
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

// Loads the indices of the thread's elements [base, base + m); full: all `items` at once.
template <class I>
__device__ __forceinline__ void load_indices(const I* indices, std::int64_t base, int m, bool full,
                                             I (&idx)[items]) {
  if (full) {
    load_streaming(indices + base, idx);
  } else {
#pragma unroll
    for (int j = 0; j < items; ++j) idx[j] = j < m ? __ldcs(indices + base + j) : I(0);
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
  load_indices(indices, base, m, full, idx);
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
  load_indices(indices, base, m, full, idx);
  V v[items];
  if (!multi) {
    if (full) {
      load_streaming(values + base, v);
    } else {
#pragma unroll
      for (int j = 0; j < items; ++j) v[j] = j < m ? __ldcs(values + base + j) : V(0);
    }
  }

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
  for (std::uint64_t begin = 0; begin < size; begin += slice) {
    const std::uint64_t len = std::min(slice, size - begin);
    scatter_kernel<V, I><<<blocks, tuning::threads, 0, stream_of(ctx)>>>(
        vin, indices.data(), vout, n, size, begin, len, vec, true, checked,
        begin == 0 ? bad : nullptr);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter");
  }
}

namespace {

// CUDA events on the context's stream, destroyed on every path.
class event_pair {
 public:
  explicit event_pair(const context& ctx) : ctx_(ctx) {
    PARPRIM_CUDA_CHECK(ctx.name(), "scatter (calibration)", cudaEventCreate(&start_));
    cudaError_t e = cudaEventCreate(&stop_);
    if (e != cudaSuccess) {
      cudaEventDestroy(start_);
      cuda_rt::check(e, ctx.name(), "scatter (calibration)", "cudaEventCreate");
    }
  }
  ~event_pair() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;

  // Seconds the work queued by fn takes on the stream.
  template <class F>
  double seconds(F&& fn) {
    const char* who = "scatter (calibration)";
    PARPRIM_CUDA_CHECK(ctx_.name(), who, cudaEventRecord(start_, stream_of(ctx_)));
    fn();
    PARPRIM_CUDA_CHECK(ctx_.name(), who, cudaEventRecord(stop_, stream_of(ctx_)));
    PARPRIM_CUDA_CHECK(ctx_.name(), who, cudaEventSynchronize(stop_));
    float ms = 0;
    PARPRIM_CUDA_CHECK(ctx_.name(), who, cudaEventElapsedTime(&ms, start_, stop_));
    return std::max(1e-9, double(ms) * 1e-3);
  }

 private:
  const context& ctx_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

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
double random_fill_rate(const context& ctx, event_pair& ev, scratch& buf, std::size_t region) {
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
  double t = ev.seconds([&] {
    for (std::size_t s = 0; s < slices; ++s) fill(s);
  });
  return double(slices) * double(region) / t;
}

}  // namespace

detail::scatter_bandwidths measure_scatter_bandwidths(const context& ctx) {
  use_device(ctx, "scatter (calibration)");
  detail::scatter_bandwidths bw;
  scratch buf(ctx, std::size_t(1) << 28);
  event_pair ev(ctx);
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
  for (int rep = 0; rep < 3; ++rep) bw.seq_bytes_per_s = std::max(bw.seq_bytes_per_s, double(buf.bytes) / ev.seconds(read_all));

  // The fixed cost of a pass: back-to-back empty launches.
  const int launches = 20;
  bw.launch_s = ev.seconds([&] {
                  for (int i = 0; i < launches; ++i) {
                    empty_kernel<<<1, 32, 0, stream_of(ctx)>>>();
                    PARPRIM_LAUNCH_CHECK(ctx.state(), "scatter (calibration)");
                  }
                }) / launches;

  // B_rand(S): 1, 2, 4 MiB, then quarter-octave steps from 8 MiB to the scratch size (the L2
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
