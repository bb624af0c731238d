// Part of test_sort.cpp, included inside its namespace after its helpers (make_keys,
// check_sort, the RadixSort fixture): pairs of every key and value type, every distribution,
// bit ranges, a few million keys, the oracle's own checks, float and half-float order on both
// backends, thread-count independence and bad arguments.
template <class K, class V>
void pairs_some_sizes(const context& ctx, sort_algorithm alg, std::uint64_t seed) {
  const std::int64_t large = capped(alg == sort_algorithm::split_1bit ? 4097 : 65537);
  std::vector<std::int64_t> sizes = {0, 1, 33, 3840, 3841, large};
  if (alg == sort_algorithm::onesweep) {  // the last tile one key short, and one key over
    using t = cuda_tuning::onesweep_tuning;
    const std::int64_t tile = sizeof(K) == 8 || sizeof(V) == 8 ? t::wide_tile::keys : t::pairs_tile::keys;
    sizes.push_back(tile - 1);
    sizes.push_back(tile + 1);
  }
  for (std::int64_t n : sizes)
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      check_sort<K, V>(ctx, alg, n, {o, 0, -1, dist::few_distinct}, seed + std::uint64_t(n) + int(o));
}

// Every key type with a 4- and an 8-byte value; every value type with u32 and f64 keys.
// Grouped by key width, so sanitizer runs can take the groups side by side.
TEST_P(RadixSort, Pairs32BitKeysEveryValueType) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  pairs_some_sizes<std::int32_t, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<std::int32_t, double>(c, alg(), seed_);
  pairs_some_sizes<std::uint32_t, std::int32_t>(c, alg(), seed_);
  pairs_some_sizes<std::uint32_t, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<std::uint32_t, float>(c, alg(), seed_);
  pairs_some_sizes<std::uint32_t, std::int64_t>(c, alg(), seed_);
  pairs_some_sizes<std::uint32_t, std::uint64_t>(c, alg(), seed_);
  pairs_some_sizes<std::uint32_t, double>(c, alg(), seed_);
  pairs_some_sizes<float, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<float, std::uint64_t>(c, alg(), seed_);
}

TEST_P(RadixSort, Pairs64BitKeysEveryValueType) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  pairs_some_sizes<std::int64_t, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<std::int64_t, std::int64_t>(c, alg(), seed_);
  pairs_some_sizes<std::uint64_t, float>(c, alg(), seed_);
  pairs_some_sizes<std::uint64_t, std::uint64_t>(c, alg(), seed_);
  pairs_some_sizes<double, std::int32_t>(c, alg(), seed_);
  pairs_some_sizes<double, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<double, std::int64_t>(c, alg(), seed_);
  pairs_some_sizes<double, float>(c, alg(), seed_);
  pairs_some_sizes<double, double>(c, alg(), seed_);
}

// 1- and 2-byte keys with 4- and 8-byte values.
TEST_P(RadixSort, PairsNarrowKeysEveryValueWidth) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  pairs_some_sizes<std::uint8_t, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<std::int8_t, std::uint64_t>(c, alg(), seed_);
  pairs_some_sizes<std::uint16_t, double>(c, alg(), seed_);
  pairs_some_sizes<std::int16_t, std::int32_t>(c, alg(), seed_);
  pairs_some_sizes<f16, std::uint32_t>(c, alg(), seed_);
  pairs_some_sizes<f16, std::int64_t>(c, alg(), seed_);
}

// Many tiles, and one tile or less (3001 keys: on CUDA one block sorts them, radix_sort_small.cuh).
template <class K, class V>
void every_distribution(const context& ctx, sort_algorithm alg, std::uint64_t seed) {
  for (std::int64_t n : {std::int64_t(3001), capped(alg == sort_algorithm::split_1bit ? 20'011 : 100'003)})
    for (dist d : {dist::uniform, dist::few_distinct, dist::all_equal, dist::special, dist::sorted,
                   dist::reversed, dist::narrow})
      for (sort_order o : {sort_order::ascending, sort_order::descending})
        check_sort<K, V>(ctx, alg, n, {o, 0, -1, d}, seed + std::uint64_t(n) + int(d) * 2 + int(o));
}

TEST_P(RadixSort, DuplicatesAllEqualSpecialSortedReversed) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  every_distribution<std::uint32_t, std::uint32_t>(c, alg(), seed_);
  every_distribution<std::int32_t, std::uint64_t>(c, alg(), seed_);
  every_distribution<float, std::uint32_t>(c, alg(), seed_);
  every_distribution<std::int64_t, std::uint32_t>(c, alg(), seed_);
  every_distribution<double, std::uint64_t>(c, alg(), seed_);
  every_distribution<f16, std::uint32_t>(c, alg(), seed_);
  every_distribution<std::int8_t, std::uint32_t>(c, alg(), seed_);
}

template <class K>
void bit_ranges(const context& ctx, sort_algorithm alg, std::uint64_t seed) {
  const int bits = int(sizeof(K) * 8);
  std::vector<std::pair<int, int>> ranges = {
      {0, 8}, {8, 24}, {3, 17}, {bits - 1, bits}, {5, bits - 3}, {0, 1}, {bits - 12, -1}};
  if (bits == 16) ranges = {{0, 8}, {3, 11}, {8, 16}, {15, 16}, {5, 13}, {0, 1}, {4, -1}};
  if (bits == 8) ranges = {{0, 8}, {3, 7}, {7, 8}, {0, 1}, {2, -1}};
  for (auto [b, e] : ranges)
    for (sort_order o : {sort_order::ascending, sort_order::descending})
      for (std::int64_t n : {std::int64_t(257), std::int64_t(7681),
                             capped(alg == sort_algorithm::split_1bit ? 9'001 : 30'011)})
        check_sort<K, std::uint32_t>(ctx, alg, n, {o, b, e, dist::uniform},
                                     seed + std::uint64_t(b * 131 + e) + std::uint64_t(n));
}

TEST_P(RadixSort, BitRanges) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  bit_ranges<std::uint32_t>(c, alg(), seed_);
  bit_ranges<std::int32_t>(c, alg(), seed_);
  bit_ranges<float>(c, alg(), seed_);
  bit_ranges<std::uint64_t>(c, alg(), seed_);
  bit_ranges<double>(c, alg(), seed_);
  bit_ranges<std::uint8_t>(c, alg(), seed_);
  bit_ranges<std::int16_t>(c, alg(), seed_);
  bit_ranges<f16>(c, alg(), seed_);
}

// A few million keys on the widths the benchmark measures, with and without a workspace.
TEST_P(RadixSort, FewMillion) {
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed_));
  context c = ctx();
  const std::int64_t n = capped(alg() == sort_algorithm::split_1bit ? 1'000'003 : 3'000'017);
  workspace ws(c);
  check_sort<std::uint32_t>(c, alg(), n, {}, seed_);
  check_sort<std::uint32_t, std::uint32_t>(c, alg(), n, {}, seed_ + 1, &ws);
  if (alg() == sort_algorithm::onesweep) {
    check_sort<std::uint64_t>(c, alg(), n, {}, seed_ + 2, &ws);
    check_sort<double, std::uint64_t>(c, alg(), n, {sort_order::descending, 0, -1, dist::special},
                                      seed_ + 3, &ws);
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, RadixSort,
    ::testing::Combine(::testing::Values(backend::cpu, backend::cuda),
                       ::testing::Values(sort_algorithm::split_1bit, sort_algorithm::onesweep)),
    [](const auto& info) {
      return std::string(to_string(std::get<0>(info.param))) + "_" +
             to_string(std::get<1>(info.param));
    });

// The oracle's comparator and its bit image agree (the bit-range tests rely on the image).
TEST(RadixSortOracle, ImageOrderMatchesComparator) {
  auto check = [](auto tag) {
    using K = decltype(tag);
    auto v = special_values<K>();
    for (K a : v)
      for (K b : v) {
        EXPECT_EQ(reference::key_less(a, b),
                  reference::ordered_image(a, false) < reference::ordered_image(b, false));
        EXPECT_EQ(reference::key_less(b, a),
                  reference::ordered_image(a, true) < reference::ordered_image(b, true));
      }
  };
  check(float{});
  check(double{});
  check(std::int32_t{});
  check(std::int64_t{});
  check(f16{});
  check(std::int8_t{});
  check(std::int16_t{});
}

// original_bits undoes ordered_bits for every kind and order (the GPU sort moves images
// between its passes and turns them back into raw keys when it writes).
TEST(RadixSortOracle, OriginalBitsInvertsOrderedBits) {
  auto check = [](auto tag) {
    using K = decltype(tag);
    using U = detail::key_word_t<K>;
    std::vector<U> raw;
    for (K k : special_values<K>()) {
      U u;
      std::memcpy(&u, &k, sizeof u);
      raw.push_back(u);
    }
    std::mt19937_64 g(fresh_seed());
    for (int i = 0; i < 1000; ++i) raw.push_back(U(g()));
    if (sizeof(U) <= 2)  // every pattern
      for (std::uint32_t i = 0; i < (1u << (8 * sizeof(U))); ++i) raw.push_back(U(i));
    for (U u : raw)
      for (bool desc : {false, true}) {
        const U image = detail::ordered_bits(u, detail::kind_of<K>(), desc);
        EXPECT_EQ(detail::original_bits(image, detail::kind_of<K>(), desc), u)
            << key_type_name<K>() << (desc ? " descending" : " ascending");
      }
  };
  testing::for_each_type(check);
  check(f16{});
  check(std::int8_t{});
  check(std::uint8_t{});
  check(std::int16_t{});
  check(std::uint16_t{});
}

// The documented float order, spelled out.
TEST(RadixSortEdges, FloatOrderOnBothBackends) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> in = {1.0f, -nan, 0.0f, inf, -0.0f, nan, -inf, -1.0f};
  for (backend b : testing::usable_backends()) {
    for (sort_algorithm alg : {sort_algorithm::split_1bit, sort_algorithm::onesweep}) {
      context ctx = testing::make_context(b);
      auto kb = buffer<float>::from_host(ctx, in);
      radix_sort<float>(ctx, kb, sort_order::ascending, 0, -1, alg);
      auto got = kb.to_host();
      ASSERT_EQ(got.size(), 8u);
      EXPECT_EQ(got[0], -inf);
      EXPECT_EQ(got[1], -1.0f);
      EXPECT_TRUE(got[2] == 0.0f && std::signbit(got[2]));
      EXPECT_TRUE(got[3] == 0.0f && !std::signbit(got[3]));
      EXPECT_EQ(got[4], 1.0f);
      EXPECT_EQ(got[5], inf);
      EXPECT_TRUE(std::isnan(got[6]) && !std::signbit(got[6]));
      EXPECT_TRUE(std::isnan(got[7]) && std::signbit(got[7]));
      radix_sort<float>(ctx, kb, sort_order::descending, 0, -1, alg);
      got = kb.to_host();
      EXPECT_TRUE(std::isnan(got[0]) && std::signbit(got[0]));  // NaNs first when descending
      EXPECT_TRUE(std::isnan(got[1]) && !std::signbit(got[1]));
      EXPECT_EQ(got[2], inf);
      EXPECT_EQ(got[7], -inf);
    }
  }
}

// The documented float order on half floats, given as their bits.
TEST(RadixSortEdges, HalfFloatOrderOnBothBackends) {
  // 1.0, -NaN, +0, +inf, -0, +NaN, -inf, -1.0
  std::vector<f16> in = {{0x3C00}, {0xFE00}, {0x0000}, {0x7C00}, {0x8000}, {0x7E00}, {0xFC00}, {0xBC00}};
  const std::vector<std::uint16_t> up = {0xFC00, 0xBC00, 0x8000, 0x0000, 0x3C00, 0x7C00, 0x7E00, 0xFE00};
  for (backend b : testing::usable_backends()) {
    for (sort_algorithm alg : {sort_algorithm::split_1bit, sort_algorithm::onesweep}) {
      context ctx = testing::make_context(b);
      auto kb = buffer<f16>::from_host(ctx, in);
      radix_sort<f16>(ctx, kb, sort_order::ascending, 0, -1, alg);
      auto got = kb.to_host();
      for (std::size_t i = 0; i < up.size(); ++i) EXPECT_EQ(got[i].bits, up[i]) << ctx.name() << " " << i;
      radix_sort<f16>(ctx, kb, sort_order::descending, 0, -1, alg);
      got = kb.to_host();
      for (std::size_t i = 0; i < up.size(); ++i) EXPECT_EQ(got[i].bits, up[up.size() - 1 - i]) << ctx.name() << " " << i;
    }
  }
}

// The CPU sort cuts the keys into one block per thread: any thread count gives the oracle's
// answer (more blocks than cores included).
TEST(RadixSortEdges, CpuAnyThreadCount) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  for (int threads : {1, 3, 7})
    for (sort_algorithm alg : {sort_algorithm::split_1bit, sort_algorithm::onesweep})
      check_sort<float, std::uint32_t>(context::cpu(threads), alg, 50'021,
                                       {sort_order::descending, 0, -1, dist::few_distinct},
                                       seed + std::uint64_t(threads));
}

// From 2^16 keys the CPU sort splits by the top digit into buckets sorted in cache: skewed
// keys (buckets too big for a cache go to the LSD passes), a constant top digit (no split),
// keys whose bits the split takes whole (u8), bit ranges, pairs, several thread counts.
TEST(RadixSortEdges, CpuSplitIntoBuckets) {
  const std::uint64_t seed = fresh_seed();
  SCOPED_TRACE("PARPRIM_TEST_SEED=" + std::to_string(seed));
  const std::int64_t n = capped((1 << 20) + 7);
  const sort_algorithm alg = sort_algorithm::onesweep;
  const sort_order up = sort_order::ascending, down = sort_order::descending;
  const context c = context::cpu(3);
  check_sort<std::uint32_t, std::uint32_t>(c, alg, n, {up, 0, -1, dist::few_distinct}, seed);
  check_sort<std::int32_t, std::uint64_t>(c, alg, n, {down, 0, -1, dist::narrow}, seed + 1);
  check_sort<float>(c, alg, n, {down, 0, -1, dist::special}, seed + 2);
  check_sort<std::uint8_t, std::uint32_t>(c, alg, n, {up, 0, -1, dist::few_distinct}, seed + 3);
  check_sort<std::int8_t, std::uint64_t>(c, alg, n, {down, 0, -1, dist::uniform}, seed + 4);
  check_sort<f16, std::uint64_t>(c, alg, n, {down, 0, -1, dist::uniform}, seed + 5);
  check_sort<std::int16_t>(c, alg, n, {up, 3, 14, dist::uniform}, seed + 6);
  check_sort<std::uint64_t, std::uint32_t>(c, alg, n, {up, 5, 47, dist::uniform}, seed + 7);
  check_sort<double, std::uint64_t>(context::cpu(1), alg, n, {up, 0, -1, dist::sorted}, seed + 8);
  check_sort<std::uint32_t>(context::cpu(7), alg, n, {down, 0, -1, dist::reversed}, seed + 9);
  workspace ws(c);
  check_sort<std::uint32_t, std::uint32_t>(c, alg, n, {up, 0, -1, dist::all_equal}, seed + 10, &ws);
  check_sort<std::uint32_t, std::uint32_t>(c, alg, n, {up, 0, -1, dist::uniform}, seed + 11, &ws);
}

// Bad input: a clear parprim::error naming the function and backend, and nothing written.
TEST(RadixSortErrors, BadArgumentsThrowAndWriteNothing) {
  for (backend b : testing::usable_backends()) {
    context ctx = testing::make_context(b);
    std::vector<std::uint32_t> k0 = {5, 3, 9, 1, 7};
    auto keys = buffer<std::uint32_t>::from_host(ctx, k0);
    auto values = buffer<std::uint32_t>::from_host(ctx, {0, 1, 2, 3});
    auto expect_error = [&](auto&& call, const std::string& fragment) {
      try {
        call();
        ADD_FAILURE() << "no error for " << fragment;
      } catch (const error& e) {
        EXPECT_EQ(e.code(), errc::invalid_argument);
        std::string m = e.what();
        EXPECT_NE(m.find("radix_sort"), std::string::npos) << m;
        EXPECT_NE(m.find("[" + ctx.name() + "]"), std::string::npos) << m;
        EXPECT_NE(m.find(fragment), std::string::npos) << m;
      }
      EXPECT_EQ(keys.to_host(), k0) << "keys written despite " << fragment;
    };
    span<std::uint32_t> ks = keys.view(), vs = values.view();
    expect_error([&] { radix_sort_pairs<std::uint32_t, std::uint32_t>(ctx, ks, vs); },
                 "keys.size()=5 but values.size()=4");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, ks, sort_order::ascending, -1); },
                 "begin_bit=-1");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, ks, sort_order::ascending, 0, 33); },
                 "end_bit=33");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, ks, sort_order::ascending, 0, -2); },
                 "end_bit=-2");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, ks, sort_order::ascending, 8, 8); },
                 "begin_bit=8 is not below end_bit=8");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, ks, sort_order::ascending, 32); },
                 "begin_bit=32 is not below end_bit=32");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, ks, static_cast<sort_order>(7)); },
                 "order=7");
    expect_error([&] {
      radix_sort<std::uint32_t>(ctx, ks, sort_order::ascending, 0, -1,
                                static_cast<sort_algorithm>(9));
    }, "algorithm=9");
    expect_error([&] { radix_sort<std::uint32_t>(ctx, span<std::uint32_t>(nullptr, 5)); },
                 "keys.data() is null");
    expect_error([&] {
      radix_sort_pairs<std::uint32_t, std::uint32_t>(ctx, ks.subspan(0, 3), ks.subspan(2, 3));
    }, "overlap");
    std::vector<std::uint32_t> v4(5);
    expect_error([&] {
      radix_sort_pairs<std::uint32_t, std::uint32_t>(ctx, ks, span<std::uint32_t>(nullptr, 5));
    }, "values.data() is null");
    (void)v4;
  }
}
