// The CUDA backend's production kernels: all-pairs forces, potentials and the leapfrog pieces.
//
// The force kernel is the end of the tuning ladder (ladder_kernels.cu has the steps before it):
//  - shared-memory tiles of `block` bodies stored as one 16-byte (x, y, z, m) record each, so
//    a thread reads a whole body with one vector load, broadcast to the warp;
//  - register blocking: each thread owns R bodies i, so every body j read from shared memory
//    feeds R interactions and the load costs 1/R of an instruction per interaction;
//  - no i != j test: with softening the self term is zero (dx = 0); without it (eps = 0) a
//    `guard` variant maps 1/sqrt(0) to 0;
//  - the approximate, flush-to-zero reciprocal square root (one MUFU.RSQ) and a term order
//    that the compiler turns into fused multiply-adds. Per interaction:
//      3 FADD (dx) + 3 FFMA (r^2 + eps^2) + 1 MUFU + 3 FMUL (m / r^3) + 3 FFMA (a += dx s)
//    12 FP32 instructions and one rsqrt; 11 when all masses are equal (m factored out);
//  - j slices: when n is too small to fill the GPU with R bodies per thread, the j range is
//    cut into slices (blockIdx.y) whose partial sums a second pass adds in a fixed order, so
//    results stay bitwise reproducible on a given GPU. With force_tuning::balanced_slices
//    the count comes from a cost model of the busiest SM instead (2^18 bodies: 256 blocks of
//    1024 on 132 SMs; 3 slices leave 108 SMs with 6 blocks and 24 with 5).
#include <cuda_runtime.h>

#include <algorithm>

#include "parprim/cuda/detail/check.hpp"
#include "kernels.hpp"

namespace parprim::nbody::cuda {
namespace {

constexpr int B = force_tuning::block;

template <class T>
constexpr int bodies_per_thread =
    sizeof(T) == 4 ? force_tuning::bodies_per_thread_f32 : force_tuning::bodies_per_thread_f64;

__device__ __forceinline__ float fma_t(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fma_t(double a, double b, double c) { return __fma_rn(a, b, c); }

// One MUFU.RSQ, no denormal fix-up code around it (what -use_fast_math makes of rsqrtf).
__device__ __forceinline__ float fast_rsqrt(float x) {
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}
// Double precision has no single-instruction rsqrt; the library's rsqrt is accurate to 1 ulp.
__device__ __forceinline__ double fast_rsqrt(double x) { return ::rsqrt(x); }

// Body j (w = mass) pulls on body i: a += m dx / (r^2 + eps^2)^(3/2).
template <bool EqualMass, bool Guard, class T>
__device__ __forceinline__ void interact(const vec4<T>& bj, T xi, T yi, T zi, T eps2, T& ax, T& ay,
                                         T& az) {
  T dx = bj.x - xi, dy = bj.y - yi, dz = bj.z - zi;
  T r2 = fma_t(dx, dx, fma_t(dy, dy, fma_t(dz, dz, eps2)));
  T inv = fast_rsqrt(r2);
  if (Guard) inv = r2 > T(0) ? inv : T(0);
  T inv2 = inv * inv;
  T s = EqualMass ? inv2 * inv : (bj.w * inv) * inv2;
  ax = fma_t(dx, s, ax);
  ay = fma_t(dy, s, ay);
  az = fma_t(dz, s, az);
}

// Sweeps `count` bodies of a shared tile for this thread's R bodies i.
template <int R, bool EqualMass, bool Guard, class T>
__device__ __forceinline__ void sweep_tile(const vec4<T>* __restrict__ tp, int count, const T (&xi)[R],
                                           const T (&yi)[R], const T (&zi)[R], T eps2, T (&ax)[R],
                                           T (&ay)[R], T (&az)[R]) {
  constexpr int U = force_tuning::unroll;
  static_assert(B % U == 0, "the unrolled sweep must cover a full tile exactly");
  if (count == B) {
    // Full tile: walk it with a pointer, U bodies per iteration. (Indexing tile[jj] with an
    // unrolled counter made the compiler copy the uniform index into a vector register
    // before every load: one wasted instruction per body j.)
#pragma unroll 1
    for (int jj = 0; jj < B; jj += U, tp += U) {
#pragma unroll
      for (int u = 0; u < U; ++u) {
        const vec4<T> bj = tp[u];
#pragma unroll
        for (int k = 0; k < R; ++k)
          interact<EqualMass, Guard>(bj, xi[k], yi[k], zi[k], eps2, ax[k], ay[k], az[k]);
      }
    }
  } else {  // the last, partial tile
    for (int jj = 0; jj < count; ++jj) {
      const vec4<T> bj = tp[jj];
#pragma unroll
      for (int k = 0; k < R; ++k)
        interact<EqualMass, Guard>(bj, xi[k], yi[k], zi[k], eps2, ax[k], ay[k], az[k]);
    }
  }
}

// (min_blocks_per_sm = 0 emits no minimum: ptxas keeps its own register heuristics, which
// an explicit 1 changes.)
template <class T, bool EqualMass, bool Guard>
__global__ void __launch_bounds__(B, force_tuning::min_blocks_per_sm)
    force_kernel(const vec4<T>* __restrict__ pos, int n, int first_target, int targets, T eps2,
                 T mass, int tiles_per_slice, vec4<T>* __restrict__ out) {
  constexpr int R = bodies_per_thread<T>;
  constexpr int buffers = force_tuning::prefetch_tile ? 2 : 1;
  __shared__ vec4<T> tile[buffers][B];

  // Load phase. This thread's bodies are first + k*B of the targets [first_target,
  // first_target + targets), so each of the R loads is coalesced.
  const int first = blockIdx.x * (B * R) + threadIdx.x;
  T xi[R], yi[R], zi[R], ax[R], ay[R], az[R];
#pragma unroll
  for (int k = 0; k < R; ++k) {
    const int i = first + k * B;
    const vec4<T> p = i < targets ? pos[first_target + i] : vec4<T>{0, 0, 0, 0};
    xi[k] = p.x, yi[k] = p.y, zi[k] = p.z;
    ax[k] = ay[k] = az[k] = T(0);
  }

  // Tile phase. The block walks its slice of the j range one tile at a time: every thread
  // copies one body into shared memory, then all threads sweep the tile. Bodies past n are
  // never copied and never read (the sweep of the last tile stops at n).
  const int tiles = (n + B - 1) / B;
  const int t_begin = blockIdx.y * tiles_per_slice;
  const int t_end = min(tiles, t_begin + tiles_per_slice);
  if constexpr (force_tuning::prefetch_tile) {
    // Two buffers: tile t+1 travels from global memory into `next` while tile t is swept,
    // then goes to the other buffer, which everyone finished reading before the barrier
    // that ended the previous iteration. One barrier per tile.
    vec4<T> next{0, 0, 0, 0};
    const int j = t_begin * B + static_cast<int>(threadIdx.x);
    if (t_begin < t_end && j < n) tile[0][threadIdx.x] = pos[j];
    __syncthreads();
    int buf = 0;
    for (int t = t_begin; t < t_end; ++t) {
      const int jn = (t + 1) * B + static_cast<int>(threadIdx.x);
      const bool more = t + 1 < t_end;
      if (more && jn < n) next = pos[jn];  // in flight during the sweep
      sweep_tile<R, EqualMass, Guard>(tile[buf], min(B, n - t * B), xi, yi, zi, eps2, ax, ay, az);
      if (more && jn < n) tile[buf ^ 1][threadIdx.x] = next;
      __syncthreads();
      buf ^= 1;
    }
  } else {
    for (int t = t_begin; t < t_end; ++t) {
      const int j0 = t * B;
      __syncthreads();  // the previous tile has been read by everyone
      if (j0 + static_cast<int>(threadIdx.x) < n) tile[0][threadIdx.x] = pos[j0 + threadIdx.x];
      __syncthreads();
      sweep_tile<R, EqualMass, Guard>(tile[0], min(B, n - j0), xi, yi, zi, eps2, ax, ay, az);
    }
  }

  // Store phase: this slice's sums (the whole sum when there is one slice).
  vec4<T>* dst = out + static_cast<std::int64_t>(blockIdx.y) * targets;
  const T scale = EqualMass ? mass : T(1);
#pragma unroll
  for (int k = 0; k < R; ++k) {
    const int i = first + k * B;
    if (i < targets) dst[i] = vec4<T>{ax[k] * scale, ay[k] * scale, az[k] * scale, T(0)};
  }
}

// Adds the slices' partial sums, slice 0 first, so the order never changes.
template <class T>
__global__ void sum_slices_kernel(const vec4<T>* __restrict__ partial, int n, int slices,
                                  vec4<T>* __restrict__ acc) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vec4<T> s = partial[i];
    for (int k = 1; k < slices; ++k) {
      const vec4<T> p = partial[static_cast<std::int64_t>(k) * n + i];
      s.x += p.x, s.y += p.y, s.z += p.z;
    }
    acc[i] = s;
  }
}

// Potentials for the diagnostics: one body per thread, shared tiles, exact 1/sqrt and an
// explicit j != i test (run every K steps only, so clarity and accuracy beat speed).
template <class T>
__global__ void __launch_bounds__(B) potential_kernel(const vec4<T>* __restrict__ pos, int n,
                                                      T eps2, T* __restrict__ phi) {
  __shared__ vec4<T> tile[B];
  const int i = blockIdx.x * B + threadIdx.x;
  const vec4<T> me = i < n ? pos[i] : vec4<T>{0, 0, 0, 0};
  T p = 0;
  for (int j0 = 0; j0 < n; j0 += B) {
    __syncthreads();
    if (j0 + static_cast<int>(threadIdx.x) < n) tile[threadIdx.x] = pos[j0 + threadIdx.x];
    __syncthreads();
    const int count = min(B, n - j0);
    for (int jj = 0; jj < count; ++jj) {
      const vec4<T> b = tile[jj];
      const T dx = b.x - me.x, dy = b.y - me.y, dz = b.z - me.z;
      const T r2 = dx * dx + dy * dy + dz * dz + eps2;
      if (j0 + jj != i && r2 > T(0)) p += b.w / sqrt(r2);
    }
  }
  if (i < n) phi[i] = -p;
}

template <class T>
__global__ void kick_drift_kernel(vec4<T>* __restrict__ pos, vec4<T>* __restrict__ vel,
                                  const vec4<T>* __restrict__ acc, int n, T half_dt, T dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vec4<T> v = vel[i], p = pos[i];
    const vec4<T> a = acc[i];
    v.x += a.x * half_dt, v.y += a.y * half_dt, v.z += a.z * half_dt;
    p.x += v.x * dt, p.y += v.y * dt, p.z += v.z * dt;
    vel[i] = v;
    pos[i] = p;
  }
}

template <class T>
__global__ void kick_kernel(vec4<T>* __restrict__ vel, const vec4<T>* __restrict__ acc, int n,
                            T half_dt) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    vec4<T> v = vel[i];
    const vec4<T> a = acc[i];
    v.x += a.x * half_dt, v.y += a.y * half_dt, v.z += a.z * half_dt;
    vel[i] = v;
  }
}


template <class T>
auto force_kernel_for(bool equal_mass, bool guard) {
  if (equal_mass) return guard ? force_kernel<T, true, true> : force_kernel<T, true, false>;
  return guard ? force_kernel<T, false, true> : force_kernel<T, false, false>;
}

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

// Enough blocks of 256 threads for a grid-stride loop over n elements.
int elementwise_blocks(std::int64_t n) {
  return static_cast<int>(std::min<std::int64_t>((n + 255) / 256, 65536));
}

// The slice count whose slowest SM finishes first. Blocks are all alike (one slice of
// `tiles_per_slice` tiles for B*R bodies), and the hardware hands them to SMs as slots free
// up, so the busiest SM runs ceil(grid / sms) of them; an SM is taken to need a few resident
// blocks (16 warps) to keep its issue slots busy, so fewer count as that many. Each block
// also pays a fixed start-up (bodies i in, sums out) of about a quarter tile. Near-ties go
// to fewer slices (less partial-sum memory and a shorter summing pass).
std::int64_t balanced_slices(std::int64_t blocks, std::int64_t tiles, int sms, int resident,
                             std::int64_t most) {
  const std::int64_t saturate = std::min<std::int64_t>(resident, std::max(1, 16 * 32 / B));
  double best_cost = 0;
  std::int64_t best = 1;
  for (std::int64_t s = 1; s <= std::max<std::int64_t>(1, most); ++s) {
    const std::int64_t per_slice = (tiles + s - 1) / s;
    const std::int64_t used = (tiles + per_slice - 1) / per_slice;
    const std::int64_t busiest = std::max(saturate, (blocks * used + sms - 1) / sms);
    const double cost = double(busiest) * (double(per_slice) + 0.25);
    if (s == 1 || cost < best_cost * 0.995) best_cost = cost, best = s;
  }
  return best;
}

}  // namespace

template <class T>
force_plan plan_forces(const context& ctx, std::int64_t n, bool equal_mass, bool guard,
                       std::int64_t targets) {
  constexpr int R = bodies_per_thread<T>;
  force_plan plan;
  plan.sms = ctx.multiprocessors();
  PARPRIM_CUDA_CHECK(ctx.name(), "nbody::forces",
                     cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &plan.resident_blocks_per_sm, force_kernel_for<T>(equal_mass, guard), B, 0));
  const std::int64_t tiles = (n + B - 1) / B;
  if (targets < 0) targets = n;
  plan.blocks = static_cast<int>(std::max<std::int64_t>(1, (targets + B * R - 1) / (B * R)));
  const std::int64_t capacity = std::int64_t(plan.sms) * std::max(1, plan.resident_blocks_per_sm);
  const std::int64_t most = std::max<std::int64_t>(1, tiles / force_tuning::min_tiles_per_slice);
  std::int64_t slices = 1;
  if constexpr (force_tuning::balanced_slices) {
    slices = balanced_slices(plan.blocks, tiles, plan.sms, std::max(1, plan.resident_blocks_per_sm),
                             std::min<std::int64_t>(most, force_tuning::max_slices));
  } else {
    // Slices: as many as fill the resident capacity of the GPU once, each at least a few tiles.
    slices = std::max<std::int64_t>(1, capacity / std::max(1, plan.blocks));
    slices = std::max<std::int64_t>(1, std::min(slices, most));
  }
  slices = std::min<std::int64_t>(slices, 65535);
  plan.tiles_per_slice = static_cast<int>((tiles + slices - 1) / slices);
  plan.slices = static_cast<int>((tiles + plan.tiles_per_slice - 1) / plan.tiles_per_slice);
  return plan;
}

template <class T>
void forces(const context& ctx, const force_plan& plan, const vec4<T>* pos, std::int64_t n, T eps2,
            bool equal_mass, T mass, bool guard, vec4<T>* partial, vec4<T>* acc) {
  forces_of<T>(ctx, plan, pos, n, 0, n, eps2, equal_mass, mass, guard, partial, acc);
}

template <class T>
void forces_of(const context& ctx, const force_plan& plan, const vec4<T>* pos, std::int64_t n,
               std::int64_t first_target, std::int64_t targets, T eps2, bool equal_mass, T mass,
               bool guard, vec4<T>* partial, vec4<T>* acc) {
  if (n == 0 || targets == 0) return;
  const int ni = static_cast<int>(n), nt = static_cast<int>(targets);
  vec4<T>* out = plan.slices > 1 ? partial : acc;
  dim3 grid(plan.blocks, plan.slices);
  force_kernel_for<T>(equal_mass, guard)<<<grid, B, 0, stream_of(ctx)>>>(
      pos, ni, static_cast<int>(first_target), nt, eps2, mass, plan.tiles_per_slice, out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::forces");
  if (plan.slices > 1) {
    sum_slices_kernel<T><<<elementwise_blocks(targets), 256, 0, stream_of(ctx)>>>(partial, nt, plan.slices, acc);
    PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::forces");
  }
}

template <class T>
void potentials(const context& ctx, const vec4<T>* pos, std::int64_t n, T eps2, T* phi) {
  if (n == 0) return;
  const int blocks = static_cast<int>((n + B - 1) / B);
  potential_kernel<T><<<blocks, B, 0, stream_of(ctx)>>>(pos, static_cast<int>(n), eps2, phi);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::potentials");
}

template <class T>
void kick_drift(const context& ctx, vec4<T>* pos, vec4<T>* vel, const vec4<T>* acc, std::int64_t n,
                T half_dt, T dt) {
  if (n == 0) return;
  kick_drift_kernel<T><<<elementwise_blocks(n), 256, 0, stream_of(ctx)>>>(pos, vel, acc,
                                                                          static_cast<int>(n), half_dt, dt);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::advance");
}

template <class T>
void kick(const context& ctx, vec4<T>* vel, const vec4<T>* acc, std::int64_t n, T half_dt) {
  if (n == 0) return;
  kick_kernel<T><<<elementwise_blocks(n), 256, 0, stream_of(ctx)>>>(vel, acc, static_cast<int>(n), half_dt);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::advance");
}

#define PARPRIM_NBODY_INSTANTIATE(T)                                                               \
  template force_plan plan_forces<T>(const context&, std::int64_t, bool, bool, std::int64_t);     \
  template void forces_of<T>(const context&, const force_plan&, const vec4<T>*, std::int64_t,      \
                             std::int64_t, std::int64_t, T, bool, T, bool, vec4<T>*, vec4<T>*);   \
  template void forces<T>(const context&, const force_plan&, const vec4<T>*, std::int64_t, T, bool, \
                          T, bool, vec4<T>*, vec4<T>*);                                            \
  template void potentials<T>(const context&, const vec4<T>*, std::int64_t, T, T*);               \
  template void kick_drift<T>(const context&, vec4<T>*, vec4<T>*, const vec4<T>*, std::int64_t, T, \
                              T);                                                                  \
  template void kick<T>(const context&, vec4<T>*, const vec4<T>*, std::int64_t, T);
PARPRIM_NBODY_INSTANTIATE(float)
PARPRIM_NBODY_INSTANTIATE(double)
#undef PARPRIM_NBODY_INSTANTIATE

}  // namespace parprim::nbody::cuda
