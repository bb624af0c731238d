// radix_sort_by_key compiled by the host compiler: the CPU backend on every case
// (tests/sort_by_key_cases.hpp) and the errors; tests/cuda/test_generic_sort.cu runs the same
// cases on the GPU.
#include "sort_by_key_cases.hpp"

namespace parprim {
namespace {

TEST(SortByKeyCpu, EveryCase) { sort_by_key_cases::every_case(context::cpu(), testing::fresh_seed()); }

TEST(SortByKeyCpu, ThreadCounts) {
  const std::uint64_t seed = testing::fresh_seed();
  for (int threads : {1, 3}) {
    auto recs = merge_sort_cases::make_records(50'001, seed + std::uint64_t(threads), 3);
    sort_by_key_cases::check(context::cpu(threads), recs, sort_by_key_cases::key_field{},
                             sort_order::ascending, "threads=" + std::to_string(threads));
  }
}

TEST(SortByKeyErrors, BadArgumentsThrow) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    using merge_sort_cases::record;
    testing::expect_error(
        [&] { radix_sort_by_key(ctx, span<record>(nullptr, 4), sort_by_key_cases::key_field{}); },
        errc::invalid_argument, {"radix_sort_by_key", "[" + ctx.name() + "]", "data.data() is null"});
    auto recs = buffer<record>::from_host(ctx, merge_sort_cases::make_records(10, 1, 3));
    span<record> s(recs.data(), recs.size());
    testing::expect_error(
        [&] { radix_sort_by_key(ctx, s, sort_by_key_cases::key_field{}, static_cast<sort_order>(5)); },
        errc::invalid_argument, {"radix_sort_by_key", "order=5"});
    if (b == backend::cuda)  // this file is not compiled by nvcc
      testing::expect_error([&] { radix_sort_by_key(ctx, s, sort_by_key_cases::key_field{}); },
                            errc::backend_unavailable, {"radix_sort_by_key", "compiled by nvcc"});
  }
}

}  // namespace
}  // namespace parprim
