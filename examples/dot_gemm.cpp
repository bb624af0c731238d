// Dot product and matrix multiply (row-major): C = A B, then the dot of two rows.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  const std::int64_t M = 64, N = 32, K = 48;
  std::vector<float> a_host(M * K, 1.0f), b_host(K * N, 0.5f);
  auto A = parprim::buffer<float>::from_host(ctx, a_host);
  auto B = parprim::buffer<float>::from_host(ctx, b_host);
  parprim::buffer<float> C(ctx, M * N);

  parprim::gemm<float>(ctx, A, B, C, M, N, K);  // C = 1 * A B + 0 * C
  float first_rows = parprim::dot<float>(ctx, A.view().subspan(0, K), A.view().subspan(K, K));
  std::vector<float> c = C.to_host();

  std::printf("%s: C[0][0] = %.1f (48 * 0.5), row 0 . row 1 = %.1f\n", ctx.name().c_str(), c[0],
              first_rows);
  return c[0] == 24.0f && c[M * N - 1] == 24.0f && first_rows == 48.0f ? 0 : 1;
}
