// Yardsticks: cuBLAS SGEMM and Sdot on the session's stream.
//
// Row-major C = A B is column-major C^T = B^T A^T, so SGEMM is called with the operands
// swapped and no transposes. The handle is made once per device and kept for the process.
#include <cublas_v2.h>

#include <map>
#include <mutex>
#include <string>

#include "cublas.hpp"
#include "parprim/error.hpp"

namespace parprim::bench::yardstick {

namespace {

void check(cublasStatus_t st, const session& s, const char* what) {
  if (st != CUBLAS_STATUS_SUCCESS)
    throw error(errc::device_error, std::string("parprim bench [") + s.ctx().name() + "]: " + what +
                                        " failed with cuBLAS status " + std::to_string(int(st)));
}

cublasHandle_t handle_for(session& s) {
  static std::mutex m;
  static std::map<int, cublasHandle_t> handles;  // kept until exit, on purpose
  std::lock_guard<std::mutex> lock(m);
  auto& h = handles[s.ctx().device()];
  if (!h) check(cublasCreate(&h), s, "cublasCreate");
  check(cublasSetStream(h, static_cast<cudaStream_t>(s.ctx().stream())), s, "cublasSetStream");
  return h;
}

}  // namespace

double cublas_sgemm_ms(session& s, const float* A, const float* B, float* C, int M, int N, int K,
                       cublas_math math) {
  cublasHandle_t h = handle_for(s);
  check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), s, "cublasSetPointerMode");
  check(cublasSetMathMode(h, math == cublas_math::pedantic ? CUBLAS_PEDANTIC_MATH : CUBLAS_DEFAULT_MATH),
        s, "cublasSetMathMode");
  const float alpha = 1.0f, beta = 0.0f;
  return s.time_ms([&] {
    check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, B, N, A, K, &beta, C, N), s,
          "cublasSgemm");
  });
}

double cublas_sdot_ms(session& s, const float* x, const float* y, std::int64_t n,
                      float* result_device) {
  cublasHandle_t h = handle_for(s);
  check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE), s, "cublasSetPointerMode");
  check(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH), s, "cublasSetMathMode");
  const double ms = s.time_ms([&] {
    check(cublasSdot(h, int(n), x, 1, y, 1, result_device), s, "cublasSdot");
  });
  check(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), s, "cublasSetPointerMode");
  return ms;
}

}  // namespace parprim::bench::yardstick
