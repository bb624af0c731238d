// The generic by-key, unique and run-length entry points compiled by the host compiler: every
// case of by_key_generic_cases.hpp on the CPU backend; on a CUDA context the call must throw
// errc::backend_unavailable (the kernel for a caller's operator needs nvcc), never run
// elsewhere. The CUDA backend runs the same cases in tests/cuda/test_by_key_generic_cuda.cu.
#include "by_key_generic_cases.hpp"

namespace parprim {
namespace {

using namespace by_key_generic_cases;

TEST(ByKeyGenericCpu, EveryCase) { every_case(context::cpu(), testing::fresh_seed()); }

TEST(ByKeyGenericCpu, IntoFormsLeaveTheCount) {
  every_into_case(context::cpu(), testing::fresh_seed());
}

TEST(ByKeyGenericCpu, TooSmallOutputsHoldTheFirstRuns) { too_small_outputs(context::cpu()); }

// Arithmetic values with a caller's operator and equality: the CPU scans' phase 3 takes its
// lanes and blends (cpu/by_key.hpp) for 4- and 8-byte arithmetic values, not only for the
// library's operators. The operators are associative and not commutative, so a select that
// picks the wrong side, or a lane that starts inside a run, changes the outputs.
// An affine map over wrapping u32 packed in a u64 (a in the high half), composed as compose.
struct compose_packed {
  std::uint64_t operator()(std::uint64_t f, std::uint64_t g) const {
    const std::uint32_t fa = std::uint32_t(f >> 32), fb = std::uint32_t(f);
    const std::uint32_t ga = std::uint32_t(g >> 32), gb = std::uint32_t(g);
    return std::uint64_t(ga * fa) << 32 | std::uint32_t(ga * fb + gb);
  }
};
// The first nonzero operand.
struct first_nonzero {
  float operator()(float x, float y) const { return x != 0.0f ? x : y; }
};

// A third zeros (first_nonzero), the rest nonzero in both halves of a u64.
template <class V>
std::vector<V> arithmetic_values(std::int64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<V> values(static_cast<std::size_t>(n));
  for (auto& x : values) {
    if (g() % 3 == 0) x = V(0);
    else if constexpr (sizeof(V) == 8) x = V((g() % 1000 + 1) << 32 | (g() % 1000 + 1));
    else x = V(g() % 1000 + 1);
  }
  return values;
}

template <class V, class Op>
void scan_arithmetic_values(Op op, V init, std::uint64_t seed) {
  const context ctx = context::cpu();
  for (std::int64_t n : {std::int64_t(65537), std::int64_t(300'007)}) {
    for (std::int64_t mean_run : {1, 8, 512, 0}) {
      const auto keys = make_keys(n, mean_run, seed + std::uint64_t(n + mean_run));
      const auto values = arithmetic_values<V>(n, seed ^ std::uint64_t(n));
      std::vector<V> inclusive(values.size()), exclusive(values.size());
      V value{};
      for (std::size_t i = 0; i < values.size(); ++i) {
        const bool head = i == 0 || !same_group{}(keys[i - 1], keys[i]);
        inclusive[i] = value = head ? values[i] : op(value, values[i]);
      }
      for (std::size_t i = 0; i < values.size(); ++i) {
        const bool head = i == 0 || !same_group{}(keys[i - 1], keys[i]);
        exclusive[i] = head ? init : value;
        value = op(exclusive[i], values[i]);
      }
      const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run);
      auto k = buffer<group_key>::from_host(ctx, keys);
      auto v = buffer<V>::from_host(ctx, values);
      span<const group_key> kc(k.data(), n);
      span<const V> vc(v.data(), n);
      buffer<V> out(ctx, n);
      inclusive_scan_by_key(ctx, kc, vc, span<V>(out), op, same_group{});
      EXPECT_EQ(out.to_host(), inclusive) << where << " inclusive_scan_by_key";
      exclusive_scan_by_key(ctx, kc, vc, span<V>(out), init, op, same_group{});
      EXPECT_EQ(out.to_host(), exclusive) << where << " exclusive_scan_by_key";
    }
  }
}

TEST(ByKeyGenericCpu, ArithmeticValuesWithACallersOperator) {
  const std::uint64_t seed = testing::fresh_seed();
  scan_arithmetic_values<std::uint64_t>(compose_packed{}, (std::uint64_t(3) << 32) | 5, seed);
  scan_arithmetic_values<float>(first_nonzero{}, 0.0f, seed);
}

// The same for the kinds that write per run (reduce_by_key, unique, unique_by_key,
// run_length_encode). Keys are equal in their top byte only, so a run's first key differs from
// its other keys: a slot left with a later element's key or a fold in the wrong order changes
// the outputs. (Written for a branch-free phase 3 that was measured and not kept: the
// experiments file, 2026-11-25.)
struct same_top_byte {
  bool operator()(std::uint32_t x, std::uint32_t y) const { return x >> 24 == y >> 24; }
};

template <class V, class Op>
void runs_arithmetic_values(Op op, std::uint64_t seed) {
  const context ctx = context::cpu();
  for (std::int64_t n : {std::int64_t(65537), std::int64_t(300'007)}) {
    for (std::int64_t mean_run : {1, 8, 512, 0}) {
      const auto groups = make_keys(n, mean_run, seed + std::uint64_t(n + mean_run));
      std::vector<std::uint32_t> keys(groups.size());
      for (std::size_t i = 0; i < keys.size(); ++i)
        keys[i] = std::uint32_t(groups[i].group) << 24 | std::uint32_t(i & 0xFFFFFF);
      const auto values = arithmetic_values<V>(n, seed ^ std::uint64_t(n));
      std::vector<std::uint32_t> first;
      std::vector<V> total, first_value;
      std::vector<std::int64_t> length;
      for (std::size_t i = 0; i < keys.size(); ++i) {
        if (i == 0 || !same_top_byte{}(keys[i - 1], keys[i])) {
          first.push_back(keys[i]);
          total.push_back(values[i]);
          first_value.push_back(values[i]);
          length.push_back(1);
        } else {
          total.back() = op(total.back(), values[i]);
          ++length.back();
        }
      }
      const std::int64_t runs = std::int64_t(first.size());
      const std::string where = "n=" + std::to_string(n) + " run=" + std::to_string(mean_run);
      auto k = buffer<std::uint32_t>::from_host(ctx, keys);
      auto v = buffer<V>::from_host(ctx, values);
      span<const std::uint32_t> kc(k.data(), n);
      span<const V> vc(v.data(), n);
      buffer<std::uint32_t> ko(ctx, n);
      buffer<V> vo(ctx, n);
      buffer<std::int64_t> len(ctx, n);
      auto runs_of = [runs](const auto& b) {
        auto h = b.to_host();
        h.resize(static_cast<std::size_t>(runs));
        return h;
      };
      const span<std::uint32_t> ks(ko.data(), n);
      ASSERT_EQ(reduce_by_key(ctx, kc, vc, ks, span<V>(vo), op, same_top_byte{}), runs) << where;
      EXPECT_EQ(runs_of(ko), first) << where << " reduce_by_key keys";
      EXPECT_EQ(runs_of(vo), total) << where << " reduce_by_key values";
      ASSERT_EQ(unique_by_key(ctx, kc, vc, ks, span<V>(vo), same_top_byte{}), runs) << where;
      EXPECT_EQ(runs_of(ko), first) << where << " unique_by_key keys";
      EXPECT_EQ(runs_of(vo), first_value) << where << " unique_by_key values";
      ASSERT_EQ(unique(ctx, kc, ks, same_top_byte{}), runs) << where;
      EXPECT_EQ(runs_of(ko), first) << where << " unique";
      ASSERT_EQ(run_length_encode(ctx, kc, ks, span<std::int64_t>(len), same_top_byte{}), runs)
          << where;
      EXPECT_EQ(runs_of(ko), first) << where << " run_length_encode keys";
      EXPECT_EQ(runs_of(len), length) << where << " run_length_encode lengths";
    }
  }
}

TEST(ByKeyGenericCpu, ArithmeticKeysAndValuesPerRun) {
  const std::uint64_t seed = testing::fresh_seed();
  runs_arithmetic_values<std::uint64_t>(compose_packed{}, seed);
  runs_arithmetic_values<float>(first_nonzero{}, seed);
}

TEST(ByKeyGenericCpu, CudaContextWithoutNvccSaysSo) {
  if (!testing::cuda_usable()) GTEST_SKIP() << "no CUDA device";
  context ctx = context::cuda(0);
  auto k = buffer<group_key>::from_host(ctx, {{1, 0}, {1, 1}});
  auto v = buffer<affine>::from_host(ctx, {{1, 2}, {3, 4}});
  buffer<group_key> ko(ctx, 2);
  buffer<affine> vo(ctx, 2);
  testing::expect_error(
      [&] {
        reduce_by_key(ctx, span<const group_key>(k), span<const affine>(v), span<group_key>(ko),
                      span<affine>(vo), compose{}, same_group{});
      },
      errc::backend_unavailable, {"reduce_by_key", "nvcc"});
  testing::expect_error([&] { unique_count(ctx, span<const group_key>(k), same_group{}); },
                        errc::backend_unavailable, {"unique_count", "nvcc"});
  buffer<std::int64_t> count(ctx, 1);
  testing::expect_error(
      [&] {
        unique_count_into(ctx, span<const group_key>(k), span<std::int64_t>(count), same_group{});
      },
      errc::backend_unavailable, {"unique_count_into", "nvcc"});
}

}  // namespace
}  // namespace parprim
