// All-pairs forces and potentials on the CPU (OpenMP threads x SIMD lanes).
//
// Ours (forces, potentials): bodies i are taken in blocks of `i_block`, and for each block the
// j range is walked in tiles small enough to stay in the L1/L2 cache while the block's bodies
// sweep over it; the j loop is a SIMD reduction. Every i keeps its own fixed summation order
// (tile by tile, lanes combined the same way), so results do not depend on the thread count.
//
// forces_obvious is the loop anyone would write first (the seed's C code with an OpenMP
// pragma): the yardstick the CPU backend is measured against.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace parprim::nbody::cpu {

inline constexpr std::int64_t i_block = 64;
inline constexpr std::int64_t j_tile = 2048;

inline int threads_for(std::int64_t n, int threads) {
  // n^2 interactions: worth a fork/join from a few hundred bodies on.
  return n * n < (std::int64_t(1) << 16) ? 1 : std::max(1, threads);
}

// a[i] = sum_{j} m_j (x_j - x_i) / (r^2 + eps2)^(3/2); the j == i term is zero (dx = 0) and
// pairs at distance 0 without softening contribute nothing (the r2 > 0 test). Only targets
// i in [i_begin, i_end) are computed, a[i - i_begin] receives body i's (a device group's rank
// computes its own slice); each i's sum is the same whatever the range around it.
template <class T>
void forces_of(std::int64_t n, std::int64_t i_begin, std::int64_t i_end, int threads, const T* x,
               const T* y, const T* z, const T* m, T eps2, T* ax, T* ay, T* az) {
  const std::int64_t blocks = (i_end - i_begin + i_block - 1) / i_block;
  const int t = threads_for(n, threads);
#pragma omp parallel for schedule(dynamic, 1) num_threads(t) if (t > 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t i0 = i_begin + b * i_block, i1 = std::min(i_end, i0 + i_block);
    T sx[i_block] = {}, sy[i_block] = {}, sz[i_block] = {};
    for (std::int64_t j0 = 0; j0 < n; j0 += j_tile) {
      const std::int64_t j1 = std::min(n, j0 + j_tile);
      for (std::int64_t i = i0; i < i1; ++i) {
        const T xi = x[i], yi = y[i], zi = z[i];
        T px = 0, py = 0, pz = 0;
#pragma omp simd reduction(+ : px, py, pz)
        for (std::int64_t j = j0; j < j1; ++j) {
          T dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
          T r2 = dx * dx + dy * dy + dz * dz + eps2;
          // m / r^3 with one square root and one division.
          T s = r2 > T(0) ? m[j] / (r2 * std::sqrt(r2)) : T(0);
          px += dx * s;
          py += dy * s;
          pz += dz * s;
        }
        sx[i - i0] += px;
        sy[i - i0] += py;
        sz[i - i0] += pz;
      }
    }
    for (std::int64_t i = i0; i < i1; ++i) {
      ax[i - i_begin] = sx[i - i0];
      ay[i - i_begin] = sy[i - i0];
      az[i - i_begin] = sz[i - i0];
    }
  }
}

// All n targets.
template <class T>
void forces(std::int64_t n, int threads, const T* x, const T* y, const T* z, const T* m, T eps2,
            T* ax, T* ay, T* az) {
  forces_of<T>(n, 0, n, threads, x, y, z, m, eps2, ax, ay, az);
}

template <class T>
void potentials(std::int64_t n, int threads, const T* x, const T* y, const T* z, const T* m, T eps2,
                T* phi) {
  const std::int64_t blocks = (n + i_block - 1) / i_block;
  const int t = threads_for(n, threads);
#pragma omp parallel for schedule(dynamic, 1) num_threads(t) if (t > 1)
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t i0 = b * i_block, i1 = std::min(n, i0 + i_block);
    for (std::int64_t i = i0; i < i1; ++i) {
      const T xi = x[i], yi = y[i], zi = z[i];
      T p = 0;
#pragma omp simd reduction(+ : p)
      for (std::int64_t j = 0; j < n; ++j) {
        T dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
        T r2 = dx * dx + dy * dy + dz * dz + eps2;
        p += (j != i && r2 > T(0)) ? m[j] / std::sqrt(r2) : T(0);
      }
      phi[i] = -p;
    }
  }
}

// The obvious loop: one body per iteration of a parallel for, the seed's inner loop as written.
template <class T>
void forces_obvious(std::int64_t n, int threads, const T* x, const T* y, const T* z, const T* m,
                    T eps2, T* ax, T* ay, T* az) {
  const int t = std::max(1, threads);
#pragma omp parallel for schedule(static) num_threads(t)
  for (std::int64_t i = 0; i < n; ++i) {
    T sx = 0, sy = 0, sz = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      if (i != j) {
        T dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
        T dsq = dx * dx + dy * dy + dz * dz;
        T dinv = T(1) / std::sqrt(dsq + eps2);
        T scale = m[j] * dinv * dinv * dinv;
        sx += dx * scale;
        sy += dy * scale;
        sz += dz * scale;
      }
    }
    ax[i] = sx;
    ay[i] = sy;
    az[i] = sz;
  }
}

}  // namespace parprim::nbody::cpu
