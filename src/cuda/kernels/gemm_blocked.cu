// The upper steps of the GEMM ladder (register_blocked, double_buffered, production) and
// the dispatch of every algorithm.
//
// One kernel template, shaped by a cuda_tuning::gemm_tile:
//   * the block stages a BM x BK slice of op(A) and a BK x BN slice of op(B) in shared
//     memory; A is stored transposed (k-major) so that a thread reads 4 consecutive rows of
//     one k step with one 16-byte load, like B's 4 consecutive columns;
//   * each thread keeps TM x TN sums in registers: per k step it loads TM + TN values and
//     does TM * TN fused multiply-adds (8x8: 16 loads for 64 FMAs);
//   * with double_buffer, the next slice is fetched from global memory into registers while
//     the current one is multiplied, then stored to the other shared buffer: one barrier
//     per slice, and the global latency hides behind a whole slice of arithmetic.
//   * with Cfg::lean, blocks whose tile lies inside C take a loop without bounds checks on
//     walking pointers (fewer integer instructions beside the FMAs).
// The fast path (Fast = true) reads whole 16-byte vectors and needs no transposes, K and N
// multiples of 16/sizeof(T) and 16-byte aligned matrices. Every other shape takes Fast =
// false: the same tiles filled one element at a time through strides, with bounds checks on
// every element. Rows and columns past M, N, K are loaded as 0 and never stored.
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/blas_backend.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "cuda/kernels/gemm_common.cuh"
#include "cuda/tuning/gemm.hpp"

namespace parprim::cuda_backend {

namespace gemm_detail {
namespace {

// 16-byte vectors of T, with element access by a compile-time index (after unrolling), so
// that staging registers stay registers (no casts of register arrays to vector pointers).
template <class T>
struct vec16;
template <>
struct vec16<float> {
  using type = float4;
  static constexpr int width = 4;
  static __device__ __forceinline__ float& at(float4& v, int i) {
    return i == 0 ? v.x : i == 1 ? v.y : i == 2 ? v.z : v.w;
  }
};
template <>
struct vec16<double> {
  using type = double2;
  static constexpr int width = 2;
  static __device__ __forceinline__ double& at(double2& v, int i) { return i == 0 ? v.x : v.y; }
};

// Four consecutive values from 16-byte aligned shared memory.
template <class T>
struct quad {
  T v[4];
};
__device__ __forceinline__ quad<float> load4(const float* p) {
  const float4 x = *reinterpret_cast<const float4*>(p);
  return {{x.x, x.y, x.z, x.w}};
}
__device__ __forceinline__ quad<double> load4(const double* p) {
  const double2 x = *reinterpret_cast<const double2*>(p);
  const double2 y = *reinterpret_cast<const double2*>(p + 2);
  return {{x.x, x.y, y.x, y.y}};
}

template <class T, class Cfg, bool Fast>
__global__ void __launch_bounds__(Cfg::threads, Cfg::min_blocks)
    gemm_blocked_kernel(gemm_args<T> g, int tiles_m, int tiles_n) {
  using vec = vec16<T>;
  using V = typename vec::type;
  constexpr int VEC = vec::width;  // elements per 16-byte vector
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int threads = Cfg::threads;
  constexpr int loads_a = BM * BK / (threads * VEC);  // vectors of A per thread per slice
  constexpr int loads_b = BK * BN / (threads * VEC);
  static_assert(loads_a >= 1 && loads_a * threads * VEC == BM * BK, "A slice must split evenly");
  static_assert(loads_b >= 1 && loads_b * threads * VEC == BK * BN, "B slice must split evenly");
  static_assert(BK % VEC == 0 && BN % VEC == 0, "vectors must not straddle tile rows");
  // A is stored k-major; padding each k row by one vector spreads the transposing stores of
  // a warp (consecutive rows m, two or four k) over all 32 banks.
  constexpr int lda_s = BM + VEC;
  constexpr int stages = Cfg::double_buffer ? 2 : 1;
  __shared__ __align__(16) T As[stages][BK][lda_s];
  __shared__ __align__(16) T Bs[stages][BK][BN];

  const int tid = threadIdx.x;
  const tile_coord tile = grouped_tile(tiles_m, tiles_n, cuda_tuning::gemm_group_rows);
  const int m0 = tile.m * BM, n0 = tile.n * BN;

  // Which vectors of the slices this thread loads: A by rows of BK/VEC vectors, B by rows of
  // BN/VEC vectors, consecutive threads on consecutive vectors (coalesced when Fast).
  int a_row[loads_a], a_col[loads_a], b_row[loads_b], b_col[loads_b];
#pragma unroll
  for (int s = 0; s < loads_a; ++s) {
    const int e = s * threads + tid;
    a_row[s] = e / (BK / VEC);
    a_col[s] = (e % (BK / VEC)) * VEC;
  }
#pragma unroll
  for (int s = 0; s < loads_b; ++s) {
    const int e = s * threads + tid;
    b_row[s] = e / (BN / VEC);
    b_col[s] = (e % (BN / VEC)) * VEC;
  }

  V a_stage[loads_a], b_stage[loads_b];

  // Global phase: fetch the slice starting at k0 into the staging registers.
  auto fetch = [&](int k0) {
#pragma unroll
    for (int s = 0; s < loads_a; ++s) {
      const int m = m0 + a_row[s], k = k0 + a_col[s];
      if constexpr (Fast) {
        // K % VEC == 0 and k % VEC == 0: a vector is wholly inside or wholly outside.
        V v{};
        if (m < g.M && k < g.K) v = __ldg(reinterpret_cast<const V*>(g.A + std::int64_t(m) * g.K + k));
        a_stage[s] = v;
      } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v)
          vec::at(a_stage[s], v) =
              (m < g.M && k + v < g.K) ? g.A[m * g.a_ms + (k + v) * g.a_ks] : T(0);
      }
    }
#pragma unroll
    for (int s = 0; s < loads_b; ++s) {
      const int k = k0 + b_row[s], n = n0 + b_col[s];
      if constexpr (Fast) {
        V v{};
        if (k < g.K && n < g.N) v = __ldg(reinterpret_cast<const V*>(g.B + std::int64_t(k) * g.N + n));
        b_stage[s] = v;
      } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v)
          vec::at(b_stage[s], v) =
              (k < g.K && n + v < g.N) ? g.B[k * g.b_ks + (n + v) * g.b_ns] : T(0);
      }
    }
  };

  // Shared phase: A transposed into As[k][m], B as it is into Bs[k][n].
  auto stash = [&](int buf) {
#pragma unroll
    for (int s = 0; s < loads_a; ++s)
#pragma unroll
      for (int v = 0; v < VEC; ++v) As[buf][a_col[s] + v][a_row[s]] = vec::at(a_stage[s], v);
#pragma unroll
    for (int s = 0; s < loads_b; ++s) *reinterpret_cast<V*>(&Bs[buf][b_row[s]][b_col[s]]) = b_stage[s];
  };

  // This thread's outputs: (TM/4) x (TN/4) blocks of 4x4 in its warp's WM x WN tile.
  const int warp = tid / 32, lane = tid % 32;
  const int warp_m = warp / Cfg::warps_n, warp_n = warp % Cfg::warps_n;
  const int lane_m = lane / Cfg::lanes_n, lane_n = lane % Cfg::lanes_n;
  const int row_base = warp_m * Cfg::WM + lane_m * 4;  // block a adds a * lanes_m * 4
  const int col_base = warp_n * Cfg::WN + lane_n * 4;  // block b adds b * lanes_n * 4

  T acc[TM][TN];
#pragma unroll
  for (int i = 0; i < TM; ++i)
#pragma unroll
    for (int j = 0; j < TN; ++j) acc[i][j] = T(0);

  // Multiply phase: one slice from shared buffer `buf` into the register tile.
  auto multiply = [&](int buf) {
#pragma unroll
    for (int kk = 0; kk < BK; ++kk) {
      T af[TM], bf[TN];
#pragma unroll
      for (int a = 0; a < TM / 4; ++a) {
        const quad<T> r = load4(&As[buf][kk][row_base + a * Cfg::lanes_m * 4]);
#pragma unroll
        for (int i = 0; i < 4; ++i) af[a * 4 + i] = r.v[i];
      }
#pragma unroll
      for (int b = 0; b < TN / 4; ++b) {
        const quad<T> r = load4(&Bs[buf][kk][col_base + b * Cfg::lanes_n * 4]);
#pragma unroll
        for (int j = 0; j < 4; ++j) bf[b * 4 + j] = r.v[j];
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] += af[i] * bf[j];
    }
  };

  // Lean main loop (Cfg::lean) for interior blocks of the fast path: the tile lies inside M
  // and N and K is a whole number of slices, so no load needs a bounds check or a zero
  // fill, and each thread walks one pointer per staged vector instead of recomputing 64-bit
  // addresses every slice. With lean == 2 a trip covers two slices, so that both shared
  // buffers are fixed addresses (at twice the code size of the loop). The branch is uniform
  // over the block: every barrier is reached by all its threads.
  bool done = false;
  if constexpr (Fast && Cfg::lean > 0) {
    if (m0 + BM <= g.M && n0 + BN <= g.N && g.K >= BK && g.K % BK == 0) {
      const V* a_ptr[loads_a];
      const V* b_ptr[loads_b];
#pragma unroll
      for (int s = 0; s < loads_a; ++s)
        a_ptr[s] = reinterpret_cast<const V*>(g.A + std::int64_t(m0 + a_row[s]) * g.K + a_col[s]);
#pragma unroll
      for (int s = 0; s < loads_b; ++s)
        b_ptr[s] = reinterpret_cast<const V*>(g.B + std::int64_t(b_row[s]) * g.N + n0 + b_col[s]);
      const std::int64_t b_step = std::int64_t(BK / VEC) * g.N;  // one slice down B, in vectors
      auto fetch_next = [&] {
#pragma unroll
        for (int s = 0; s < loads_a; ++s) a_stage[s] = __ldg(a_ptr[s]), a_ptr[s] += BK / VEC;
#pragma unroll
        for (int s = 0; s < loads_b; ++s) b_stage[s] = __ldg(b_ptr[s]), b_ptr[s] += b_step;
      };
      fetch_next();
      stash(0);
      __syncthreads();
      const int slices = g.K / BK;
      if constexpr (Cfg::lean == 2) {
        for (int t = 0; t < slices; t += 2) {
          if (t + 1 < slices) fetch_next();  // in flight while slice t is multiplied
          multiply(0);
          if (t + 1 < slices) stash(1);
          __syncthreads();
          if (t + 1 == slices) break;
          if (t + 2 < slices) fetch_next();
          multiply(1);
          if (t + 2 < slices) stash(0);
          __syncthreads();
        }
      } else {
        int buf = 0;
        for (int t = 0; t < slices; ++t) {
          if (t + 1 < slices) fetch_next();
          multiply(buf);
          if (t + 1 < slices) stash(buf ^ 1);
          __syncthreads();
          buf ^= 1;
        }
      }
      done = true;
    }
  }

  // Main loop. Every barrier is reached by every thread of the block (the loop bounds are
  // the same for all of them).
  if (!done) {
    if constexpr (Cfg::double_buffer) {
      fetch(0);
      stash(0);
      __syncthreads();
      int buf = 0;
      for (int k0 = 0; k0 < g.K; k0 += BK) {
        const bool more = k0 + BK < g.K;
        if (more) fetch(k0 + BK);  // in flight while this slice is multiplied
        multiply(buf);
        // The other buffer was last read before the previous barrier: safe to overwrite.
        if (more) stash(buf ^ 1);
        __syncthreads();
        buf ^= 1;
      }
    } else {
      for (int k0 = 0; k0 < g.K; k0 += BK) {
        fetch(k0);
        stash(0);
        __syncthreads();
        multiply(0);
        __syncthreads();  // before the next slice overwrites the buffer
      }
    }
  }

  // Epilogue: alpha * acc + beta * C, 16-byte stores on the fast path.
#pragma unroll
  for (int a = 0; a < TM / 4; ++a)
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int m = m0 + row_base + a * Cfg::lanes_m * 4 + i;
      if (m >= g.M) continue;
      T* c_row = g.C + std::int64_t(m) * g.N;
#pragma unroll
      for (int b = 0; b < TN / 4; ++b) {
        const int n = n0 + col_base + b * Cfg::lanes_n * 4;
        if constexpr (Fast) {
          // N % VEC == 0 and n % VEC == 0: each vector is wholly inside or outside.
#pragma unroll
          for (int q = 0; q < 4; q += VEC) {
            if (n + q >= g.N) continue;
            V* p = reinterpret_cast<V*>(c_row + n + q);
            V out;
            if (g.beta == T(0)) {
#pragma unroll
              for (int v = 0; v < VEC; ++v) vec::at(out, v) = g.alpha * acc[a * 4 + i][b * 4 + q + v];
            } else {
              V old = *p;
#pragma unroll
              for (int v = 0; v < VEC; ++v)
                vec::at(out, v) = g.alpha * acc[a * 4 + i][b * 4 + q + v] + g.beta * vec::at(old, v);
            }
            *p = out;
          }
        } else {
#pragma unroll
          for (int j = 0; j < 4; ++j)
            if (n + j < g.N) c_row[n + j] = epilogue(g, acc[a * 4 + i][b * 4 + j], c_row + n + j);
        }
      }
    }
}

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

template <class T>
bool aligned16(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

template <class T, class Cfg>
void launch_blocked(const context& ctx, const gemm_args<T>& g) {
  constexpr int VEC = 16 / int(sizeof(T));
  const bool fast = !g.trans_a && !g.trans_b && g.K % VEC == 0 && g.N % VEC == 0 &&
                    aligned16(g.A) && aligned16(g.B) && aligned16(g.C);
  const int tiles_m = (g.M + Cfg::BM - 1) / Cfg::BM;
  const int tiles_n = (g.N + Cfg::BN - 1) / Cfg::BN;
  const unsigned blocks = grid_size(ctx, tiles_m, tiles_n);
  if (fast)
    gemm_blocked_kernel<T, Cfg, true><<<blocks, Cfg::threads, 0, stream_of(ctx)>>>(g, tiles_m, tiles_n);
  else
    gemm_blocked_kernel<T, Cfg, false><<<blocks, Cfg::threads, 0, stream_of(ctx)>>>(g, tiles_m, tiles_n);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "gemm");
}

}  // namespace
}  // namespace gemm_detail

template <class T>
void gemm(const context& ctx, const T* A, const T* B, T* C, std::int64_t M, std::int64_t N,
          std::int64_t K, T alpha, T beta, transpose trans_a, transpose trans_b,
          gemm_algorithm alg) {
  using namespace gemm_detail;
  using tiles = cuda_tuning::gemm_tiles<T>;
  const gemm_args<T> g = make_args(A, B, C, M, N, K, alpha, beta, trans_a == transpose::yes,
                                   trans_b == transpose::yes);
  switch (alg) {
    case gemm_algorithm::naive: return launch_naive(ctx, g);
    case gemm_algorithm::tiled4: return launch_tiled(ctx, g, 4);
    case gemm_algorithm::tiled8: return launch_tiled(ctx, g, 8);
    case gemm_algorithm::tiled16: return launch_tiled(ctx, g, 16);
    case gemm_algorithm::tiled32: return launch_tiled(ctx, g, 32);
    case gemm_algorithm::register_blocked:
      return launch_blocked<T, typename tiles::register_blocked>(ctx, g);
    case gemm_algorithm::double_buffered:
      return launch_blocked<T, typename tiles::double_buffered>(ctx, g);
    case gemm_algorithm::production:
    default: return launch_blocked<T, typename tiles::production>(ctx, g);
  }
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void gemm<T>(const context&, const T*, const T*, T*, std::int64_t, std::int64_t, \
                        std::int64_t, T, T, transpose, transpose, gemm_algorithm);
PARPRIM_INSTANTIATE(float)
PARPRIM_INSTANTIATE(double)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
