// copy_if, copy_if_into, partition, unstable_partition and split against sequential loops, over backend x type x
// predicate x size (every tile edge), with poisoned outputs: copy_if must leave everything
// past the count untouched, partition and split must write every element.
#include <algorithm>
#include <cstring>
#include <random>

#include "parprim/partition.hpp"
#include "reference/partition_ref.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;
using testing::same_bits;

// Sizes around the compaction tiles (4096 or 8192 four-byte / 2048 or 4096 eight-byte
// elements, depending on the kernel), the split tiles (2048 or 4096 elements for up to 256
// buckets, 4096 and up beyond) and a few million (CUDA: blocks of several split tiles).
// PARPRIM_TEST_MAX_N caps the list (compute-sanitizer runs).
std::vector<std::int64_t> sizes() {
  std::vector<std::int64_t> out;
  for (std::int64_t n : {0,    1,    2,    31,   32,    33,    255,   256,   257,   2047,    2048,
                         2049, 4095, 4096, 4097, 8191,  8193,  16385, 32769, 65535, 65537, 262'147,
                         3'000'017})
    if (n <= testing::max_test_size()) out.push_back(n);
  return out;
}

// Values with many repeats and special floats, so equality predicates select something.
template <class T>
std::vector<T> make_input(std::int64_t n, std::uint64_t seed) {
  auto v = testing::random_vector<T>(n, seed);
  std::mt19937_64 g(seed ^ 0x5bd1e995);
  for (auto& x : v) {
    switch (g() % 8) {
      case 0: x = T(0); break;
      case 1: x = T(3); break;
      case 2:
        if constexpr (std::is_floating_point_v<T>) x = std::numeric_limits<T>::quiet_NaN();
        break;
      case 3:
        if constexpr (std::is_floating_point_v<T>) x = -T(0);
        break;
      default: break;
    }
  }
  return v;
}

template <class T>
std::vector<predicate<T>> predicates(const std::vector<T>& in, std::uint64_t seed) {
  // The median-ish threshold: a random input element (about 50% selectivity), plus 0 and 3.
  T pivot = in.empty() ? T(0) : in[seed % in.size()];
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(pivot)) pivot = T(0);
  return {{compare::less, pivot},      {compare::less_equal, pivot}, {compare::greater, pivot},
          {compare::greater_equal, T(0)}, {compare::equal, T(3)},     {compare::not_equal, T(0)},
          {compare::bits_set, T(1)}};
}

template <class T>
void check_select(const context& ctx, std::uint64_t seed, bool all_predicates) {
  for (std::int64_t n : sizes()) {
    auto x = make_input<T>(n, seed + std::uint64_t(n));
    auto preds = predicates(x, seed);
    if (!all_predicates || n > (1 << 20)) preds.resize(1);  // the big sizes: one predicate
    for (auto& p : preds) {
      const std::string where = std::string(type_name<T>()) + " " + to_string(p.cmp) +
                                " n=" + std::to_string(n);
      auto in = buffer<T>::from_host(ctx, x);
      buffer<T> out(ctx, n + 5);
      out.fill_bytes(0xA5);
      auto poison = out.to_host();
      auto want = reference::copy_if(x, p);

      // copy_if: the selected prefix, and nothing written past it.
      std::int64_t count = copy_if<T>(ctx, in, out, p);
      ASSERT_EQ(count, std::int64_t(want.size())) << where;
      auto got = out.to_host();
      EXPECT_TRUE(same_bits(std::vector<T>(got.begin(), got.begin() + count), want)) << where;
      EXPECT_TRUE(same_bits(std::vector<T>(got.begin() + count, got.end()),
                            std::vector<T>(poison.begin() + count, poison.end())))
          << where << ": copy_if wrote past the count";

      // copy_if_into: same elements, count left on the backend.
      buffer<std::int64_t> dcount(ctx, 1);
      dcount.fill_bytes(0xFF);
      out.fill_bytes(0xA5);
      copy_if_into<T>(ctx, in, out, dcount, p);
      EXPECT_EQ(dcount.to_host()[0], count) << where;
      got = out.to_host();
      EXPECT_TRUE(same_bits(std::vector<T>(got.begin(), got.begin() + count), want)) << where;

      // partition: selected then rejected, both in order.
      buffer<T> pout(ctx, n);
      pout.fill_bytes(0xA5);
      std::int64_t selected = partition<T>(ctx, in, pout, p);
      EXPECT_EQ(selected, count) << where;
      EXPECT_TRUE(same_bits(pout.to_host(), reference::partition(x, p))) << where;

      // unstable_partition: selected in order, rejected in reverse order. Its layout does
      // not depend on the comparison: two predicates per size keep the CPU test time small.
      if (&p - preds.data() >= 2) continue;
      pout.fill_bytes(0xA5);
      selected = unstable_partition<T>(ctx, in, pout, p);
      EXPECT_EQ(selected, count) << where;
      EXPECT_TRUE(same_bits(pout.to_host(), reference::unstable_partition(x, p)))
          << where << " (unstable_partition)";
    }
  }
}

template <class T>
void check_split(const context& ctx, std::uint64_t seed) {
  const int bits = int(sizeof(T) * 8);
  std::vector<bucket_fn> fns = {bucket_fn::key_bits(0, 1),        bucket_fn::key_bits(bits - 8, 8),
                                bucket_fn::key_bits(3, 5),        bucket_fn::key_bits(bits - 12, 12),
                                bucket_fn::even_range(-0.5, 0.5, 1), bucket_fn::even_range(-1.0, 1.0, 3),
                                bucket_fn::even_range(-1.0, 1.0, 1000),
                                bucket_fn::even_range(0.0, 4.0, 4096)};
  for (std::int64_t n : sizes()) {
    auto x = make_input<T>(n, seed * 3 + std::uint64_t(n));
    for (std::size_t fi = 0; fi < fns.size(); ++fi) {
      // The big size: 256 buckets and one bucket (CUDA: several ranked tiles per block) and
      // 1000 (the general scatter).
      if (n > (1 << 20) && fi != 1 && fi != 4 && fi != 6) continue;
      const auto& f = fns[fi];
      const std::string where = std::string(type_name<T>()) + " bucket_fn #" + std::to_string(fi) +
                                " n=" + std::to_string(n);
      std::vector<std::int64_t> want_offsets;
      auto want = reference::split(x, f, &want_offsets);
      auto in = buffer<T>::from_host(ctx, x);
      buffer<T> out(ctx, n);
      out.fill_bytes(0xA5);
      buffer<std::int64_t> offsets(ctx, f.buckets() + 1);
      offsets.fill_bytes(0xA5);
      split<T>(ctx, in, out, f, offsets);
      EXPECT_TRUE(same_bits(out.to_host(), want)) << where;
      EXPECT_EQ(offsets.to_host(), want_offsets) << where;
      // Without offsets: the same elements.
      out.fill_bytes(0xA5);
      split<T>(ctx, in, out, f);
      EXPECT_TRUE(same_bits(out.to_host(), want)) << where << " (no offsets)";
    }
  }
}

class Partition : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override {
    PARPRIM_SKIP_IF_NO_BACKEND(GetParam());
    seed_ = fresh_seed();
  }
  std::uint64_t seed_ = 0;
};

TEST_P(Partition, CopyIfAndPartitionEveryTypeAndPredicate) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context ctx = testing::make_context(GetParam());
  testing::for_each_type([&](auto t) { check_select<decltype(t)>(ctx, seed_, true); });
}

TEST_P(Partition, SplitEveryTypeAndBucketFunction) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context ctx = testing::make_context(GetParam());
  testing::for_each_type([&](auto t) { check_split<decltype(t)>(ctx, seed_); });
}

// Inputs large enough that every block of the chunked CUDA partition (one chunk per block, a
// few blocks per SM, 32 KiB tiles) walks several tiles, and spans that start off a 16-byte
// boundary (element-wise loads and stores). The CPU backend gets a smaller input (time).
template <class T>
void check_large_and_misaligned(const context& ctx, std::uint64_t seed) {
  const std::int64_t n = std::min<std::int64_t>(ctx.kind() == backend::cuda ? 12'000'007 : 1'000'003,
                                                 testing::max_test_size());
  auto x = make_input<T>(n, seed);
  const predicate<T> p = predicates(x, seed)[0];
  auto in = buffer<T>::from_host(ctx, x);
  buffer<T> out(ctx, n);
  for (std::int64_t skip : {std::int64_t(0), std::int64_t(1)}) {
    const std::string where = std::string(type_name<T>()) + " skip=" + std::to_string(skip);
    const std::vector<T> xs(x.begin() + skip, x.end());
    span<const T> src(in.data() + skip, n - skip);
    span<T> dst(out.data() + skip, n - skip);
    const auto want = reference::copy_if(xs, p);
    out.fill_bytes(0xA5);
    EXPECT_EQ(copy_if<T>(ctx, src, dst, p), std::int64_t(want.size())) << where;
    auto got = out.to_host();
    EXPECT_TRUE(same_bits(std::vector<T>(got.begin() + skip, got.begin() + skip + want.size()), want))
        << where;
    out.fill_bytes(0xA5);
    EXPECT_EQ(partition<T>(ctx, src, dst, p), std::int64_t(want.size())) << where;
    got = out.to_host();
    EXPECT_TRUE(same_bits(std::vector<T>(got.begin() + skip, got.end()), reference::partition(xs, p)))
        << where;
    out.fill_bytes(0xA5);
    EXPECT_EQ(unstable_partition<T>(ctx, src, dst, p), std::int64_t(want.size())) << where;
    got = out.to_host();
    EXPECT_TRUE(same_bits(std::vector<T>(got.begin() + skip, got.end()),
                          reference::unstable_partition(xs, p)))
        << where << " (unstable_partition)";
  }
}

TEST_P(Partition, LargeAndMisalignedInputs) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context ctx = testing::make_context(GetParam());
  check_large_and_misaligned<std::uint32_t>(ctx, seed_);
  check_large_and_misaligned<double>(ctx, seed_);
}

// All selected, none selected, and a workspace reused across calls.
TEST_P(Partition, AllOrNothingSelected) {
  context ctx = testing::make_context(GetParam());
  workspace ws(ctx);
  for (std::int64_t n : {std::int64_t(1), std::int64_t(4097), std::min<std::int64_t>(100'000, testing::max_test_size())}) {
    std::vector<std::uint32_t> x(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) x[i] = std::uint32_t(i);
    auto in = buffer<std::uint32_t>::from_host(ctx, x);
    buffer<std::uint32_t> out(ctx, n);
    EXPECT_EQ((copy_if<std::uint32_t>(ctx, in, out, {compare::greater_equal, 0u}, &ws)), n);
    EXPECT_EQ(out.to_host(), x);
    EXPECT_EQ((copy_if<std::uint32_t>(ctx, in, out, {compare::less, 0u}, &ws)), 0);
    EXPECT_EQ((partition<std::uint32_t>(ctx, in, out, {compare::greater, std::uint32_t(n)}, &ws)), 0);
    EXPECT_EQ(out.to_host(), x);
    // Nothing selected: the reversed partition reverses the whole input; everything: a copy.
    EXPECT_EQ((unstable_partition<std::uint32_t>(ctx, in, out, {compare::greater, std::uint32_t(n)}, &ws)), 0);
    EXPECT_EQ(out.to_host(), std::vector<std::uint32_t>(x.rbegin(), x.rend()));
    EXPECT_EQ((unstable_partition<std::uint32_t>(ctx, in, out, {compare::greater_equal, 0u}, &ws)), n);
    EXPECT_EQ(out.to_host(), x);
  }
}

INSTANTIATE_TEST_SUITE_P(All, Partition, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

// The CPU backend's chained pass (each block waits for the count of the blocks before it) on
// one thread and on more threads than this machine has cores, where the thread holding an
// earlier block may be descheduled: the same elements in the same places every time.
TEST(PartitionCpu, SameResultOnAnyThreadCount) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = std::min<std::int64_t>(1'000'003, testing::max_test_size());
  const auto x = make_input<float>(n, seed);
  const predicate<float> p = predicates(x, seed)[0];
  const auto want_compact = reference::copy_if(x, p);
  const auto want_stable = reference::partition(x, p);
  const auto want_reversed = reference::unstable_partition(x, p);
  for (int threads : {1, 3, 7}) {
    const std::string where = "threads=" + std::to_string(threads);
    context ctx = context::cpu(threads);
    auto in = buffer<float>::from_host(ctx, x);
    buffer<float> out(ctx, n);
    out.fill_bytes(0xA5);
    ASSERT_EQ(copy_if<float>(ctx, in, out, p), std::int64_t(want_compact.size())) << where;
    auto got = out.to_host();
    EXPECT_TRUE(same_bits(std::vector<float>(got.begin(), got.begin() + want_compact.size()), want_compact))
        << where;
    out.fill_bytes(0xA5);
    EXPECT_EQ(partition<float>(ctx, in, out, p), std::int64_t(want_compact.size())) << where;
    EXPECT_TRUE(same_bits(out.to_host(), want_stable)) << where;
    out.fill_bytes(0xA5);
    EXPECT_EQ(unstable_partition<float>(ctx, in, out, p), std::int64_t(want_compact.size())) << where;
    EXPECT_TRUE(same_bits(out.to_host(), want_reversed)) << where << " (unstable_partition)";
  }
}

// The seed's example: Split(R, fcn) with fcn(x) = x mod 2, i.e. the lowest key bit.
TEST(PartitionEdges, SeedSplitExample) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    auto in = buffer<std::uint32_t>::from_host(ctx, {4, 7, 2, 6, 3, 5, 1, 0});
    buffer<std::uint32_t> out(ctx, 8);
    buffer<std::int64_t> offsets(ctx, 3);
    split<std::uint32_t>(ctx, in, out, bucket_fn::key_bits(0, 1), offsets);
    EXPECT_EQ(out.to_host(), (std::vector<std::uint32_t>{4, 2, 6, 0, 7, 3, 5, 1}));
    EXPECT_EQ(offsets.to_host(), (std::vector<std::int64_t>{0, 4, 8}));
  }
}

// Bad input: a clear parprim::error, nothing written.
TEST(PartitionErrors, BadArgumentsThrowAndWriteNothing) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    auto in = buffer<float>::from_host(ctx, {1, 2, 3, 4, 5});
    buffer<float> out(ctx, 5), small(ctx, 4);
    out.fill_bytes(0x11);
    small.fill_bytes(0x11);
    const auto out0 = out.to_host(), small0 = small.to_host();
    auto expect_error = [&](auto&& call, const char* function, const std::string& fragment) {
      try {
        call();
        ADD_FAILURE() << "no error for " << fragment;
      } catch (const error& e) {
        EXPECT_EQ(e.code(), errc::invalid_argument);
        std::string m = e.what();
        EXPECT_NE(m.find(std::string("parprim::") + function + " [" + ctx.name() + "]"),
                  std::string::npos) << m;
        EXPECT_NE(m.find(fragment), std::string::npos) << m;
      }
      EXPECT_TRUE(same_bits(out.to_host(), out0)) << fragment;
      EXPECT_TRUE(same_bits(small.to_host(), small0)) << fragment;
    };
    predicate<float> p{compare::less, 3.0f};
    expect_error([&] { copy_if<float>(ctx, in, small, p); }, "copy_if", "out.size()=4 is smaller");
    expect_error([&] { partition<float>(ctx, in, small, p); }, "partition",
                 "in.size()=5 but out.size()=4");
    expect_error([&] { unstable_partition<float>(ctx, in, small, p); }, "unstable_partition",
                 "in.size()=5 but out.size()=4");
    expect_error([&] { unstable_partition<float>(ctx, in, out, {static_cast<compare>(42), 0.f}); },
                 "unstable_partition", "pred.cmp=42");
    expect_error([&] { copy_if<float>(ctx, in, out, {static_cast<compare>(42), 0.f}); }, "copy_if",
                 "pred.cmp=42");
    expect_error([&] { copy_if<float>(ctx, span<const float>(nullptr, 5), out, p); }, "copy_if",
                 "in.data() is null");
    expect_error([&] { copy_if<float>(ctx, out, out, p); }, "copy_if", "overlap");
    buffer<std::int64_t> two(ctx, 2);
    expect_error([&] { copy_if_into<float>(ctx, in, out, two, p); }, "copy_if_into",
                 "count.size()=2");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::even_range(0, 1, 0)); }, "split",
                 "buckets=0");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::even_range(0, 1, -3)); }, "split",
                 "buckets=-3");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::even_range(0, 1, 5000)); }, "split",
                 "buckets=5000");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::even_range(1, 1, 4)); }, "split",
                 "lower < upper");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::key_bits(0, 13)); }, "split",
                 "width=13");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::key_bits(0, 0)); }, "split",
                 "width=0");
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::key_bits(28, 8)); }, "split",
                 "shift=28 width=8");
    buffer<std::int64_t> offsets(ctx, 3);
    expect_error([&] { split<float>(ctx, in, out, bucket_fn::key_bits(0, 4), offsets); }, "split",
                 "bucket_offsets.size()=3");
  }
}

// More than 2^31 elements (CUDA only): 64-bit positions through the look-back. in[i] = i,
// the odd ones selected, so out[j] must be 2j + 1.
TEST(PartitionHuge, CopyIfBeyondTwoToThe31) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  const std::int64_t n = (std::int64_t(1) << 31) + 4099;
  auto devices = cuda_devices();
  if (devices.empty() || devices[0].global_memory_bytes < std::int64_t(24) << 30)
    GTEST_SKIP() << "needs 24 GB of device memory";
  std::vector<std::uint32_t> x(static_cast<std::size_t>(n));
#pragma omp parallel for
  for (std::int64_t i = 0; i < n; ++i) x[i] = std::uint32_t(i);
  context ctx = context::cuda(0);
  auto in = buffer<std::uint32_t>::from_host(ctx, x);
  buffer<std::uint32_t> out(ctx, n);
  std::int64_t count = copy_if<std::uint32_t>(ctx, in, out, {compare::bits_set, 1u});
  ASSERT_EQ(count, n / 2);
  out.copy_to_host(x.data(), n);
  std::int64_t bad = 0;
  for (std::int64_t j = 0; j < count; ++j)
    if (x[j] != std::uint32_t(2 * j + 1) && bad++ < 3) ADD_FAILURE() << "j=" << j << " got " << x[j];
  EXPECT_EQ(bad, 0);
}

}  // namespace
}  // namespace parprim
