// merge_sort / merge_sort_pairs compiled by the host compiler: the CPU backend on every case
// (tests/merge_sort_cases.hpp), several thread counts, and the errors (a CUDA context from a
// file not compiled by nvcc included). tests/cuda/test_merge_sort.cu runs the same cases on
// the GPU.
#include "merge_sort_cases.hpp"

namespace parprim {
namespace {

using testing::fresh_seed;

TEST(MergeSortCpu, EveryCase) { merge_sort_cases::every_case(context::cpu(), fresh_seed()); }

TEST(MergeSortCpu, OrderedInputs) { merge_sort_cases::ordered_inputs(context::cpu()); }

// One block per thread, then merge rounds: any thread count (odd ones leave a lone run).
TEST(MergeSortCpu, AnyThreadCount) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (int threads : {1, 2, 3, 7}) {
    context ctx = context::cpu(threads);
    auto recs = merge_sort_cases::make_records(std::min<std::int64_t>(70'001, testing::max_test_size()),
                                               seed + std::uint64_t(threads), 5);
    merge_sort_cases::check_keys(ctx, recs, merge_sort_cases::by_key{}, "threads=" + std::to_string(threads));
    merge_sort_cases::check_pairs(ctx, recs, merge_sort_cases::by_key{}, "pairs threads=" + std::to_string(threads));
  }
}

TEST(MergeSortErrors, BadArgumentsThrow) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    auto keys = buffer<std::uint64_t>::from_host(ctx, {5, 3, 9, 1, 7});
    auto values = buffer<std::uint32_t>::from_host(ctx, {0, 1, 2, 3});
    span<std::uint64_t> ks(keys.data(), keys.size());
    span<std::uint32_t> vs(values.data(), values.size());
    testing::expect_error([&] { merge_sort_pairs(ctx, ks, vs); }, errc::invalid_argument,
                          {"merge_sort_pairs", "[" + ctx.name() + "]", "keys.size()=5 but values.size()=4"});
    testing::expect_error([&] { merge_sort(ctx, span<std::uint64_t>(nullptr, 3)); }, errc::invalid_argument,
                          {"merge_sort", "keys.data() is null"});
    span<std::uint32_t> halves(reinterpret_cast<std::uint32_t*>(keys.data()), 4);
    testing::expect_error([&] { merge_sort_pairs(ctx, halves.subspan(0, 2), halves.subspan(1, 2)); },
                          errc::invalid_argument, {"merge_sort_pairs", "overlap"});
    if (b == backend::cuda)  // this file is not compiled by nvcc: the comparator cannot run there
      testing::expect_error([&] { merge_sort(ctx, ks); }, errc::backend_unavailable,
                            {"merge_sort", "[" + ctx.name() + "]", "compiled by nvcc"});
  }
}

}  // namespace
}  // namespace parprim
