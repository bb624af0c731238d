// context, buffer and workspace: copies round-trip, the allocator reuses blocks, deferred
// checks surface at synchronize(), size classes bound the slack.
#include "core/context_state.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "support/test_support.hpp"

namespace parprim {
namespace {

class Context : public ::testing::TestWithParam<backend> {
 protected:
  void SetUp() override { PARPRIM_SKIP_IF_NO_BACKEND(GetParam()); }
};

TEST_P(Context, BufferRoundTrip) {
  context ctx = testing::make_context(GetParam());
  for (std::int64_t n : testing::edge_sizes()) {
    auto x = testing::random_vector<std::uint64_t>(n, testing::fresh_seed());
    auto b = buffer<std::uint64_t>::from_host(ctx, x);
    EXPECT_EQ(b.size(), n);
    EXPECT_EQ(b.to_host(), x) << n;
    buffer<std::uint64_t> c(ctx, n);
    if (n) ctx.copy(c.data(), b.data(), b.bytes());
    EXPECT_EQ(c.to_host(), x) << n;
  }
}

TEST_P(Context, CopySizeMismatchIsAnError) {
  context ctx = testing::make_context(GetParam());
  buffer<int> b(ctx, 4);
  std::vector<int> three(3);
  EXPECT_THROW(b.copy_from_host(three.data(), 3), error);
}

TEST_P(Context, AllocatorReusesFreedBlocks) {
  context ctx = testing::make_context(GetParam());
  void* p = ctx.allocate(1000);
  ctx.deallocate(p, 1000);
  void* q = ctx.allocate(1000);  // same size class: the cached block comes back
  EXPECT_EQ(p, q);
  ctx.deallocate(q, 1000);
  ctx.release_cached_memory();
}

TEST_P(Context, DeferredChecksThrowAtSynchronize) {
  context ctx = testing::make_context(GetParam());
  ctx.defer_check([] { throw error(errc::out_of_range, "parprim::test: index 5 out of range"); });
  EXPECT_THROW(ctx.synchronize(), error);
  EXPECT_NO_THROW(ctx.synchronize());  // a check runs once
}

TEST_P(Context, WorkspaceGrowsOnly) {
  context ctx = testing::make_context(GetParam());
  workspace ws(ctx);
  void* a = ws.reserve(4096);
  EXPECT_EQ(ws.reserve(100), a);
  ws.reserve(1 << 20);
  EXPECT_GE(ws.capacity(), std::size_t(1) << 20);
}

// Temporaries held at once (a primitive that calls another with the same workspace) are
// stacked, never on each other: the first time, what does not fit comes from the context's
// allocator; once nothing is held the workspace grows to the whole stack, and the next time
// both come from it, one above the other.
TEST_P(Context, WorkspaceStacksNestedTemporaries) {
  context ctx = testing::make_context(GetParam());
  workspace ws(ctx);
  for (int round = 0; round < 2; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    detail::temp_memory outer(ctx, &ws, 1000);  // the first lease: the workspace's start
    auto* const base = outer.as<unsigned char>();
    EXPECT_GE(ws.capacity(), round == 0 ? std::size_t(1000) : std::size_t(1024 + 5000));
    {
      detail::temp_memory inner(ctx, &ws, 5000);
      auto* const p = inner.as<unsigned char>();
      EXPECT_TRUE(p >= base + 1000 || p + 5000 <= base) << "the inner temporary overlaps the outer";
      if (round == 0) EXPECT_TRUE(p >= base + ws.capacity() || p + 5000 <= base) << "not from the workspace";
      if (round == 1) EXPECT_EQ(p, base + 1024);  // from the workspace, above the outer one
    }
    EXPECT_THROW(ws.reserve(10), error);  // the outer temporary still holds it
  }
}

TEST_P(Context, Names) {
  context ctx = testing::make_context(GetParam());
  if (GetParam() == backend::cpu) {
    EXPECT_EQ(ctx.name(), "cpu");
    EXPECT_GE(ctx.threads(), 1);
    EXPECT_EQ(ctx.device(), -1);
  } else {
    EXPECT_EQ(ctx.name(), "cuda:0");
    EXPECT_NE(ctx.stream(), nullptr);
  }
}

TEST_P(Context, MultiprocessorsMatchTheDeviceInfo) {
  context ctx = testing::make_context(GetParam());
  if (ctx.kind() == backend::cpu) {
    EXPECT_EQ(ctx.multiprocessors(), 0);
    return;
  }
  const auto devices = cuda_devices();
  ASSERT_LT(ctx.device(), int(devices.size()));
  EXPECT_GT(ctx.multiprocessors(), 0);
  EXPECT_EQ(ctx.multiprocessors(), devices[ctx.device()].multiprocessors);
  context copy = ctx;  // copies share the state, and so the count
  EXPECT_EQ(copy.multiprocessors(), ctx.multiprocessors());
}

INSTANTIATE_TEST_SUITE_P(All, Context, ::testing::Values(backend::cpu, backend::cuda),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(SizeClasses, SlackIsBounded) {
  for (std::size_t bytes : {1ul, 255ul, 256ul, 257ul, 1000ul, 4096ul, 4097ul, 1ul << 30, (1ul << 30) + 1}) {
    std::size_t c = detail::allocation_size_class(bytes);
    EXPECT_GE(c, bytes);
    // At most a quarter of the request, or one 256-byte step for small requests.
    EXPECT_LE(double(c), std::max(double(bytes) + 255.0, 1.25 * double(bytes)));
    EXPECT_EQ(c % 256, 0u);
  }
}

TEST(Devices, InfoMatchesDeviceCount) {
  EXPECT_EQ(int(cuda_devices().size()), context::cuda_device_count());
  for (auto& d : cuda_devices()) {
    EXPECT_GT(d.multiprocessors, 0);
    EXPECT_FALSE(d.name.empty());
  }
}

}  // namespace
}  // namespace parprim
