// What the GEMM kernels share: the argument block, the mapping from a flat block index to a
// tile of C, operand access through strides (transposes) and the alpha/beta epilogue.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "parprim/context.hpp"

namespace parprim::cuda_backend::gemm_detail {

template <class T>
struct gemm_args {
  const T* A;
  const T* B;
  T* C;
  int M, N, K;
  T alpha, beta;
  bool trans_a, trans_b;
  // op(A)(m, k) = A[m * a_ms + k * a_ks]; op(B)(k, n) = B[k * b_ks + n * b_ns].
  std::int64_t a_ms, a_ks, b_ks, b_ns;
};

template <class T>
gemm_args<T> make_args(const T* A, const T* B, T* C, std::int64_t M, std::int64_t N,
                       std::int64_t K, T alpha, T beta, bool ta, bool tb) {
  gemm_args<T> g{A, B, C, int(M), int(N), int(K), alpha, beta, ta, tb, 0, 0, 0, 0};
  g.a_ms = ta ? 1 : K;
  g.a_ks = ta ? M : 1;
  g.b_ks = tb ? 1 : N;
  g.b_ns = tb ? K : 1;
  return g;
}

// Grids are one-dimensional (2^31 - 1 blocks) so that no shape hits the 65535 limit of
// gridDim.y; the block index is split into a tile row and column here.
struct tile_coord {
  int m, n;
};
__device__ __forceinline__ tile_coord row_major_tile(int tiles_n) {
  return {int(blockIdx.x) / tiles_n, int(blockIdx.x) % tiles_n};
}
// Grouped order: `group` consecutive tile rows walk the tile columns together.
__device__ __forceinline__ tile_coord grouped_tile(int tiles_m, int tiles_n, int group) {
  const int per_group = group * tiles_n;
  const int first_m = (int(blockIdx.x) / per_group) * group;
  const int rows = min(tiles_m - first_m, group);
  const int local = int(blockIdx.x) % per_group;
  return {first_m + local % rows, local / rows};
}

// C[i] = alpha * acc + beta * C[i]; with beta == 0, C is not read (it may hold NaN).
template <class T>
__device__ __forceinline__ T epilogue(const gemm_args<T>& g, T acc, const T* c) {
  return g.beta == T(0) ? g.alpha * acc : g.alpha * acc + g.beta * *c;
}

// Blocks for a grid of tiles_m x tiles_n tiles; throws when it exceeds gridDim.x's limit.
unsigned grid_size(const context& ctx, std::int64_t tiles_m, std::int64_t tiles_n);

// Launchers of the simple kernels (gemm_tiled.cu); the blocked ones and the dispatch are in
// gemm_blocked.cu.
template <class T>
void launch_naive(const context& ctx, const gemm_args<T>& g);
template <class T>
void launch_tiled(const context& ctx, const gemm_args<T>& g, int tile_width);

}  // namespace parprim::cuda_backend::gemm_detail
