// The scatter's cost model measured on the context's device: B_seq (streaming reads), B_rand(S)
// (random writes into S-byte regions) and the fixed cost of a launch, as
// src/core/scatter_model.hpp uses them to choose the number of passes of a multi-pass
// scatter. multi_pass_scatter_tuning::calibration picks how B_rand(S) is found: calibration 0
// fills regions in random order with a plain kernel; calibration 1 backs it out of timed
// multi-pass scatters (cuda_backend::scatter, gather_scatter.cu).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/hash_permutation.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "cuda/tuning/multi_pass_scatter_tuning.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/timer.hpp"

namespace parprim::cuda_kernels {

namespace {

// Calibration kernels: B_seq, B_rand(S) and the cost of a launch.

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

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

using namespace cuda_kernels;
using multi_tuning = cuda_tuning::multi_pass_scatter_tuning;

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
  const int sms = ctx.multiprocessors();

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

}  // namespace parprim::cuda_backend
