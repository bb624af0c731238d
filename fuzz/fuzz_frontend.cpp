// libFuzzer target: the library's front ends on the CPU backend with random sizes, spans and
// options. Spans are either honest views of real memory (any offset and length inside it) or
// the kinds of lie a front end must catch: negative sizes, null data, sizes no memory holds,
// overlapping ranges, mismatched sizes. Options are any integer cast to the enum, any float
// for ranges. The only acceptable outcomes are a correct call or a parprim::error; a crash,
// hang or sanitizer report is a finding. Results are checked where an oracle is one line.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "parprim/parprim.hpp"

namespace {

using namespace parprim;

constexpr std::int64_t pool_size = 2048;

const context& cpu() {
  static const context ctx = context::cpu(2);
  return ctx;
}

// One span over `pool`: mostly honest, sometimes one of the lies validation must reject.
template <class T>
span<T> pick_span(FuzzedDataProvider& in, std::vector<T>& pool) {
  const int kind = in.ConsumeIntegralInRange(0, 9);
  if (kind == 0) return span<T>(nullptr, in.ConsumeIntegralInRange<std::int64_t>(1, 1 << 20));
  if (kind == 1) return span<T>(pool.data(), -in.ConsumeIntegralInRange<std::int64_t>(1, INT64_MAX));
  if (kind == 2)  // more elements than any memory holds: rejected before anything is touched
    return span<T>(pool.data(), in.ConsumeIntegralInRange<std::int64_t>((std::int64_t(1) << 62) / sizeof(T) + 1, INT64_MAX));
  if (kind == 3) return span<T>();
  const std::int64_t offset = in.ConsumeIntegralInRange<std::int64_t>(0, pool_size);
  const std::int64_t count = in.ConsumeIntegralInRange<std::int64_t>(0, pool_size - offset);
  return span<T>(pool.data() + offset, count);
}

// Pool contents from a seed (not from the input bytes, which go to sizes and options); a few
// distinct values so that sorts and selections see duplicates.
template <class T>
std::vector<T> fill(FuzzedDataProvider& in) {
  std::uint64_t state = in.ConsumeIntegral<std::uint64_t>() | 1;
  const std::uint64_t mask = in.ConsumeBool() ? 0xFF : ~std::uint64_t(0);
  std::vector<T> v(pool_size);
  for (auto& x : v) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<T>((state >> 17) & mask);
  }
  return v;
}

template <class E>
E any_enum(FuzzedDataProvider& in) {
  return static_cast<E>(in.ConsumeIntegralInRange<int>(-2, 8));
}

double any_double(FuzzedDataProvider& in) {
  static const double specials[] = {0.0, -0.0, 1e-320, 1e-300, 1.0, -1.0, 1e300, 1e308, -1e308,
                                    __builtin_inf(), -__builtin_inf(), __builtin_nan("")};
  if (in.ConsumeBool()) return specials[in.ConsumeIntegralInRange<int>(0, 11)];
  return in.ConsumeFloatingPoint<double>();
}

void scan_and_reduce(FuzzedDataProvider& in, std::vector<std::int32_t>& a, std::vector<std::int32_t>& b) {
  auto x = pick_span(in, a);
  auto y = in.ConsumeBool() ? pick_span(in, a) : pick_span(in, b);  // may alias or overlap x
  switch (in.ConsumeIntegralInRange(0, 4)) {
    case 0: {
      const auto o = any_enum<op>(in);
      const std::int32_t got = reduce<std::int32_t>(cpu(), x.as_const(), o);
      if (o == op::plus && x.size() > 0) {  // integer sums wrap: compute in the same type
        std::uint32_t s = 0;
        for (std::int64_t i = 0; i < x.size(); ++i) s += std::uint32_t(x[i]);
        if (std::int32_t(s) != got) __builtin_trap();
      }
      break;
    }
    case 1:
      inclusive_scan<std::int32_t>(cpu(), x.as_const(), y, any_enum<op>(in), any_enum<scan_algorithm>(in));
      break;
    case 2:
      exclusive_scan<std::int32_t>(cpu(), x.as_const(), y, 7, any_enum<op>(in), any_enum<scan_algorithm>(in));
      break;
    case 3: transform<std::int32_t>(cpu(), x.as_const(), y, any_enum<unary_op>(in)); break;
    default: reduce_into<std::int32_t>(cpu(), x.as_const(), y, any_enum<op>(in), any_enum<reduce_algorithm>(in));
  }
}

void sort_and_select(FuzzedDataProvider& in, std::vector<std::uint32_t>& a, std::vector<std::uint32_t>& b) {
  auto x = pick_span(in, a);
  auto y = in.ConsumeBool() ? pick_span(in, a) : pick_span(in, b);
  switch (in.ConsumeIntegralInRange(0, 6)) {
    case 0: {
      const auto order = any_enum<sort_order>(in);
      const int begin = in.ConsumeIntegralInRange(-4, 40), end = in.ConsumeIntegralInRange(-4, 40);
      radix_sort<std::uint32_t>(cpu(), x, order, begin, end, any_enum<sort_algorithm>(in));
      if (order == sort_order::ascending && begin == 0 && (end == -1 || end == 32))
        if (!std::is_sorted(x.data(), x.data() + x.size())) __builtin_trap();
      break;
    }
    case 1: radix_sort_pairs<std::uint32_t, std::uint32_t>(cpu(), x, y, any_enum<sort_order>(in)); break;
    case 2: {
      predicate<std::uint32_t> p{any_enum<compare>(in), in.ConsumeIntegral<std::uint32_t>()};
      const std::int64_t k = in.ConsumeBool() ? copy_if<std::uint32_t>(cpu(), x.as_const(), y, p)
                                              : partition<std::uint32_t>(cpu(), x.as_const(), y, p);
      if (k < 0 || k > x.size()) __builtin_trap();
      break;
    }
    case 3: {
      bucket_fn f = in.ConsumeBool()
                        ? bucket_fn::key_bits(in.ConsumeIntegralInRange(-2, 40), in.ConsumeIntegralInRange(-2, 14))
                        : bucket_fn::even_range(any_double(in), any_double(in),
                                                in.ConsumeIntegralInRange<std::int64_t>(-2, 5000));
      f.how = in.ConsumeIntegralInRange(0, 9) == 0 ? any_enum<bucket_fn::kind>(in) : f.how;
      std::vector<std::int64_t> offsets(std::size_t(std::max<std::int64_t>(0, f.buckets() + 1)));
      split<std::uint32_t>(cpu(), x.as_const(), y, f, in.ConsumeBool() ? span<std::int64_t>(offsets) : span<std::int64_t>());
      break;
    }
    case 4:
      counting_sort<std::uint32_t>(cpu(), x.as_const(), y, in.ConsumeIntegralInRange<std::int64_t>(-2, 1 << 18),
                                   in.ConsumeIntegral<std::uint32_t>());
      break;
    case 5: {  // sorted top-k: equal u32 keys are identical, so it is the sorted prefix
      const auto order = any_enum<sort_order>(in);
      const std::int64_t k = in.ConsumeBool() ? y.size() : in.ConsumeIntegralInRange<std::int64_t>(-2, pool_size + 2);
      top_k<std::uint32_t>(cpu(), x.as_const(), k, y, order, true);
      std::vector<std::uint32_t> want(x.data(), x.data() + x.size());
      if (order == sort_order::descending) std::sort(want.begin(), want.end(), std::greater<>());
      else std::sort(want.begin(), want.end());
      if (!std::equal(y.data(), y.data() + k, want.begin())) __builtin_trap();
      break;
    }
    default: {
      // Indices taken from the data: many are out of range (an error at synchronize()).
      std::vector<std::int32_t> idx(std::size_t(std::clamp<std::int64_t>(x.size(), 0, pool_size)));
      for (auto& i : idx) i = in.ConsumeIntegralInRange<std::int32_t>(-3, pool_size + 3);
      auto id = span<const std::int32_t>(idx);
      if (in.ConsumeBool()) gather<std::uint32_t, std::int32_t>(cpu(), y.as_const(), id, x);
      else scatter<std::uint32_t, std::int32_t>(cpu(), x.as_const(), id, y, {any_enum<scatter_algorithm>(in), in.ConsumeIntegralInRange(-2, 9)});
    }
  }
}

void floats(FuzzedDataProvider& in, std::vector<float>& a, std::vector<float>& b) {
  auto x = pick_span(in, a);
  auto y = pick_span(in, b);
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0: {
      std::vector<std::uint64_t> bins(std::size_t(in.ConsumeIntegralInRange(0, 4096)));
      const std::int64_t nb = in.ConsumeBool() ? std::int64_t(bins.size()) : in.ConsumeIntegralInRange<std::int64_t>(-2, 1 << 20);
      histogram<float>(cpu(), x.as_const(), span<std::uint64_t>(bins), nb, float(any_double(in)), float(any_double(in)));
      std::uint64_t total = 0;
      for (auto c : bins) total += c;
      if (total > std::uint64_t(std::max<std::int64_t>(0, x.size()))) __builtin_trap();
      break;
    }
    case 1: (void)dot<float>(cpu(), x.as_const(), y.as_const()); break;
    default: {
      const std::int64_t m = in.ConsumeIntegralInRange(-1, 40), n = in.ConsumeIntegralInRange(-1, 40),
                         k = in.ConsumeIntegralInRange(-1, 40);
      std::vector<float> c(2048);
      gemm<float>(cpu(), x.as_const(), y.as_const(), span<float>(c).subspan(0, in.ConsumeIntegralInRange(0, 2048)),
                  m, n, k, 1.0f, 0.0f, any_enum<transpose>(in), any_enum<transpose>(in),
                  any_enum<gemm_algorithm>(in));
    }
  }
}

}  // namespace

// scatter's cost model measures the machine once per process (src/core/scatter_model.cpp).
// Under the sanitizers that took longer than a unit's 10 s timeout when a unit first reached a
// multi-pass scatter with passes = 0, so it runs here, before the units.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::vector<std::uint32_t> values(64, 1u), out(64);
  std::vector<std::int32_t> indices(64);
  for (std::size_t i = 0; i < indices.size(); ++i) indices[i] = std::int32_t(i);
  scatter<std::uint32_t, std::int32_t>(cpu(), span<const std::uint32_t>(values), span<const std::int32_t>(indices),
                                       span<std::uint32_t>(out), {scatter_algorithm::multi_pass, 0});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  const int family = in.ConsumeIntegralInRange(0, 2);
  try {
    if (family == 0) {
      auto a = fill<std::int32_t>(in), b = fill<std::int32_t>(in);
      scan_and_reduce(in, a, b);
    } else if (family == 1) {
      auto a = fill<std::uint32_t>(in), b = fill<std::uint32_t>(in);
      sort_and_select(in, a, b);
    } else {
      std::vector<float> a(pool_size), b(pool_size);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = float(i % 97) * 0.01f, b[i] = float(i % 13) - 6.0f;
      floats(in, a, b);
    }
    cpu().synchronize();  // checks deferred by the call (indices out of range) throw here
  } catch (const error&) {
    try {
      cpu().synchronize();  // drop what an aborted call left queued
    } catch (const error&) {
    }
  }
  return 0;
}
