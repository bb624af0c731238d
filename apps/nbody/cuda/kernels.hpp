// The CUDA backend's kernels, declared in plain C++ so that host code (cuda_system.cpp,
// ladder.cpp) is compiled by the host compiler. Every launcher queues work on the context's
// stream, checks the launch and returns without waiting.
#pragma once

#include <cstdint>
#include <string>

#include "parprim/context.hpp"

namespace parprim::nbody::cuda {

// A body as the kernels see it: position and mass (w), or a velocity/acceleration (w unused).
// 16-byte (float) or 32-byte (double) aligned so one thread moves it with vector loads.
template <class T>
struct alignas(4 * sizeof(T)) vec4 {
  T x, y, z, w;
};

// Tuning of the production force kernel (constants, not macros, so tests and reports can
// print them).
struct force_tuning {
  static constexpr int block = 128;             // threads per block = bodies per shared tile
  static constexpr int bodies_per_thread_f32 = 8;  // register blocking: i bodies per thread
  static constexpr int bodies_per_thread_f64 = 2;
  static constexpr int unroll = 8;               // bodies j per iteration of the tile sweep
  static constexpr int min_tiles_per_slice = 4;  // a j slice is at least this many tiles
  static constexpr int min_blocks_per_sm = 1;    // __launch_bounds__ occupancy hint (0: none)
  // Next tile read into registers while the current one is swept, two shared buffers: one
  // barrier per tile and no wait on global memory (false: load, barrier, sweep, barrier).
  static constexpr bool prefetch_tile = false;
  // Slices from a cost model of the last blocks on each SM (plan_forces); false: just enough
  // slices to fill the resident capacity of the GPU once.
  static constexpr bool balanced_slices = true;
  static constexpr int max_slices = 32;          // cap of the cost model (partial sums memory)
};

// How the production kernel covers n bodies on this device.
struct force_plan {
  int blocks = 0;   // i blocks (block * bodies_per_thread bodies each)
  int slices = 1;   // the j range is cut into this many slices, summed by a second pass
  int tiles_per_slice = 0;
  int resident_blocks_per_sm = 0;
  int sms = 0;
};

// targets: the bodies whose forces are computed (default: all n; a device group's rank plans
// for its own slice).
template <class T>
force_plan plan_forces(const context& ctx, std::int64_t n, bool equal_mass, bool guard,
                       std::int64_t targets = -1);

// acc[i] = sum_j m_j (x_j - x_i) / (r^2 + eps2)^(3/2), the production kernel (register
// blocking, shared-memory tiles, j slices). `partial` must hold plan.slices * n vec4 when
// plan.slices > 1 (unused otherwise). equal_mass: every w equals `mass`, which is then
// factored out of the sum. guard: skip pairs with r^2 + eps2 == 0 (needed when eps2 == 0).
template <class T>
void forces(const context& ctx, const force_plan& plan, const vec4<T>* pos, std::int64_t n,
            T eps2, bool equal_mass, T mass, bool guard, vec4<T>* partial, vec4<T>* acc);

// The same for the targets [first_target, first_target + targets) only: acc[k] is body
// first_target + k's acceleration (partial: plan.slices * targets vec4).
template <class T>
void forces_of(const context& ctx, const force_plan& plan, const vec4<T>* pos, std::int64_t n,
               std::int64_t first_target, std::int64_t targets, T eps2, bool equal_mass, T mass,
               bool guard, vec4<T>* partial, vec4<T>* acc);

// phi[i] = -sum_{j != i} m_j / sqrt(r^2 + eps2).
template <class T>
void potentials(const context& ctx, const vec4<T>* pos, std::int64_t n, T eps2, T* phi);

// Leapfrog pieces: v += a h; x += v dt (mass in pos.w untouched).
template <class T>
void kick_drift(const context& ctx, vec4<T>* pos, vec4<T>* vel, const vec4<T>* acc,
                std::int64_t n, T half_dt, T dt);
template <class T>
void kick(const context& ctx, vec4<T>* vel, const vec4<T>* acc, std::int64_t n, T half_dt);

// The tuning ladder's kernels (float; ladder_kernels.cu). Each step has its own data layout:
// the caller owns the arrays and passes them in `ladder_data`.
enum class ladder_step {
  one_thread,        // one GPU thread does everything (array of structs, if (i != j))
  n_threads,         // one thread per body
  scalar_arrays,     // structure of arrays
  constant_params,   // pointers, n and eps^2 in constant memory
  rsqrtf,            // rsqrtf instead of 1/sqrtf
  two_loops,         // j < i and j > i instead of if (i != j)
  shared_blocking,   // shared-memory tiles of the scalar arrays
  loop_unrolling,    // #pragma unroll 8 over padded tiles
  if_elimination,    // softening makes the i == j term zero: no test at all
  fma_order,         // terms ordered so the compiler emits fused multiply-adds
  unroll_full,       // the seed's "higher unroll factor": the whole tile
  fast_math,         // flush-to-zero rsqrt (what -use_fast_math buys)
  float4_tiles,      // one 16-byte body per shared slot: one load instead of four
  gems3_tiled,       // the yardstick: GPU Gems 3 ch. 31 style (256-body float4 tiles, rsqrtf)
};

// The seed's body record.
struct aos_body {
  float mass, posx, posy, posz, velx, vely, velz, accx, accy, accz;
};

struct ladder_data {
  std::int64_t n = 0;
  std::int64_t padded = 0;  // scalar arrays are padded to a multiple of 256 with massless bodies
  float eps2 = 0;
  aos_body* bodies = nullptr;  // n records (one_thread, n_threads)
  float *mass = nullptr, *posx = nullptr, *posy = nullptr, *posz = nullptr;  // `padded` each
  float *accx = nullptr, *accy = nullptr, *accz = nullptr;                   // `padded` each
  vec4<float>* pos4 = nullptr;  // `padded` bodies, w = mass
  vec4<float>* acc4 = nullptr;  // `padded`
};

void ladder_forces(const context& ctx, ladder_step step, const ladder_data& d);
const char* to_string(ladder_step step);

}  // namespace parprim::nbody::cuda
