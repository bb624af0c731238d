// Front end of gemm: validate shapes, pointers and options, then dispatch to the backend.
#include "parprim/gemm.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "parprim/detail/validate.hpp"
#include "cpu/blas_backend.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/blas_backend.hpp"
#endif

namespace parprim {

const char* to_string(gemm_algorithm a) noexcept {
  switch (a) {
    case gemm_algorithm::naive: return "naive";
    case gemm_algorithm::tiled4: return "tiled4";
    case gemm_algorithm::tiled8: return "tiled8";
    case gemm_algorithm::tiled16: return "tiled16";
    case gemm_algorithm::tiled32: return "tiled32";
    case gemm_algorithm::register_blocked: return "register_blocked";
    case gemm_algorithm::double_buffered: return "double_buffered";
    case gemm_algorithm::production: return "production";
  }
  return "unknown";
}

const char* to_string(transpose t) noexcept { return t == transpose::yes ? "yes" : "no"; }

namespace {

// Kernels index rows and columns with 32-bit integers (offsets into the arrays are 64-bit);
// the margin below 2^31 keeps tile arithmetic (index + tile size) from overflowing.
constexpr std::int64_t max_dimension = std::int64_t(std::numeric_limits<std::int32_t>::max()) - 65535;

void check_dimension(const detail::checker& c, std::int64_t v, const char* name) {
  if (v < 1) c.fail(std::string(name) + "=" + std::to_string(v) + " but must be at least 1");
  if (v > max_dimension)
    c.fail(std::string(name) + "=" + std::to_string(v) + " exceeds " +
           std::to_string(max_dimension));
}

template <class T>
void check_shape(const detail::checker& c, span<T> s, const char* name, std::int64_t rows,
                 std::int64_t cols, const char* shape) {
  c.valid(s, name);
  if (s.size() != rows * cols)
    c.fail(std::string(name) + ".size()=" + std::to_string(s.size()) + " but " + shape + "=" +
           std::to_string(rows) + "*" + std::to_string(cols) + "=" +
           std::to_string(rows * cols));
}

}  // namespace

template <class T>
void gemm(const context& ctx, span<const T> A, span<const T> B, span<T> C, std::int64_t M,
          std::int64_t N, std::int64_t K, T alpha, T beta, transpose trans_a, transpose trans_b,
          gemm_algorithm alg) {
  detail::checker c(ctx, "gemm");
  check_dimension(c, M, "M");
  check_dimension(c, N, "N");
  check_dimension(c, K, "K");
  c.known_option(trans_a, transpose::yes, "trans_a");
  c.known_option(trans_b, transpose::yes, "trans_b");
  c.known_option(alg, gemm_algorithm::production, "algorithm");
  check_shape(c, A, "A", M, K, "M*K");
  check_shape(c, B, "B", K, N, "K*N");
  check_shape(c, C, "C", M, N, "M*N");
  c.no_overlap(A, "A", C, "C", false);
  c.no_overlap(B, "B", C, "C", false);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda)
    return cuda_backend::gemm(ctx, A.data(), B.data(), C.data(), M, N, K, alpha, beta, trans_a,
                              trans_b, alg);
#endif
  cpu_backend::gemm(ctx, A.data(), B.data(), C.data(), M, N, K, alpha, beta, trans_a, trans_b);
}

#define PARPRIM_INSTANTIATE(T)                                                                \
  template void gemm<T>(const context&, span<const T>, span<const T>, span<T>, std::int64_t, \
                        std::int64_t, std::int64_t, T, T, transpose, transpose, gemm_algorithm);
PARPRIM_INSTANTIATE(float)
PARPRIM_INSTANTIATE(double)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
