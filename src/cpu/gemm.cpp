// CPU gemm: cache-blocked, packed, OpenMP over tiles of C.
//
// C is cut into MC x NC tiles; each tile belongs to one thread, which walks K in KC-deep
// slices. For each slice it packs op(A) into MR-row panels and op(B) into NR-column panels
// (zero-padded at the edges, transposes resolved while packing), so the micro-kernel reads
// both operands contiguously from L1/L2 and keeps an MR x NR block of C in registers; the
// compiler vectorizes its inner loop (-march=native). Every element of C is summed by one
// thread in a fixed order: results do not depend on the thread count.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "cpu/blas_backend.hpp"

namespace parprim::cpu_backend {

namespace {

// 32-byte vectors (GCC/Clang vector extension): AVX registers where the target has them,
// lowered to narrower code where not.
template <class T>
struct vec32_of;
template <>
struct vec32_of<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <>
struct vec32_of<double> {
  typedef double type __attribute__((vector_size(32)));
};
template <class T>
using vec32 = typename vec32_of<T>::type;

template <class T>
struct blocking {
  static constexpr int VL = 32 / int(sizeof(T));  // elements per vector
  static constexpr int MR = 6;                    // rows of C per micro-kernel
  static constexpr int NR = 2 * VL;               // columns: two vectors (12 accumulators)
  static constexpr int MC = 96;                   // rows of a C tile (multiple of MR)
  static constexpr int NC = 256;                  // columns of a C tile (multiple of NR)
  static constexpr int KC = 256;                  // depth of one packed slice
};

template <class T>
struct operands {
  const T* A;
  const T* B;
  std::int64_t M, N, K;
  bool ta, tb;
  T a(std::int64_t i, std::int64_t k) const { return ta ? A[k * M + i] : A[i * K + k]; }
  T b(std::int64_t k, std::int64_t j) const { return tb ? B[j * K + k] : B[k * N + j]; }
};

// MR x NR block of op(A) * op(B) over kc steps, from packed panels: 2*MR vector
// accumulators stay in registers, each step broadcasts MR values of A against two vectors
// of B.
template <class T>
void micro_kernel(int kc, const T* ap, const T* bp, T* acc) {
  using bl = blocking<T>;
  using V = vec32<T>;
  V c[bl::MR][2];
  for (int i = 0; i < bl::MR; ++i) c[i][0] = c[i][1] = V{};
  for (int p = 0; p < kc; ++p) {
    V b0, b1;
    std::memcpy(&b0, bp + p * bl::NR, sizeof(V));
    std::memcpy(&b1, bp + p * bl::NR + bl::VL, sizeof(V));
    for (int i = 0; i < bl::MR; ++i) {
      const V a = V{} + ap[p * bl::MR + i];  // broadcast
      c[i][0] += a * b0;
      c[i][1] += a * b1;
    }
  }
  for (int i = 0; i < bl::MR; ++i) {
    std::memcpy(acc + i * bl::NR, &c[i][0], sizeof(V));
    std::memcpy(acc + i * bl::NR + bl::VL, &c[i][1], sizeof(V));
  }
}

template <class T>
void compute_tile(const operands<T>& op, T* C, T alpha, T beta, std::int64_t i0, std::int64_t j0,
                  std::vector<T>& apack, std::vector<T>& bpack) {
  using bl = blocking<T>;
  const std::int64_t mc = std::min<std::int64_t>(bl::MC, op.M - i0);
  const std::int64_t nc = std::min<std::int64_t>(bl::NC, op.N - j0);
  // Phase 1: C = beta * C (beta == 0 writes zeros without reading C, as BLAS does).
  for (std::int64_t i = 0; i < mc; ++i) {
    T* row = C + (i0 + i) * op.N + j0;
    for (std::int64_t j = 0; j < nc; ++j) row[j] = beta == T(0) ? T(0) : beta * row[j];
  }
  const int m_panels = int((mc + bl::MR - 1) / bl::MR);
  const int n_panels = int((nc + bl::NR - 1) / bl::NR);
  T acc[bl::MR * bl::NR];
  for (std::int64_t k0 = 0; k0 < op.K; k0 += bl::KC) {
    const int kc = int(std::min<std::int64_t>(bl::KC, op.K - k0));
    // Phase 2: pack this slice of op(A) and op(B), zero-padding partial panels.
    for (int ip = 0; ip < m_panels; ++ip)
      for (int p = 0; p < kc; ++p)
        for (int r = 0; r < bl::MR; ++r) {
          std::int64_t i = std::int64_t(ip) * bl::MR + r;
          apack[(std::size_t(ip) * kc + p) * bl::MR + r] = i < mc ? op.a(i0 + i, k0 + p) : T(0);
        }
    for (int jp = 0; jp < n_panels; ++jp)
      for (int p = 0; p < kc; ++p)
        for (int s = 0; s < bl::NR; ++s) {
          std::int64_t j = std::int64_t(jp) * bl::NR + s;
          bpack[(std::size_t(jp) * kc + p) * bl::NR + s] = j < nc ? op.b(k0 + p, j0 + j) : T(0);
        }
    // Phase 3: micro-kernels over the tile; add alpha * (slice product) into C.
    for (int jp = 0; jp < n_panels; ++jp)
      for (int ip = 0; ip < m_panels; ++ip) {
        micro_kernel<T>(kc, apack.data() + std::size_t(ip) * kc * bl::MR,
                        bpack.data() + std::size_t(jp) * kc * bl::NR, acc);
        const std::int64_t rows = std::min<std::int64_t>(bl::MR, mc - std::int64_t(ip) * bl::MR);
        const std::int64_t cols = std::min<std::int64_t>(bl::NR, nc - std::int64_t(jp) * bl::NR);
        for (std::int64_t r = 0; r < rows; ++r) {
          T* crow = C + (i0 + std::int64_t(ip) * bl::MR + r) * op.N + j0 + std::int64_t(jp) * bl::NR;
          for (std::int64_t s = 0; s < cols; ++s) crow[s] += alpha * acc[r * bl::NR + s];
        }
      }
  }
}

}  // namespace

template <class T>
void gemm(const context& ctx, const T* A, const T* B, T* C, std::int64_t M, std::int64_t N,
          std::int64_t K, T alpha, T beta, transpose trans_a, transpose trans_b) {
  using bl = blocking<T>;
  const operands<T> op{A, B, M, N, K, trans_a == transpose::yes, trans_b == transpose::yes};
  const std::int64_t tiles_m = (M + bl::MC - 1) / bl::MC;
  const std::int64_t tiles_n = (N + bl::NC - 1) / bl::NC;
  const std::int64_t tiles = tiles_m * tiles_n;
  // Small products are not worth waking the thread team.
  const bool parallel = tiles > 1 && double(M) * double(N) * double(K) > 1e6;
  const int threads = parallel ? std::max(1, ctx.threads()) : 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<T> apack(std::size_t(bl::MC) * bl::KC);
    std::vector<T> bpack(std::size_t(bl::NC) * bl::KC);
#pragma omp for schedule(dynamic)
    for (std::int64_t t = 0; t < tiles; ++t)
      compute_tile(op, C, alpha, beta, (t / tiles_n) * bl::MC, (t % tiles_n) * bl::NC, apack, bpack);
  }
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void gemm<T>(const context&, const T*, const T*, T*, std::int64_t, std::int64_t, \
                        std::int64_t, T, T, transpose, transpose);
PARPRIM_INSTANTIATE(float)
PARPRIM_INSTANTIATE(double)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cpu_backend
