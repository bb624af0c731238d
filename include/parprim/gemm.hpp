// gemm: C = alpha * op(A) * op(B) + beta * C for row-major f32 and f64 matrices.
//
//   op(A) is M x K: A is stored M x K (transpose::no) or K x M (transpose::yes), densely;
//   op(B) is K x N: B is stored K x N (transpose::no) or N x K (transpose::yes), densely;
//   C is M x N. M, N and K must be at least 1.
//
// When beta is 0, C is only written (never read), so it may hold garbage or NaN on entry.
// C must not overlap A or B. Each element of C is computed by one thread in a fixed order:
// results are bitwise reproducible from run to run.
//
// On CUDA, the algorithms form the course's ladder; every one is a complete, bounds-checked
// implementation. The fast paths of register_blocked, double_buffered and production need
// op = no transpose on both operands, K and N multiples of 16 bytes' worth of elements and
// 16-byte aligned pointers; any other shape takes the same kernels with scalar loads.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"

namespace parprim {

enum class transpose { no, yes };

enum class gemm_algorithm {
  naive,             // one thread per element of C, operands straight from global memory
  tiled4,            // the course's shared-memory tiles, TILE_WIDTH = 4
  tiled8,            //   ... TILE_WIDTH = 8
  tiled16,           //   ... TILE_WIDTH = 16
  tiled32,           //   ... TILE_WIDTH = 32
  register_blocked,  // 64x64 block tiles, 4x4 outputs per thread, 16-byte loads
  double_buffered,   // register_blocked plus prefetch into a second shared-memory buffer
  production,        // 128x128 tiles, 8x8 per thread, warp tiling, double-buffered (default)
};
const char* to_string(gemm_algorithm a) noexcept;
const char* to_string(transpose t) noexcept;

template <class T>
void gemm(const context& ctx, span<const T> A, span<const T> B, span<T> C, std::int64_t M,
          std::int64_t N, std::int64_t K, T alpha = T(1), T beta = T(0),
          transpose trans_a = transpose::no, transpose trans_b = transpose::no,
          gemm_algorithm alg = gemm_algorithm::production);

}  // namespace parprim
