// Sequential oracle for gemm: op(A) * op(B) in long double, plus sum_k |a_ik| |b_kj| for
// the error bound, from row-major A (M x K, or K x M transposed) and B (K x N, or N x K).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace parprim::reference {

struct gemm_product {
  std::vector<double> value;    // M x N: sum_k op(A)(i,k) * op(B)(k,j)
  std::vector<double> abs_sum;  // M x N: sum_k |op(A)(i,k)| * |op(B)(k,j)|
};

template <class T>
gemm_product gemm(const std::vector<T>& A, const std::vector<T>& B, std::int64_t M,
                  std::int64_t N, std::int64_t K, bool trans_a, bool trans_b) {
  gemm_product r;
  r.value.assign(static_cast<std::size_t>(M * N), 0.0);
  r.abs_sum.assign(static_cast<std::size_t>(M * N), 0.0);
  std::vector<long double> s(static_cast<std::size_t>(N)), a(static_cast<std::size_t>(N));
  for (std::int64_t i = 0; i < M; ++i) {
    std::fill(s.begin(), s.end(), 0.0L);
    std::fill(a.begin(), a.end(), 0.0L);
    for (std::int64_t k = 0; k < K; ++k) {
      const long double aik = trans_a ? A[k * M + i] : A[i * K + k];
      for (std::int64_t j = 0; j < N; ++j) {
        const long double bkj = trans_b ? B[j * K + k] : B[k * N + j];
        s[j] += aik * bkj;
        a[j] += std::fabs(aik * bkj);
      }
    }
    for (std::int64_t j = 0; j < N; ++j) {
      r.value[i * N + j] = static_cast<double>(s[j]);
      r.abs_sum[i * N + j] = static_cast<double>(a[j]);
    }
  }
  return r;
}

}  // namespace parprim::reference
