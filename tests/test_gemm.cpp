// gemm on both backends, f32 and f64, every algorithm of the ladder, against a long double
// oracle: odd sizes around every tile boundary, transposes, alpha and beta, unaligned views.
//
// Tolerance: each element of op(A) * op(B) is a sum of K products; in any summing order its
// error is at most K * eps * sum_k |a_ik| |b_kj| (first order), and scaling by alpha and
// adding beta * C adds two roundings, so
//   |C - exact| <= eps * (K + 2) * (|alpha| * sum_k |a_ik| |b_kj| + |beta| * |C0_ij|).
// A dropped or repeated k term errs by about sum/K, far above that bound.
#include <cmath>
#include <limits>
#include <vector>

#include "parprim/gemm.hpp"
#include "reference/gemm.hpp"
#include "support/test_support.hpp"

namespace {

using namespace parprim;
using namespace parprim::testing;

const gemm_algorithm all_algorithms[] = {
    gemm_algorithm::naive,   gemm_algorithm::tiled4,           gemm_algorithm::tiled8,
    gemm_algorithm::tiled16, gemm_algorithm::tiled32,          gemm_algorithm::register_blocked,
    gemm_algorithm::double_buffered, gemm_algorithm::production};

// The CPU backend has one algorithm and ignores the choice: run it once there.
std::vector<gemm_algorithm> algorithms_for(backend b) {
  if (b == backend::cpu) return {gemm_algorithm::production};
  return {std::begin(all_algorithms), std::end(all_algorithms)};
}

struct problem {
  std::int64_t M, N, K;
  bool ta, tb;
};

std::string describe(backend b, gemm_algorithm alg, const problem& p, double alpha, double beta) {
  return std::string(to_string(b)) + " " + to_string(alg) + " M=" + std::to_string(p.M) +
         " N=" + std::to_string(p.N) + " K=" + std::to_string(p.K) + (p.ta ? " At" : "") +
         (p.tb ? " Bt" : "") + " alpha=" + std::to_string(alpha) + " beta=" + std::to_string(beta);
}

// Runs every algorithm of backend b on one problem and checks each result element-wise.
// `offset` starts every matrix that many elements into its buffer (unaligned views).
template <class T>
void check_problem(const context& ctx, const problem& p, T alpha, T beta, std::uint64_t seed,
                   std::int64_t offset = 0) {
  const auto A = random_vector<T>(p.M * p.K, seed);
  const auto B = random_vector<T>(p.K * p.N, seed + 1);
  const auto C0 = random_vector<T>(p.M * p.N, seed + 2);
  const auto ref = reference::gemm(A, B, p.M, p.N, p.K, p.ta, p.tb);
  buffer<T> dA(ctx, p.M * p.K + offset), dB(ctx, p.K * p.N + offset), dC(ctx, p.M * p.N + offset);
  span<const T> vA = dA.view().subspan(offset, p.M * p.K);
  span<const T> vB = dB.view().subspan(offset, p.K * p.N);
  span<T> vC = dC.view().subspan(offset, p.M * p.N);
  ctx.copy_from_host(const_cast<T*>(vA.data()), A.data(), A.size() * sizeof(T));
  ctx.copy_from_host(const_cast<T*>(vB.data()), B.data(), B.size() * sizeof(T));
  const double eps = std::numeric_limits<T>::epsilon();
  const transpose ta = p.ta ? transpose::yes : transpose::no;
  const transpose tb = p.tb ? transpose::yes : transpose::no;
  for (gemm_algorithm alg : algorithms_for(ctx.kind())) {
    SCOPED_TRACE(describe(ctx.kind(), alg, p, double(alpha), double(beta)));
    // beta == 0: C must not be read, so poison it with NaN; else start from C0.
    if (beta == T(0)) dC.fill_bytes(0xFF);
    else ctx.copy_from_host(vC.data(), C0.data(), C0.size() * sizeof(T));
    gemm<T>(ctx, vA, vB, vC, p.M, p.N, p.K, alpha, beta, ta, tb, alg);
    const auto C = to_host<T>(ctx, vC.as_const());
    int failures = 0;
    for (std::int64_t i = 0; i < p.M * p.N && failures < 5; ++i) {
      const double c0 = beta == T(0) ? 0.0 : double(C0[i]);
      const double want = double(alpha) * ref.value[i] + double(beta) * c0;
      const double tol = eps * double(p.K + 2) *
                             (std::fabs(double(alpha)) * ref.abs_sum[i] + std::fabs(double(beta) * c0)) +
                         1e-300;
      if (!(std::fabs(double(C[i]) - want) <= tol)) {
        ++failures;
        ADD_FAILURE() << "C[" << i / p.N << "][" << i % p.N << "]=" << C[i] << " want " << want
                      << " (tolerance " << tol << ")";
      }
    }
  }
}

template <class T>
class GemmTest : public ::testing::Test {};
using GemmTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(GemmTest, GemmTypes);

// Every combination of sizes around the 4/8/16/32 tiles, the 64 and 128 block tiles, 1 and
// primes; beta alternates between 0 (C poisoned) and a value that reads C.
TYPED_TEST(GemmTest, OddSizesAllAlgorithms) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::vector<std::int64_t> sizes = {1, 7, 31, 33, 64, 65, 127, 128, 129};
  if (parprim::testing::max_test_size() < (1 << 20)) sizes = {1, 33, 65, 129};  // under a sanitizer
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    int round = 0;
    for (auto M : sizes)
      for (auto N : sizes)
        for (auto K : sizes) {
          const T beta = (round++ % 2) ? T(-0.5) : T(0);
          check_problem<T>(ctx, {M, N, K, false, false}, T(1.5), beta, seed + std::uint64_t(round));
        }
  }
}

TYPED_TEST(GemmTest, Transposes) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  std::vector<std::int64_t> sizes = {1, 33, 64, 129};
  if (parprim::testing::max_test_size() < (1 << 20)) sizes = {33, 129};  // under a sanitizer
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    int round = 0;
    for (bool ta : {false, true})
      for (bool tb : {false, true})
        for (auto M : sizes)
          for (auto N : sizes)
            for (auto K : sizes) {
              const T beta = (round++ % 2) ? T(0.25) : T(0);
              check_problem<T>(ctx, {M, N, K, ta, tb}, T(-1), beta, seed + std::uint64_t(round));
            }
  }
}

TYPED_TEST(GemmTest, AlphaBeta) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    for (auto [alpha, beta] : {std::pair{1.0, 0.0}, {1.0, 1.0}, {0.0, 2.0}, {-2.5, 0.5}, {0.5, -1.0}})
      check_problem<T>(ctx, {70, 136, 40, false, false}, T(alpha), T(beta), seed);
  }
}

// Several block tiles in each direction, fast path (multiples of 4) and one more.
TYPED_TEST(GemmTest, MultiTileShapes) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    check_problem<T>(ctx, {256, 384, 260, false, false}, T(1), T(0), seed);
    check_problem<T>(ctx, {257, 300, 515, false, false}, T(1), T(0.5), seed + 1);
    check_problem<T>(ctx, {1, 1000, 300, false, false}, T(1), T(0), seed + 2);
    check_problem<T>(ctx, {1000, 1, 300, true, true}, T(1), T(0), seed + 3);
  }
}

// Interior tiles of the fast path may take a loop of their own (gemm_tile::lean): one slice,
// odd and even slice counts, and interior tiles next to edge tiles in both directions.
TYPED_TEST(GemmTest, InteriorTileLoops) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    for (std::int64_t K : {8, 16, 24, 136})
      check_problem<T>(ctx, {256, 256, K, false, false}, T(1), T(0), seed + std::uint64_t(K));
    check_problem<T>(ctx, {300, 260, 24, false, false}, T(1), T(0.5), seed + 1);
  }
}

// Views one element into their buffers are not 16-byte aligned: the vector paths must not
// be taken, and the results must not change.
TYPED_TEST(GemmTest, UnalignedViews) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    check_problem<T>(ctx, {128, 128, 64, false, false}, T(1), T(0.5), seed, 1);
  }
}

TYPED_TEST(GemmTest, Reproducible) {
  using T = TypeParam;
  const auto seed = fresh_seed();
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    const std::int64_t M = 200, N = 136, K = 300;
    auto A = buffer<T>::from_host(ctx, random_vector<T>(M * K, seed));
    auto B = buffer<T>::from_host(ctx, random_vector<T>(K * N, seed + 1));
    buffer<T> C1(ctx, M * N), C2(ctx, M * N);
    for (gemm_algorithm alg : algorithms_for(b)) {
      gemm<T>(ctx, A, B, C1, M, N, K, T(1), T(0), transpose::no, transpose::no, alg);
      gemm<T>(ctx, A, B, C2, M, N, K, T(1), T(0), transpose::no, transpose::no, alg);
      const auto h1 = C1.to_host(), h2 = C2.to_host();
      EXPECT_TRUE(same_bits(h1, h2)) << to_string(alg);
    }
  }
}

TEST(GemmErrors, BadArgumentsAreRejected) {
  for (backend b : usable_backends()) {
    context ctx = make_context(b);
    buffer<float> A(ctx, 6), B(ctx, 12), C(ctx, 8);  // M=2, K=3, N=4
    span<const float> a = A, bb = B;
    span<float> c = C;
    auto expect_error = [&](auto&& call, const char* what, const char* mention) {
      try {
        call();
        ADD_FAILURE() << "no error for " << what << " on " << to_string(b);
      } catch (const error& e) {
        const std::string m = e.what();
        EXPECT_EQ(e.code(), errc::invalid_argument) << m;
        EXPECT_NE(m.find("parprim::gemm [" + ctx.name() + "]"), std::string::npos) << m;
        EXPECT_NE(m.find(mention), std::string::npos) << what << ": " << m;
      }
    };
    // The good call works.
    EXPECT_NO_THROW(gemm<float>(ctx, a, bb, c, 2, 4, 3));
    expect_error([&] { gemm<float>(ctx, a, bb, c, 0, 4, 3); }, "M = 0", "M=0");
    expect_error([&] { gemm<float>(ctx, a, bb, c, 2, -4, 3); }, "N < 0", "N=-4");
    expect_error([&] { gemm<float>(ctx, a, bb, c, 2, 4, 0); }, "K = 0", "K=0");
    expect_error([&] { gemm<float>(ctx, a, bb, c, 3, 4, 3); }, "A too small", "A.size()=6");
    expect_error([&] { gemm<float>(ctx, a, bb, c, 2, 4, 2); }, "shape mismatch", "A.size()=6");
    expect_error([&] { gemm<float>(ctx, a, bb.subspan(0, 11), c, 2, 4, 3); }, "B short", "B.size()=11");
    expect_error([&] { gemm<float>(ctx, a, bb, c.subspan(0, 7), 2, 4, 3); }, "C short", "C.size()=7");
    expect_error([&] { gemm<float>(ctx, span<const float>(nullptr, 6), bb, c, 2, 4, 3); },
                 "null A", "A.data() is null");
    expect_error([&] { gemm<float>(ctx, a, bb, span<float>(nullptr, 8), 2, 4, 3); }, "null C",
                 "C.data() is null");
    expect_error([&] { gemm<float>(ctx, a, span<const float>(c.data(), 12), span<float>(c.data(), 8), 2, 4, 3); },
                 "C overlaps B", "overlap");
    expect_error([&] { gemm<float>(ctx, a, bb, c, 2, 4, 3, 1.f, 0.f, static_cast<transpose>(5)); },
                 "bad transpose", "trans_a");
    expect_error([&] {
      gemm<float>(ctx, a, bb, c, 2, 4, 3, 1.f, 0.f, transpose::no, transpose::no,
                  static_cast<gemm_algorithm>(42));
    }, "bad algorithm", "algorithm");
    if (b == backend::cuda) {
      std::vector<float> host(6, 1.0f);
      expect_error([&] { gemm<float>(ctx, span<const float>(host), bb, c, 2, 4, 3); },
                   "host memory on cuda", "cannot access");
    }
  }
}

}  // namespace
