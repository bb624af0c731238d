// Precise versus fast-math shading kernels (see fast_math.hpp).
#include <cuda_runtime.h>

#include <cmath>
#include <vector>

#include "parprim/cuda/detail/check.hpp"
#include "fast_math.hpp"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

namespace {

constexpr int lights = 64;

// A reproducible float in [0, 1) from an index and a stream number.
__device__ __forceinline__ float hash01(std::uint32_t i, std::uint32_t stream) {
  std::uint32_t x = i * 0x9E3779B1u ^ (stream * 0x85EBCA77u + 0x165667B1u);
  x ^= x >> 16;
  x *= 0x7FEB352Du;
  x ^= x >> 15;
  x *= 0x846CA68Bu;
  x ^= x >> 16;
  return float(x >> 8) * (1.0f / 16777216.0f);
}

template <bool Fast>
__global__ void shade_kernel(int n, float* __restrict__ out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  // A point on a unit sphere around (0, 0, -10) and its normal.
  const float theta = 6.2831853f * hash01(i, 0), z = 2.0f * hash01(i, 1) - 1.0f;
  const float rxy = sqrtf(1.0f - z * z);
  const float nx = rxy * cosf(theta), ny = rxy * sinf(theta), nz = z;
  const float px = nx, py = ny, pz = nz - 10.0f;
  float sum = 0.0f;
#pragma unroll 4
  for (int l = 0; l < lights; ++l) {
    // Lights on a ring around the scene.
    const float lx = -8.0f + 0.25f * float(l) - px, ly = 6.0f - px * 0.1f - py, lz = -4.0f - pz;
    const float d2 = lx * lx + ly * ly + lz * lz;
    float inv_d, atten, fog;
    if (Fast) {
      inv_d = rsqrtf(d2);
      atten = __fdividef(1.0f, 1.0f + 0.01f * d2);
      fog = __expf(-0.05f * d2 * inv_d);
    } else {
      inv_d = 1.0f / sqrtf(d2);
      atten = 1.0f / (1.0f + 0.01f * d2);
      fog = expf(-0.05f * d2 * inv_d);
    }
    const float cos_theta = (nx * lx + ny * ly + nz * lz) * inv_d;
    sum += (cos_theta > 0.0f ? cos_theta : 0.0f) * atten * fog + 0.001f;
  }
  out[i] = sum;
}

}  // namespace

fast_math_result fast_math_shading(session& s, std::int64_t points) {
  const int n = int(points);
  buffer<float> precise(s.ctx(), n), fast(s.ctx(), n);
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  const int threads = 256, blocks = (n + threads - 1) / threads;
  fast_math_result r;
  r.lights_per_point = lights;
  r.precise_ms = s.time_ms([&] {
    shade_kernel<false><<<blocks, threads, 0, stream>>>(n, precise.data());
    PARPRIM_LAUNCH_CHECK(s.ctx().state(), "bench fast_math");
  });
  r.fast_ms = s.time_ms([&] {
    shade_kernel<true><<<blocks, threads, 0, stream>>>(n, fast.data());
    PARPRIM_LAUNCH_CHECK(s.ctx().state(), "bench fast_math");
  });
  const std::vector<float> p = precise.to_host(), f = fast.to_host();
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    const double e = std::fabs(double(f[i]) - double(p[i])) / std::fabs(double(p[i]));
    r.max_rel_error = std::max(r.max_rel_error, e);
    sum += e;
  }
  r.mean_rel_error = n > 0 ? sum / n : 0.0;
  return r;
}

}  // namespace parprim::bench::yardstick
