// The OpenMP backend's dense linear algebra: dot and gemm. Front ends call these after
// validating arguments (sizes agree, pointers valid, M, N, K >= 1).
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/gemm.hpp"
#include "parprim/span.hpp"

namespace parprim::cpu_backend {

template <class T>
T dot(const context& ctx, span<const T> x, span<const T> y);

template <class T>
void gemm(const context& ctx, const T* A, const T* B, T* C, std::int64_t M, std::int64_t N,
          std::int64_t K, T alpha, T beta, transpose trans_a, transpose trans_b);

}  // namespace parprim::cpu_backend
