// inclusive_scan and exclusive_scan against the sequential oracle, over backend x algorithm x
// op x form (exclusive, inclusive, inclusive from init) x type x size (every tile edge), out of
// place and in place.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>

#include "reference/reduce_scan_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::edge_sizes;
using testing::fresh_seed;
using testing::random_vector;

using param = std::tuple<backend, scan_algorithm, op>;
using reference::scan_form;

constexpr scan_form all_forms[] = {scan_form::exclusive, scan_form::inclusive,
                                   scan_form::inclusive_from_init};

const char* form_name(scan_form f) {
  return f == scan_form::exclusive ? " exclusive"
         : f == scan_form::inclusive ? " inclusive"
                                     : " inclusive from init";
}

// The library call for `form`.
template <class T>
void run_scan(const context& ctx, span<const T> in, span<T> out, scan_form form, T init, op o,
              scan_algorithm alg = scan_algorithm::decoupled_lookback, workspace* ws = nullptr) {
  if (form == scan_form::inclusive) inclusive_scan<T>(ctx, in, out, o, alg, ws);
  else if (form == scan_form::inclusive_from_init) inclusive_scan<T>(ctx, in, out, init, o, alg, ws);
  else exclusive_scan<T>(ctx, in, out, init, o, alg, ws);
}

class Scan : public ::testing::TestWithParam<param> {};

// Floats: each prefix within tol(n) * (sum of |x| over that prefix, plus |init|). Exact otherwise.
template <class T>
void expect_prefixes(const std::vector<T>& got, const std::vector<reference::acc_t<T>>& want,
                     const std::vector<T>& x, op o, scan_form form, T init,
                     const std::string& where) {
  const bool inclusive = form != scan_form::exclusive;
  ASSERT_EQ(got.size(), want.size()) << where;
  const std::int64_t n = std::int64_t(x.size());
  double tol = testing::float_tolerance<T>(n);
  double abs_prefix = form == scan_form::inclusive ? 0.0 : std::abs(double(init));
  std::int64_t bad = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    bool ok;
    if constexpr (std::is_floating_point_v<T>) {
      if (inclusive) abs_prefix += std::abs(double(x[i]));
      ok = (o == op::plus) ? std::abs(double(got[i]) - double(want[i])) <= tol * abs_prefix + 1e-30
                           : got[i] == static_cast<T>(want[i]);
      if (!inclusive) abs_prefix += std::abs(double(x[i]));
    } else {
      ok = got[i] == want[i];
    }
    if (!ok && bad++ < 3)
      ADD_FAILURE() << where << " i=" << i << " got " << got[i] << " want " << want[i];
  }
  EXPECT_EQ(bad, 0) << where;
}

template <class T>
void check_type(const context& ctx, scan_algorithm alg, op o, std::uint64_t seed) {
  workspace ws(ctx);
  for (std::int64_t n : edge_sizes()) {
    auto x = random_vector<T>(n, seed ^ std::uint64_t(n * 7919));
    T init = random_vector<T>(1, seed + 1)[0];
    for (scan_form form : all_forms) {
      std::string where = std::string(type_name<T>()) + form_name(form) + " n=" + std::to_string(n);
      auto want = reference::scan(x.data(), n, o, form, init);
      auto in = buffer<T>::from_host(ctx, x);
      buffer<T> out(ctx, n);
      out.fill_bytes(0xA5);  // poison: every element must be written
      run_scan<T>(ctx, in, out, form, init, o, alg);
      auto first = out.to_host();
      expect_prefixes(first, want, x, o, form, init, where);

      // In place, with a workspace: same bits as out of place.
      run_scan<T>(ctx, in, in, form, init, o, alg, &ws);
      auto second = in.to_host();
      EXPECT_TRUE(testing::same_bits(first, second))
          << where << " in place differs from out of place";
    }
  }
}

TEST_P(Scan, MatchesSequentialOracle) {
  auto [b, alg, o] = GetParam();
  PARPRIM_SKIP_IF_NO_BACKEND(b);
  context ctx = testing::make_context(b);
  std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  // Structured bindings cannot be captured before C++20 (clang rejects it): copy them in.
  testing::for_each_type([&, alg = alg, o = o](auto t) { check_type<decltype(t)>(ctx, alg, o, seed); });
}

INSTANTIATE_TEST_SUITE_P(
    All, Scan,
    ::testing::Combine(::testing::Values(backend::cpu, backend::cuda),
                       ::testing::Values(scan_algorithm::hillis_steele, scan_algorithm::blelloch,
                                         scan_algorithm::blelloch_conflict_free,
                                         scan_algorithm::decoupled_lookback),
                       ::testing::Values(op::plus, op::min, op::max)),
    [](const auto& info) {
      return std::string(to_string(std::get<0>(info.param))) + "_" +
             to_string(std::get<1>(info.param)) + "_" + to_string(std::get<2>(info.param));
    });

// The tutorial's example: Scan(+, 0, [3 1 7 0 4 1 6 3]). (The slide prints 14 for the sixth
// prefix; 3+1+7+0+4 = 15 is right.)
TEST(ScanEdges, TutorialExample) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    auto in = buffer<std::int32_t>::from_host(ctx, {3, 1, 7, 0, 4, 1, 6, 3});
    buffer<std::int32_t> out(ctx, 8);
    exclusive_scan<std::int32_t>(ctx, in, out);
    EXPECT_EQ(out.to_host(), (std::vector<std::int32_t>{0, 3, 4, 11, 11, 15, 16, 22}));
    inclusive_scan<std::int32_t>(ctx, in, out);
    EXPECT_EQ(out.to_host(), (std::vector<std::int32_t>{3, 4, 11, 11, 15, 16, 22, 25}));
    inclusive_scan<std::int32_t>(ctx, in, out, 100);  // continuing a scan that reached 100
    EXPECT_EQ(out.to_host(), (std::vector<std::int32_t>{103, 104, 111, 111, 115, 116, 122, 125}));
  }
}

// Float scans give the same bits on two runs, and on the CPU on any number of threads.
TEST(ScanEdges, FloatResultsAreReproducible) {
  const std::int64_t n = 4'000'037;
  auto x = random_vector<float>(n, fresh_seed());
  std::vector<float> a(n), b(n), c(n);
  inclusive_scan<float>(context::cpu(1), span<const float>(x), span<float>(a));
  inclusive_scan<float>(context::cpu(5), span<const float>(x), span<float>(b));
  EXPECT_TRUE(testing::same_bits(a, b));
  if (testing::cuda_usable()) {
    context gpu = context::cuda(0);
    auto in = buffer<float>::from_host(gpu, x);
    buffer<float> out(gpu, n);
    inclusive_scan<float>(gpu, in, out);
    a = out.to_host();
    out.fill_bytes(0);
    inclusive_scan<float>(gpu, in, out);
    c = out.to_host();
    EXPECT_TRUE(testing::same_bits(a, c));
  }
}

// Associative, non-commutative operators on floats over several full CPU blocks (whose
// floats are scanned as parts side by side): keep-the-right and keep-the-left expose any
// operand taken out of order, at the block and part boundaries included.
TEST(ScanEdges, NonCommutativeFloatOperatorsKeepTheOrder) {
  const context ctx = context::cpu(2);
  const auto right = [](float, float b) { return b; };
  const auto left = [](float a, float) { return a; };
  for (std::int64_t n : {std::int64_t(65'536), std::int64_t(3 * 65'536 + 5)}) {
    auto x = random_vector<float>(n, fresh_seed());
    const float init = -1.5f;
    std::vector<float> out(std::size_t(n), 0.0f), want(x);
    inclusive_scan(ctx, span<const float>(x), span<float>(out), right);
    EXPECT_TRUE(testing::same_bits(out, want)) << "inclusive, right, n=" << n;
    want.assign(std::size_t(n), x[0]);
    inclusive_scan(ctx, span<const float>(x), span<float>(out), left);
    EXPECT_TRUE(testing::same_bits(out, want)) << "inclusive, left, n=" << n;
    inclusive_scan(ctx, span<const float>(x), span<float>(out), init, right);
    EXPECT_TRUE(testing::same_bits(out, x)) << "inclusive from init, right, n=" << n;
    want.assign(std::size_t(n), init);
    inclusive_scan(ctx, span<const float>(x), span<float>(out), init, left);
    EXPECT_TRUE(testing::same_bits(out, want)) << "inclusive from init, left, n=" << n;
    want.assign(1, init);
    want.insert(want.end(), x.begin(), x.end() - 1);
    exclusive_scan(ctx, span<const float>(x), span<float>(out), init, right);
    EXPECT_TRUE(testing::same_bits(out, want)) << "exclusive, right, n=" << n;
    want.assign(std::size_t(n), init);
    exclusive_scan(ctx, span<const float>(x), span<float>(out), init, left);
    EXPECT_TRUE(testing::same_bits(out, want)) << "exclusive, left, n=" << n;
  }
}

// A large scan on the GPU (about 2400 tiles of 8192 4-byte or 4900 of 4096 8-byte elements,
// the pipelined kernel's range), aligned and one element off a 16-byte boundary (guarded
// loads): the same bits on two runs, and the oracle's prefixes. PARPRIM_TEST_MAX_N caps n.
template <class T>
void check_run_to_run(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = std::min<std::int64_t>(20'000'003, testing::max_test_size());
  auto x = random_vector<T>(n + 1, seed);
  auto in = buffer<T>::from_host(ctx, x);
  buffer<T> out(ctx, n + 1);
  const T init = T(0.5);
  for (std::int64_t skip : {std::int64_t(0), std::int64_t(1)}) {
    span<const T> src(in.data() + skip, n);
    span<T> dst(out.data() + skip, n);
    std::vector<T> bits[2];
    for (int run = 0; run < 2; ++run) {
      out.fill_bytes(0xA5);
      exclusive_scan<T>(ctx, src, dst, init);
      bits[run] = out.to_host();
    }
    EXPECT_EQ(0, std::memcmp(bits[0].data() + skip, bits[1].data() + skip, n * sizeof(T)))
        << type_name<T>() << " skip=" << skip << ": two runs differ";
    const std::vector<T> xs(x.begin() + skip, x.begin() + skip + n);
    const auto want = reference::scan(xs.data(), n, op::plus, false, init);
    expect_prefixes(std::vector<T>(bits[1].begin() + skip, bits[1].begin() + skip + n), want, xs,
                    op::plus, scan_form::exclusive, init,
                    std::string("large scan ") + type_name<T>() + " skip=" + std::to_string(skip));
  }
}

TEST(ScanCuda, LargeScanGivesTheSameBitsRunToRun) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_run_to_run<float>(ctx, seed);
  check_run_to_run<double>(ctx, seed);
}

// The same values scanned from and to 16-byte aligned and misaligned addresses (one element
// off: input, output or both) walk the same tiles in the same order, so the results agree bit
// for bit between the whole-tile path (16-byte vectors) and the guarded element path that
// misaligned data takes; and with the oracle. Sizes around the 32 KiB tile (8192 4-byte or
// 4096 8-byte elements), up to a few hundred tiles (look-back, and from 128 tiles the
// pipelined kernel for aligned input); PARPRIM_TEST_MAX_N caps n.
template <class T>
void check_alignments(const context& ctx, std::uint64_t seed) {
  constexpr std::int64_t tile = 32768 / sizeof(T);
  for (std::int64_t n :
       {tile - 1, tile, tile + 1, 2 * tile, 3 * tile + 5, 64 * tile, 300 * tile + 17}) {
    if (n > testing::max_test_size()) continue;
    const auto x = random_vector<T>(n, seed ^ std::uint64_t(n * 31));
    const T init = random_vector<T>(1, seed + 2)[0];
    std::vector<T> shifted(n + 1);
    std::copy(x.begin(), x.end(), shifted.begin() + 1);
    const auto in = buffer<T>::from_host(ctx, x);            // aligned
    const auto in_off = buffer<T>::from_host(ctx, shifted);  // x starts one element in
    buffer<T> out(ctx, n + 1);
    for (scan_form form : all_forms) {
      const std::string where = std::string(type_name<T>()) + form_name(form) + " n=" + std::to_string(n);
      std::vector<T> aligned_result;
      for (int skip : {0, 1, 2, 3}) {  // bit 0: input one element off; bit 1: output
        span<const T> src((skip & 1) ? in_off.data() + 1 : in.data(), n);
        span<T> dst(out.data() + ((skip & 2) ? 1 : 0), n);
        out.fill_bytes(0xA5);
        run_scan<T>(ctx, src, dst, form, init, op::plus);
        const auto all = out.to_host();
        const auto first = all.begin() + ((skip & 2) ? 1 : 0);
        std::vector<T> got(first, first + n);
        if (skip == 0) {
          const auto want = reference::scan(x.data(), n, op::plus, form, init);
          expect_prefixes(got, want, x, op::plus, form, init, where);
          aligned_result = got;
        } else {
          EXPECT_TRUE(testing::same_bits(aligned_result, got))
              << where << " skip=" << skip << ": differs from the aligned scan";
        }
      }
    }
  }
}

TEST(ScanCuda, AlignedAndMisalignedGiveTheSameBits) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  check_alignments<float>(ctx, seed);
  check_alignments<std::uint32_t>(ctx, seed);
  check_alignments<double>(ctx, seed);
  check_alignments<std::int64_t>(ctx, seed);
}

}  // namespace
}  // namespace parprim
