// The tuning ladder of the course's N-body lecture (after Burtscher), one kernel per step,
// each differing from the one before by a single change, plus the GPU Gems 3 (ch. 31) tiled
// kernel as the yardstick. The steps after `float4_tiles` (register blocking, j slices, equal
// masses) are the production kernel in force.cu, run with different settings.
//
// Per interaction every step computes
//   dx = xj - xi (3 sub), r2 = dx.dx + eps2 (3 fma), inv = 1/sqrt(r2), s = m inv^3 (3 mul),
//   a += dx s (3 fma)
// which the course counts as 20 flops.
#include <cuda_runtime.h>

#include "parprim/cuda/detail/check.hpp"
#include "kernels.hpp"

namespace parprim::nbody::cuda {
namespace {

constexpr int threads = 256;  // the seed's block size (valid on every GPU it used)

// ---- 1. One thread ----------------------------------------------------------------------
// The C code moved to the GPU as it is: one thread runs both loops.
__global__ void one_thread_kernel(int nbodies, aos_body* body, float epssq) {
  for (int i = 0; i < nbodies; i++) {
    float px = body[i].posx, py = body[i].posy, pz = body[i].posz;
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < nbodies; j++) {
      if (i != j) {
        float dx = body[j].posx - px, dy = body[j].posy - py, dz = body[j].posz - pz;
        float dsq = dx * dx + dy * dy + dz * dz;
        float dinv = 1.0f / sqrtf(dsq + epssq);
        float scale = body[j].mass * dinv * dinv * dinv;
        ax += dx * scale, ay += dy * scale, az += dz * scale;
      }
    }
    body[i].accx = ax, body[i].accy = ay, body[i].accz = az;
  }
}

// ---- 2. n threads -----------------------------------------------------------------------
// The outer loop becomes the grid: one thread per body.
__global__ void n_threads_kernel(int nbodies, aos_body* body, float epssq) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < nbodies) {
    float px = body[i].posx, py = body[i].posy, pz = body[i].posz;
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < nbodies; j++) {
      if (i != j) {
        float dx = body[j].posx - px, dy = body[j].posy - py, dz = body[j].posz - pz;
        float dsq = dx * dx + dy * dy + dz * dz;
        float dinv = 1.0f / sqrtf(dsq + epssq);
        float scale = body[j].mass * dinv * dinv * dinv;
        ax += dx * scale, ay += dy * scale, az += dz * scale;
      }
    }
    body[i].accx = ax, body[i].accy = ay, body[i].accz = az;
  }
}

// ---- 3. Scalar arrays -------------------------------------------------------------------
// One array per field instead of an array of records.
__global__ void scalar_arrays_kernel(int nbodies, const float* mass, const float* posx,
                                     const float* posy, const float* posz, float* accx,
                                     float* accy, float* accz, float epssq) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < nbodies) {
    float px = posx[i], py = posy[i], pz = posz[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < nbodies; j++) {
      if (i != j) {
        float dx = posx[j] - px, dy = posy[j] - py, dz = posz[j] - pz;
        float dsq = dx * dx + dy * dy + dz * dz;
        float dinv = 1.0f / sqrtf(dsq + epssq);
        float scale = mass[j] * dinv * dinv * dinv;
        ax += dx * scale, ay += dy * scale, az += dz * scale;
      }
    }
    accx[i] = ax, accy[i] = ay, accz[i] = az;
  }
}

// ---- 4. Constant-memory parameters ------------------------------------------------------
// The parameters that never change live in constant memory ("passed" once, cached).
struct const_params {
  int nbodies;
  float epssq;
  const float *mass, *posx, *posy, *posz;
  float *accx, *accy, *accz;
};
__constant__ const_params cp;

__global__ void constant_params_kernel() {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < cp.nbodies) {
    float px = cp.posx[i], py = cp.posy[i], pz = cp.posz[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < cp.nbodies; j++) {
      if (i != j) {
        float dx = cp.posx[j] - px, dy = cp.posy[j] - py, dz = cp.posz[j] - pz;
        float dsq = dx * dx + dy * dy + dz * dz;
        float dinv = 1.0f / sqrtf(dsq + cp.epssq);
        float scale = cp.mass[j] * dinv * dinv * dinv;
        ax += dx * scale, ay += dy * scale, az += dz * scale;
      }
    }
    cp.accx[i] = ax, cp.accy[i] = ay, cp.accz[i] = az;
  }
}

// ---- 5. rsqrtf --------------------------------------------------------------------------
// The hardware's approximate 1/sqrt instead of a correctly rounded sqrt and division.
__global__ void rsqrtf_kernel() {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < cp.nbodies) {
    float px = cp.posx[i], py = cp.posy[i], pz = cp.posz[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < cp.nbodies; j++) {
      if (i != j) {
        float dx = cp.posx[j] - px, dy = cp.posy[j] - py, dz = cp.posz[j] - pz;
        float dsq = dx * dx + dy * dy + dz * dz;
        float dinv = rsqrtf(dsq + cp.epssq);
        float scale = cp.mass[j] * dinv * dinv * dinv;
        ax += dx * scale, ay += dy * scale, az += dz * scale;
      }
    }
    cp.accx[i] = ax, cp.accy[i] = ay, cp.accz[i] = az;
  }
}

// ---- 6. Two loops -----------------------------------------------------------------------
// j < i and j > i instead of the test (the seed found it useless: divergence moves into the
// loop bounds; kept as the course's step).
__device__ __forceinline__ void accumulate(int j, float px, float py, float pz, float& ax,
                                           float& ay, float& az) {
  float dx = cp.posx[j] - px, dy = cp.posy[j] - py, dz = cp.posz[j] - pz;
  float dsq = dx * dx + dy * dy + dz * dz;
  float dinv = rsqrtf(dsq + cp.epssq);
  float scale = cp.mass[j] * dinv * dinv * dinv;
  ax += dx * scale, ay += dy * scale, az += dz * scale;
}

__global__ void two_loops_kernel() {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < cp.nbodies) {
    float px = cp.posx[i], py = cp.posy[i], pz = cp.posz[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < i; j++) accumulate(j, px, py, pz, ax, ay, az);
    for (int j = i + 1; j < cp.nbodies; j++) accumulate(j, px, py, pz, ax, ay, az);
    cp.accx[i] = ax, cp.accy[i] = ay, cp.accz[i] = az;
  }
}

// ---- 7. Shared-memory blocking ----------------------------------------------------------
// Each block copies `threads` bodies at a time into shared memory (4 coalesced words per
// thread) and all its threads read them from there. Threads past the end still take part in
// the copies and barriers; they just store nothing.
__global__ void shared_blocking_kernel() {
  __shared__ float posxs[threads], posys[threads], poszs[threads], masss[threads];
  const int tid = threadIdx.x;
  const int i = tid + blockIdx.x * blockDim.x;
  const int n = cp.nbodies;
  const int me = i < n ? i : n - 1;
  float px = cp.posx[me], py = cp.posy[me], pz = cp.posz[me];
  float ax = 0, ay = 0, az = 0;
  int j = 0;
  for (int j1 = 0; j1 < n; j1 += threads) {
    int idx = tid + j1;
    __syncthreads();
    if (idx < n) {
      posxs[tid] = cp.posx[idx], posys[tid] = cp.posy[idx];
      poszs[tid] = cp.posz[idx], masss[tid] = cp.mass[idx];
    }
    __syncthreads();
    int bound = min(n - j1, threads);
    for (int j2 = 0; j2 < bound; j2++, j++) {
      if (i != j) {
        float dx = posxs[j2] - px, dy = posys[j2] - py, dz = poszs[j2] - pz;
        float dsq = dx * dx + dy * dy + dz * dz;
        float dinv = rsqrtf(dsq + cp.epssq);
        float scale = masss[j2] * dinv * dinv * dinv;
        ax += dx * scale, ay += dy * scale, az += dz * scale;
      }
    }
  }
  if (i < n) cp.accx[i] = ax, cp.accy[i] = ay, cp.accz[i] = az;
}

// ---- 8.-12. Padded tiles ----------------------------------------------------------------
// From here on the arrays are padded to a multiple of `threads` with massless bodies, so
// every tile is full and the inner loop has a constant trip count the compiler can unroll.
// The grid covers the padding too (its results are never read). One template, one change
// per step:
enum class tile_change { unroll8, no_if, fma_order, unroll128, ftz_rsqrt };

__device__ __forceinline__ float ftz_rsqrt(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

template <tile_change C>
__device__ __forceinline__ void tile_interaction(int i, int j, float xj, float yj, float zj,
                                                 float mj, float px, float py, float pz,
                                                 float epssq, float& ax, float& ay, float& az) {
  constexpr bool test = C == tile_change::unroll8;
  constexpr bool fma_order = C >= tile_change::fma_order;
  if (!test || i != j) {
    float dx = xj - px, dy = yj - py, dz = zj - pz;
    float dinv;
    if (fma_order) {
      float dsq = dx * dx + (dy * dy + (dz * dz + epssq));
      dinv = C == tile_change::ftz_rsqrt ? ftz_rsqrt(dsq) : rsqrtf(dsq);
    } else {
      float dsq = dx * dx + dy * dy + dz * dz;
      dinv = rsqrtf(dsq + epssq);
    }
    float scale = mj * dinv * dinv * dinv;
    ax += dx * scale, ay += dy * scale, az += dz * scale;
  }
}

template <tile_change C>
__global__ void padded_tiles_kernel() {
  __shared__ float posxs[threads], posys[threads], poszs[threads], masss[threads];
  const int tid = threadIdx.x;
  const int i = tid + blockIdx.x * blockDim.x;
  const int padded = (cp.nbodies + threads - 1) / threads * threads;
  const float epssq = cp.epssq;
  float px = cp.posx[i], py = cp.posy[i], pz = cp.posz[i];
  float ax = 0, ay = 0, az = 0;
  for (int j1 = 0; j1 < padded; j1 += threads) {
    __syncthreads();
    posxs[tid] = cp.posx[tid + j1], posys[tid] = cp.posy[tid + j1];
    poszs[tid] = cp.posz[tid + j1], masss[tid] = cp.mass[tid + j1];
    __syncthreads();
    if constexpr (C >= tile_change::unroll128) {
#pragma unroll 128
      for (int j2 = 0; j2 < threads; j2++)
        tile_interaction<C>(i, j1 + j2, posxs[j2], posys[j2], poszs[j2], masss[j2], px, py, pz,
                            epssq, ax, ay, az);
    } else {
#pragma unroll 8
      for (int j2 = 0; j2 < threads; j2++)
        tile_interaction<C>(i, j1 + j2, posxs[j2], posys[j2], poszs[j2], masss[j2], px, py, pz,
                            epssq, ax, ay, az);
    }
  }
  cp.accx[i] = ax, cp.accy[i] = ay, cp.accz[i] = az;
}

// ---- 13. float4 tiles -------------------------------------------------------------------
// A body is one 16-byte record (x, y, z, m) in global and shared memory: one vector load per
// body j instead of four scalar ones.
__global__ void float4_tiles_kernel(const vec4<float>* __restrict__ pos, int padded, float epssq,
                                    vec4<float>* __restrict__ acc) {
  __shared__ vec4<float> tile[threads];
  const int i = threadIdx.x + blockIdx.x * blockDim.x;
  const vec4<float> me = pos[i];
  float ax = 0, ay = 0, az = 0;
  for (int j1 = 0; j1 < padded; j1 += threads) {
    __syncthreads();
    tile[threadIdx.x] = pos[j1 + threadIdx.x];
    __syncthreads();
#pragma unroll 32
    for (int j2 = 0; j2 < threads; j2++) {
      const vec4<float> b = tile[j2];
      float dx = b.x - me.x, dy = b.y - me.y, dz = b.z - me.z;
      float dinv = ftz_rsqrt(dx * dx + (dy * dy + (dz * dz + epssq)));
      float scale = b.w * dinv * dinv * dinv;
      ax += dx * scale, ay += dy * scale, az += dz * scale;
    }
  }
  acc[i] = vec4<float>{ax, ay, az, 0.0f};
}

// ---- Yardstick: GPU Gems 3, ch. 31 ------------------------------------------------------
// Written after the chapter's description: float4 bodies (w = mass), p = 256 threads per
// block and 256-body shared tiles, rsqrtf, the tile loop unrolled by 4, n a multiple of p.
__device__ float3 body_body_interaction(float4 bi, float4 bj, float3 ai, float eps2) {
  float3 r;
  r.x = bj.x - bi.x;
  r.y = bj.y - bi.y;
  r.z = bj.z - bi.z;
  float dist_sqr = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
  float inv_dist = rsqrtf(dist_sqr);
  float inv_dist_cube = inv_dist * inv_dist * inv_dist;
  float s = bj.w * inv_dist_cube;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

__global__ void gems3_kernel(const float4* __restrict__ pos, int padded, float eps2,
                             float4* __restrict__ acc) {
  __shared__ float4 sh_position[threads];
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 my_position = pos[gtid];
  float3 a = {0.0f, 0.0f, 0.0f};
  for (int i = 0, tile = 0; i < padded; i += threads, tile++) {
    sh_position[threadIdx.x] = pos[tile * blockDim.x + threadIdx.x];
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < threads; k++) a = body_body_interaction(my_position, sh_position[k], a, eps2);
    __syncthreads();
  }
  acc[gtid] = make_float4(a.x, a.y, a.z, 0.0f);
}

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

}  // namespace

const char* to_string(ladder_step step) {
  switch (step) {
    case ladder_step::one_thread: return "one_thread";
    case ladder_step::n_threads: return "n_threads";
    case ladder_step::scalar_arrays: return "scalar_arrays";
    case ladder_step::constant_params: return "constant_params";
    case ladder_step::rsqrtf: return "rsqrtf";
    case ladder_step::two_loops: return "two_loops";
    case ladder_step::shared_blocking: return "shared_blocking";
    case ladder_step::loop_unrolling: return "loop_unrolling";
    case ladder_step::if_elimination: return "if_elimination";
    case ladder_step::fma_order: return "fma_order";
    case ladder_step::unroll_full: return "unroll_128";
    case ladder_step::fast_math: return "fast_math";
    case ladder_step::float4_tiles: return "float4_tiles";
    case ladder_step::gems3_tiled: return "gems3_tiled";
  }
  return "?";
}

void ladder_forces(const context& ctx, ladder_step step, const ladder_data& d) {
  const char* who = "nbody::ladder";
  const int n = static_cast<int>(d.n);
  const int padded = static_cast<int>(d.padded);
  const int blocks = (n + threads - 1) / threads;
  const int padded_blocks = padded / threads;
  cudaStream_t s = stream_of(ctx);
  if (step >= ladder_step::constant_params && step <= ladder_step::fast_math) {
    const_params p{n, d.eps2, d.mass, d.posx, d.posy, d.posz, d.accx, d.accy, d.accz};
    PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemcpyToSymbolAsync(cp, &p, sizeof p, 0, cudaMemcpyHostToDevice, s));
  }
  switch (step) {
    case ladder_step::one_thread: one_thread_kernel<<<1, 1, 0, s>>>(n, d.bodies, d.eps2); break;
    case ladder_step::n_threads: n_threads_kernel<<<blocks, threads, 0, s>>>(n, d.bodies, d.eps2); break;
    case ladder_step::scalar_arrays:
      scalar_arrays_kernel<<<blocks, threads, 0, s>>>(n, d.mass, d.posx, d.posy, d.posz, d.accx,
                                                      d.accy, d.accz, d.eps2);
      break;
    case ladder_step::constant_params: constant_params_kernel<<<blocks, threads, 0, s>>>(); break;
    case ladder_step::rsqrtf: rsqrtf_kernel<<<blocks, threads, 0, s>>>(); break;
    case ladder_step::two_loops: two_loops_kernel<<<blocks, threads, 0, s>>>(); break;
    case ladder_step::shared_blocking: shared_blocking_kernel<<<blocks, threads, 0, s>>>(); break;
    case ladder_step::loop_unrolling:
      padded_tiles_kernel<tile_change::unroll8><<<padded_blocks, threads, 0, s>>>();
      break;
    case ladder_step::if_elimination:
      padded_tiles_kernel<tile_change::no_if><<<padded_blocks, threads, 0, s>>>();
      break;
    case ladder_step::fma_order:
      padded_tiles_kernel<tile_change::fma_order><<<padded_blocks, threads, 0, s>>>();
      break;
    case ladder_step::unroll_full:
      padded_tiles_kernel<tile_change::unroll128><<<padded_blocks, threads, 0, s>>>();
      break;
    case ladder_step::fast_math:
      padded_tiles_kernel<tile_change::ftz_rsqrt><<<padded_blocks, threads, 0, s>>>();
      break;
    case ladder_step::float4_tiles:
      float4_tiles_kernel<<<padded_blocks, threads, 0, s>>>(d.pos4, padded, d.eps2, d.acc4);
      break;
    case ladder_step::gems3_tiled:
      gems3_kernel<<<padded_blocks, threads, 0, s>>>(reinterpret_cast<const float4*>(d.pos4), padded,
                                                     d.eps2, reinterpret_cast<float4*>(d.acc4));
      break;
  }
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace parprim::nbody::cuda
