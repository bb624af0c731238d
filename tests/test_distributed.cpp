// Distributed reduce and scans against the single-context primitives and sequential oracles,
// on CPU groups of 1-4 in-process ranks and NCCL groups of 2-4 GPUs; errors.
#include "reference/reduce_scan_ref.hpp"
#include "support/distributed_cases.hpp"

namespace parprim::testing {
namespace {

class DistributedReduceScan : public ::testing::TestWithParam<group_case> {
 protected:
  void SetUp() override {
    std::string why;
    if (!group_available(GetParam(), why)) GTEST_SKIP() << why;
  }
};

template <class T>
T combine(op o, T a, T b) { return reference::combine<T>(o, a, b); }

// The documented float order of dist::reduce: the left fold of the non-empty slices' own
// single-context reductions. For integers the whole array's reduction.
template <class T>
T expected_reduce(const context& ref, const std::vector<T>& all,
                  const std::vector<std::int64_t>& counts, op o) {
  if constexpr (std::is_integral_v<T>) {
    auto b = buffer<T>::from_host(ref, all);
    return parprim::reduce<T>(ref, b, o);
  } else {
    std::vector<T> partial;
    for (int r = 0; r < static_cast<int>(counts.size()); ++r) {
      if (counts[r] == 0) continue;
      auto b = buffer<T>::from_host(ref, part(all, counts, r));
      partial.push_back(parprim::reduce<T>(ref, b, o));
    }
    if (partial.empty()) return parprim::reduce<T>(ref, buffer<T>(ref, 0), o);
    T acc = partial[0];
    for (std::size_t i = 1; i < partial.size(); ++i) acc = combine(o, acc, partial[i]);
    return acc;
  }
}

template <class T>
void check_reduce(const group_case& gc) {
  auto g = make_group(gc);
  const context ref = reference_context(gc);
  for (auto s : all_slicings())
    for (auto n : distributed_sizes())
      for (op o : {op::plus, op::min, op::max}) {
        const auto seed = fresh_seed();
        SCOPED_TRACE(std::string(type_name<T>()) + " " + to_string(s) + " n=" + std::to_string(n) +
                     " op=" + parprim::to_string(o) + " seed=" + std::to_string(seed));
        const auto all = random_vector<T>(n, seed);
        const auto counts = slice_counts(n, gc.ranks, s, seed);
        auto d = dist_buffer<T>::from_host(g, all, counts);
        const T got = dist::reduce<T>(g, d, o);
        const T want = expected_reduce(ref, all, counts, o);
        EXPECT_EQ(0, std::memcmp(&got, &want, sizeof(T))) << got << " vs " << want;
        // Integers, or at most one rank with data: the whole array's single-context result.
        const int holders = static_cast<int>(std::count_if(counts.begin(), counts.end(),
                                                           [](std::int64_t c) { return c > 0; }));
        if (std::is_integral_v<T> || holders <= 1) {
          const T whole = parprim::reduce<T>(ref, buffer<T>::from_host(ref, all), o);
          EXPECT_EQ(0, std::memcmp(&got, &whole, sizeof(T))) << got << " vs " << whole;
        }
        if constexpr (std::is_integral_v<T>) EXPECT_EQ(got, reference::reduce<T>(all.data(), n, o));
        dist_buffer<T> into(g, std::vector<std::int64_t>(static_cast<std::size_t>(gc.ranks), 1));
        dist::reduce_into<T>(g, d, into, o);
        for (T v : into.to_host()) EXPECT_EQ(0, std::memcmp(&v, &got, sizeof(T)));
      }
}

// The documented order of the distributed scans (distributed.hpp), built from single-context
// calls on slices; for integers it must also be the whole array's scan.
template <class T>
std::vector<T> expected_scan(const context& ref, const std::vector<T>& all,
                             const std::vector<std::int64_t>& counts, op o, bool inclusive, T init) {
  std::vector<T> out;
  bool seen = false;
  T carry = init;
  for (int r = 0; r < static_cast<int>(counts.size()); ++r) {
    if (counts[r] == 0) continue;
    auto in = buffer<T>::from_host(ref, part(all, counts, r));
    buffer<T> res(ref, in.size());
    if (inclusive) {
      // First slice: its own inclusive scan. Later ones: scanned from carry.
      if (!seen) parprim::inclusive_scan<T>(ref, in, res, o);
      else parprim::inclusive_scan<T>(ref, in, res, carry, o);
      const T total = parprim::reduce<T>(ref, in, o);
      carry = seen ? combine(o, carry, total) : total;
      auto v = res.to_host();
      out.insert(out.end(), v.begin(), v.end());
    } else {
      parprim::exclusive_scan<T>(ref, in, res, carry, o);
      carry = combine(o, carry, parprim::reduce<T>(ref, in, o));
      auto v = res.to_host();
      out.insert(out.end(), v.begin(), v.end());
    }
    seen = true;
  }
  return out;
}

template <class T>
void check_scan(const group_case& gc) {
  auto g = make_group(gc);
  const context ref = reference_context(gc);
  for (auto s : all_slicings())
    for (auto n : distributed_sizes())
      for (op o : {op::plus, op::max})
        for (bool inclusive : {true, false})
          for (bool in_place : {false, true}) {
            // max and in-place scans on one slicing only (CI time).
            if ((in_place || o == op::max) && s != slicing::uneven) continue;
            const auto seed = fresh_seed();
            SCOPED_TRACE(std::string(type_name<T>()) + " " + to_string(s) + " n=" +
                         std::to_string(n) + " op=" + parprim::to_string(o) +
                         (inclusive ? " inclusive" : " exclusive") + (in_place ? " in place" : "") +
                         " seed=" + std::to_string(seed));
            const auto all = random_vector<T>(n, seed);
            const auto counts = slice_counts(n, gc.ranks, s, seed);
            const T init = o == op::plus ? T(3) : T(0);
            auto in = dist_buffer<T>::from_host(g, all, counts);
            dist_buffer<T> separate(g, counts);
            dist_buffer<T>& out = in_place ? in : separate;
            if (inclusive) dist::inclusive_scan<T>(g, in, out, o);
            else dist::exclusive_scan<T>(g, in, out, init, o);
            const auto got = out.to_host();
            expect_bits_equal(got, expected_scan(ref, all, counts, o, inclusive, init), "documented order");
            const int holders = static_cast<int>(std::count_if(
                counts.begin(), counts.end(), [](std::int64_t c) { return c > 0; }));
            if (std::is_integral_v<T> || holders <= 1) {
              auto whole_in = buffer<T>::from_host(ref, all);
              buffer<T> whole(ref, n);
              if (inclusive) parprim::inclusive_scan<T>(ref, whole_in, whole, o);
              else parprim::exclusive_scan<T>(ref, whole_in, whole, init, o);
              expect_bits_equal(got, whole.to_host(), "single context");
            }
            if constexpr (std::is_integral_v<T>)
              expect_bits_equal(got, reference::scan<T>(all.data(), n, o, inclusive, init),
                                "sequential oracle");
          }
}

TEST_P(DistributedReduceScan, ReduceI32) { check_reduce<std::int32_t>(GetParam()); }
TEST_P(DistributedReduceScan, ReduceU64) { check_reduce<std::uint64_t>(GetParam()); }
TEST_P(DistributedReduceScan, ReduceF32) { check_reduce<float>(GetParam()); }
TEST_P(DistributedReduceScan, ReduceF64) { check_reduce<double>(GetParam()); }
TEST_P(DistributedReduceScan, ScanU32) { check_scan<std::uint32_t>(GetParam()); }
TEST_P(DistributedReduceScan, ScanI64) { check_scan<std::int64_t>(GetParam()); }
TEST_P(DistributedReduceScan, ScanF32) { check_scan<float>(GetParam()); }
TEST_P(DistributedReduceScan, ScanF64) { check_scan<double>(GetParam()); }

TEST_P(DistributedReduceScan, RunToRunIdenticalFloats) {
  auto g = make_group(GetParam());
  const auto all = random_vector<float>(140'003, fresh_seed());
  const auto counts = slice_counts(140'003, GetParam().ranks, slicing::uneven, 7);
  auto d = dist_buffer<float>::from_host(g, all, counts);
  dist_buffer<float> a(g, counts), b(g, counts);
  dist::inclusive_scan<float>(g, d, a);
  dist::inclusive_scan<float>(g, d, b);
  expect_bits_equal(a.to_host(), b.to_host(), "two runs");
  const float r1 = dist::reduce<float>(g, d), r2 = dist::reduce<float>(g, d);
  EXPECT_EQ(0, std::memcmp(&r1, &r2, sizeof(float)));
}

TEST_P(DistributedReduceScan, BadInput) {
  auto g = make_group(GetParam());
  const int P = GetParam().ranks;
  auto other = device_group::cpu(P);
  auto counts = even_counts(100, P);
  dist_buffer<float> in(g, counts), foreign(other, counts);
  expect_error([&] { dist::reduce<float>(g, foreign); }, errc::invalid_argument,
               {"parprim::dist::reduce", "belongs to the group"});
  auto shifted = counts;
  shifted[0] += 1;
  shifted[static_cast<std::size_t>(P - 1)] -= 1;
  if (P > 1) {
    dist_buffer<float> out(g, shifted);
    expect_error([&] { dist::inclusive_scan<float>(g, in, out); }, errc::invalid_argument,
                 {"parprim::dist::inclusive_scan", "out.count(0)"});
  }
  dist_buffer<float> into(g, counts);
  expect_error([&] { dist::reduce_into<float>(g, in, into); }, errc::invalid_argument,
               {"reduce_into", "one element per rank"});
  // A slice on the wrong context (another rank's, or another backend's) is refused.
  if (P > 1)
    expect_error([&] { in.replace_slice(0, buffer<float>(g.ctx(1), counts[0])); },
                 errc::invalid_argument, {"replace_slice", "not on rank 0"});
  expect_error([&] { in.replace_slice(0, buffer<float>(context::cpu(), counts[0])); },
               errc::invalid_argument, {"replace_slice"});
  expect_error([&] { dist_buffer<float>(g, {1, 2, 3, 4, 5}); }, errc::invalid_argument,
               {"dist_buffer", "slice sizes for a group of"});
}

INSTANTIATE_TEST_SUITE_P(Groups, DistributedReduceScan, ::testing::ValuesIn(all_group_cases()),
                         group_case_name);

TEST(DeviceGroup, CpuGroupShapeAndErrors) {
  auto g = device_group::cpu(3);
  EXPECT_EQ(g.size(), 3);
  EXPECT_EQ(g.local_size(), 3);
  EXPECT_EQ(g.kind(), backend::cpu);
  EXPECT_STREQ(g.comm(2).kind(), "in-process");
  expect_error([] { device_group::cpu(0); }, errc::invalid_argument, {"device_group::cpu"});
  expect_error([&] { g.ctx(3); }, errc::invalid_argument, {"rank 3"});
  // A failing rank wakes the others instead of leaving them in a collective.
  expect_error(
      [&] {
        g.run([&](int r) {
          if (r == 1) throw error(errc::io_error, "rank one fails");
          g.comm(r).allgather(r);
        });
      },
      errc::io_error, {"rank one fails"});
  if (!device_group::nccl_built())
    expect_error([] { device_group::cuda({0, 1}); }, errc::backend_unavailable, {"device_group::cuda"});
}

}  // namespace
}  // namespace parprim::testing
