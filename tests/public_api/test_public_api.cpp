// The generic primitives as a user without nvcc sees them: public headers only, compiled by
// the host compiler. CPU contexts run the generic bodies; a CUDA context must refuse a
// caller's operator with a message saying to compile with nvcc.
#include "public_api/comparator_cases.hpp"
#include "public_api/generic_cases.hpp"

namespace parprim {
namespace {

TEST(PublicApiHost, FunctorsMatchSequentialFolds) {
  generic_cases::run_functor_cases(context::cpu());
}

TEST(PublicApiHost, FloatOperatorsReproducible) {
  generic_cases::run_float_cases(context::cpu());
}

TEST(PublicApiHost, LambdasOnCpu) {
  std::vector<int> x{5, -3, 8, 0, -1, 7}, y(6), z(6);
  context ctx = context::cpu();
  std::int64_t kept = copy_if(ctx, span<const int>(x), span<int>(y), [](int v) { return v > 0; });
  EXPECT_EQ(kept, 3);
  EXPECT_EQ(std::vector<int>(y.begin(), y.begin() + 3), (std::vector<int>{5, 8, 7}));
  transform(ctx, span<const int>(x), span<int>(z), [](int v) { return v * v; });
  EXPECT_EQ(z, (std::vector<int>{25, 9, 64, 0, 1, 49}));
  // Non-commutative: concatenation of decimal digits.
  using generic_cases::digits;
  std::vector<digits> d{{1, 10}, {2, 10}, {3, 10}, {4, 10}}, e(4);
  inclusive_scan(ctx, span<const digits>(d), span<digits>(e),
                 [](const digits& a, const digits& b) { return generic_cases::concat(a, b); });
  const std::uint32_t want[] = {1, 12, 123, 1234};
  for (int i = 0; i < 4; ++i) EXPECT_EQ(e[std::size_t(i)].value, want[i]);
}

TEST(PublicApiHost, MergeAndSearchWithComparator) {
  generic_cases::run_merge_search_cases(context::cpu());
}

// Unsorted inputs are found with the comparator before anything is written; bad sizes and
// overlaps are refused like the precompiled overloads do.
TEST(PublicApiHost, MergeWithComparatorRejectsBadInput) {
  using generic_cases::record;
  context ctx = context::cpu();
  std::vector<record> a{{1, 0, 0, 0}, {3, 0, 1, 0}, {2, 0, 2, 0}}, b{{0, 1, 0, 0}, {5, 1, 1, 0}};
  std::vector<record> out(5, record{-7, 9, 9, 9});
  std::vector<std::uint32_t> va(3, 0), vb(2, 1), vout(5, 42);
  const generic_cases::key_ascending comp;
  try {
    merge(ctx, span<const record>(a), span<const record>(b), span<record>(out), comp);
    FAIL() << "unsorted a must throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr(
        "parprim::merge [cpu]: a is not sorted by the comparator: element 2 comes before element 1"));
  }
  for (const record& r : out) EXPECT_EQ(r.key, -7) << "nothing written";
  try {
    merge_by_key(ctx, span<const record>(b), span<const std::uint32_t>(vb), span<const record>(a),
                 span<const std::uint32_t>(va), span<record>(out), span<std::uint32_t>(vout), comp);
    FAIL() << "unsorted b_keys must throw";
  } catch (const error& e) {
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim::merge_by_key [cpu]: b_keys is not sorted"));
  }
  for (std::uint32_t v : vout) EXPECT_EQ(v, 42u) << "nothing written";
  std::swap(a[1], a[2]);
  EXPECT_THROW(merge(ctx, span<const record>(a), span<const record>(b),
                     span<record>(out.data(), 4), comp), error);
  EXPECT_THROW(merge(ctx, span<const record>(out.data(), 3), span<const record>(b),
                     span<record>(out), comp), error);
  EXPECT_THROW(merge_by_key(ctx, span<const record>(a), span<const std::uint32_t>(vb),
                            span<const record>(b), span<const std::uint32_t>(va),
                            span<record>(out), span<std::uint32_t>(vout), comp), error);
  std::vector<std::int64_t> pos(2);
  EXPECT_THROW(lower_bound(ctx, span<const record>(a), span<const record>(b),
                           span<std::int64_t>(pos.data(), 1), comp), error);
  merge(ctx, span<const record>(a), span<const record>(b), span<record>(out), comp);
  const std::int32_t keys[] = {0, 1, 2, 3, 5};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[std::size_t(i)].key, keys[i]);
}

TEST(PublicApiHost, CudaContextNeedsNvcc) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  buffer<float> in(ctx, 16);
  in.fill_bytes(0);
  try {
    reduce(ctx, in.view(), 0.0f, generic_cases::float_plus{});
    FAIL() << "a caller's operator on a CUDA context compiled without nvcc must throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("nvcc"));
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim::transform_reduce [cuda:0]"));
  }
  buffer<float> out(ctx, 16);
  EXPECT_THROW(inclusive_scan(ctx, in.view(), out.view(), generic_cases::float_plus{}), error);
  EXPECT_THROW(copy_if(ctx, in.view(), out.view(), [](float v) { return v > 0; }), error);
  EXPECT_THROW(transform(ctx, in.view(), out.view(), [](float v) { return v; }), error);
  // merge and search with a comparator name themselves and the nvcc requirement.
  const auto by_value = [](float x, float y) { return x < y; };
  buffer<float> merged(ctx, 32);
  try {
    merge(ctx, in.view(), in.view(), merged.view(), by_value);
    FAIL() << "a comparator on a CUDA context compiled without nvcc must throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim::merge [cuda:0]"));
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim/cuda/merge.cuh"));
  }
  buffer<float> merged_values(ctx, 32);
  try {
    merge_by_key(ctx, in.view(), in.view(), in.view(), in.view(), merged.view(),
                 merged_values.view(), by_value);
    FAIL() << "a comparator on a CUDA context compiled without nvcc must throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim::merge_by_key [cuda:0]"));
  }
  buffer<std::int64_t> pos(ctx, 16);
  try {
    upper_bound(ctx, in.view(), in.view(), pos.view(), by_value);
    FAIL() << "a comparator on a CUDA context compiled without nvcc must throw";
  } catch (const error& e) {
    EXPECT_EQ(e.code(), errc::backend_unavailable);
    EXPECT_THAT(std::string(e.what()), ::testing::HasSubstr("parprim::upper_bound [cuda:0]"));
  }
  EXPECT_THROW(lower_bound(ctx, in.view(), in.view(), pos.view(), by_value), error);
}

}  // namespace
}  // namespace parprim
