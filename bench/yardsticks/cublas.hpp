// cuBLAS yardsticks for gemm and dot, timed by the session in the same run as our kernels.
// Yardsticks only; the library never calls cuBLAS.
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

enum class cublas_math {
  pedantic,  // CUBLAS_PEDANTIC_MATH: plain FP32, no TF32 or other reduced-precision shortcuts
  standard,  // CUBLAS_DEFAULT_MATH (FP32 SGEMM, no TF32 unless the environment forces it)
};

// C = A * B for row-major M x K and K x N float matrices (leaves cuBLAS's C in C).
double cublas_sgemm_ms(session& s, const float* A, const float* B, float* C, int M, int N, int K,
                       cublas_math math);

// x . y into result_device[0], device pointer mode (no host synchronization per call).
double cublas_sdot_ms(session& s, const float* x, const float* y, std::int64_t n,
                      float* result_device);

}  // namespace parprim::bench::yardstick
