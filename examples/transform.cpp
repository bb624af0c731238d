// Transform (map): element-wise operations, the built-in ones and any C++ callable.
#include <parprim/parprim.hpp>

#include <cstdio>
#include <vector>

int main() {
  parprim::context ctx = parprim::context::best_available();
  std::vector<float> a_host(1000), b_host(1000);
  for (int i = 0; i < 1000; ++i) a_host[i] = float(i), b_host[i] = 2.0f;
  auto a = parprim::buffer<float>::from_host(ctx, a_host);
  auto b = parprim::buffer<float>::from_host(ctx, b_host);
  parprim::buffer<float> sum(ctx, a.size()), squared(ctx, a.size());

  parprim::transform<float>(ctx, a, b, sum, parprim::binary_op::plus);   // a + b
  parprim::transform<float>(ctx, sum, squared, parprim::unary_op::square);
  std::vector<float> result = squared.to_host();

  // Any callable: a lambda on a CPU context here; in a .cu file compiled by nvcc, a
  // __host__ __device__ lambda runs on a CUDA context too (the generic layer).
  parprim::context cpu = parprim::context::cpu();
  std::vector<float> halves(a_host.size());
  parprim::transform(cpu, parprim::span<const float>(a_host), parprim::span<float>(halves),
                     [](float x) { return x / 2; });

  std::printf("%s: (999 + 2)^2 = %.0f; 999 / 2 = %.1f\n", ctx.name().c_str(), result[999],
              halves[999]);
  return result[999] == 1002001.0f && halves[999] == 499.5f ? 0 : 1;
}
