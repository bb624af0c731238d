// The CUDA backend's dense linear algebra, in plain C++ so that the front ends (compiled by
// the host compiler) can call it. Defined in src/cuda/kernels/dot.cu and gemm_*.cu; all
// calls are stream-ordered.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/dot.hpp"
#include "parprim/gemm.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

// Writes x . y to out_device[0] (device memory), no host synchronization.
template <class T>
void dot_into(const context& ctx, span<const T> x, span<const T> y, T* out_device,
              dot_algorithm alg, workspace* ws);

template <class T>
void gemm(const context& ctx, const T* A, const T* B, T* C, std::int64_t M, std::int64_t N,
          std::int64_t K, T alpha, T beta, transpose trans_a, transpose trans_b,
          gemm_algorithm alg);

}  // namespace parprim::cuda_backend
