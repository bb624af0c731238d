// The first steps of the GEMM ladder: one thread per element of C, then the course's
// shared-memory tiles with TILE_WIDTH 4, 8, 16 and 32 and the boundary checks that make
// any M, N, K work (out-of-range tile entries are loaded as 0 and never stored).
//
// Transposes are run-time strides (see gemm_args), so each kernel exists once per type.
#include "parprim/detail/validate.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "cuda/kernels/gemm_common.cuh"

namespace parprim::cuda_backend::gemm_detail {

namespace {

constexpr int naive_side = 16;  // 16x16 threads per block

template <class T>
__global__ void __launch_bounds__(naive_side* naive_side) gemm_naive_kernel(gemm_args<T> g) {
  const int tiles_n = (g.N + naive_side - 1) / naive_side;
  const tile_coord t = row_major_tile(tiles_n);
  const int row = t.m * naive_side + int(threadIdx.y);
  const int col = t.n * naive_side + int(threadIdx.x);
  if (row >= g.M || col >= g.N) return;  // no barrier in this kernel: early exit is safe
  const T* a = g.A + row * g.a_ms;
  const T* b = g.B + col * g.b_ns;
  T sum = T(0);
  for (int k = 0; k < g.K; ++k) sum += a[k * g.a_ks] * b[k * g.b_ks];
  T* c = g.C + std::int64_t(row) * g.N + col;
  *c = epilogue(g, sum, c);
}

template <class T, int TILE>
__global__ void __launch_bounds__(TILE* TILE) gemm_tiled_kernel(gemm_args<T> g) {
  __shared__ T ds_a[TILE][TILE];
  __shared__ T ds_b[TILE][TILE];
  const int tiles_n = (g.N + TILE - 1) / TILE;
  const tile_coord t = row_major_tile(tiles_n);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = t.m * TILE + ty;
  const int col = t.n * TILE + tx;
  T sum = T(0);
  // Threads outside C still load their share of the tiles and reach every barrier.
  for (int k0 = 0; k0 < g.K; k0 += TILE) {
    // Load phase: one element of each tile per thread, 0 outside the matrices.
    const int ka = k0 + tx, kb = k0 + ty;
    ds_a[ty][tx] = (row < g.M && ka < g.K) ? g.A[row * g.a_ms + ka * g.a_ks] : T(0);
    ds_b[ty][tx] = (kb < g.K && col < g.N) ? g.B[kb * g.b_ks + col * g.b_ns] : T(0);
    __syncthreads();
    // Compute phase: a row of ds_a times a column of ds_b.
#pragma unroll
    for (int k = 0; k < TILE; ++k) sum += ds_a[ty][k] * ds_b[k][tx];
    __syncthreads();  // before the next load overwrites the tiles
  }
  if (row < g.M && col < g.N) {
    T* c = g.C + std::int64_t(row) * g.N + col;
    *c = epilogue(g, sum, c);
  }
}

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

template <class T, int TILE>
void launch_tiled_width(const context& ctx, const gemm_args<T>& g) {
  const unsigned blocks = grid_size(ctx, (g.M + TILE - 1) / TILE, (g.N + TILE - 1) / TILE);
  gemm_tiled_kernel<T, TILE><<<blocks, dim3(TILE, TILE), 0, stream_of(ctx)>>>(g);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "gemm");
}

}  // namespace

unsigned grid_size(const context& ctx, std::int64_t tiles_m, std::int64_t tiles_n) {
  const std::int64_t blocks = tiles_m * tiles_n;
  if (blocks > 0x7fffffff)
    detail::checker(ctx, "gemm").fail("M*N needs " + std::to_string(blocks) +
                                      " thread blocks with this algorithm, more than 2^31-1");
  return unsigned(blocks);
}

template <class T>
void launch_naive(const context& ctx, const gemm_args<T>& g) {
  const unsigned blocks = grid_size(ctx, (g.M + naive_side - 1) / naive_side,
                                    (g.N + naive_side - 1) / naive_side);
  gemm_naive_kernel<T><<<blocks, dim3(naive_side, naive_side), 0, stream_of(ctx)>>>(g);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "gemm");
}

template <class T>
void launch_tiled(const context& ctx, const gemm_args<T>& g, int tile_width) {
  switch (tile_width) {
    case 4: return launch_tiled_width<T, 4>(ctx, g);
    case 8: return launch_tiled_width<T, 8>(ctx, g);
    case 16: return launch_tiled_width<T, 16>(ctx, g);
    default: return launch_tiled_width<T, 32>(ctx, g);
  }
}

template void launch_naive<float>(const context&, const gemm_args<float>&);
template void launch_naive<double>(const context&, const gemm_args<double>&);
template void launch_tiled<float>(const context&, const gemm_args<float>&, int);
template void launch_tiled<double>(const context&, const gemm_args<double>&, int);

}  // namespace parprim::cuda_backend::gemm_detail
