// Front end of the precompiled copy_if, copy_if_into, partition, unstable_partition, and of split: validate, then
// dispatch (copy_if and partition run the generic bodies with a predicate_eval).
#include "parprim/partition.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "core/partition_functors.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/detail/validate.hpp"
#include "cpu/partition_backend.hpp"
#include "parprim/types.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/partition_backend.hpp"
#endif

namespace parprim {

const char* to_string(compare c) noexcept {
  switch (c) {
    case compare::less: return "less";
    case compare::less_equal: return "less_equal";
    case compare::greater: return "greater";
    case compare::greater_equal: return "greater_equal";
    case compare::equal: return "equal";
    case compare::not_equal: return "not_equal";
    case compare::bits_set: return "bits_set";
  }
  return "unknown";
}

namespace {

template <class T>
void check_select(const detail::checker& c, span<const T> in, span<T> out, predicate<T> pred,
                  bool exact_size, workspace* ws) {
  detail::check_select_args(c, in, out, exact_size, ws);
  c.known_option(pred.cmp, compare::bits_set, "pred.cmp");
}

// Runs the selection with the count left in device memory (CUDA) or returned (CPU); writes
// the count to count_out (backend memory) when given. Returns the count on the CPU backend
// and -1 on CUDA (the count is then only in device memory).
template <class T>
std::int64_t run_select(const context& ctx, span<const T> in, span<T> out, predicate<T> pred,
                        detail::select_mode mode, std::int64_t* count_out, workspace* ws) {
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) {
    cuda_backend::select(ctx, in, out, detail::make_predicate_eval(pred), mode, count_out, ws);
    return -1;
  }
#endif
  (void)ws;
  const std::int64_t count =
      cpu_backend::select(ctx, in, out, detail::make_predicate_eval(pred), mode);
  if (count_out) *count_out = count;
  return count;
}

template <class T>
std::int64_t select_to_host(const context& ctx, span<const T> in, span<T> out, predicate<T> pred,
                            detail::select_mode mode, workspace* ws) {
  if (ctx.kind() == backend::cpu) return run_select(ctx, in, out, pred, mode, nullptr, ws);
  detail::temp_memory count(ctx, nullptr, sizeof(std::int64_t));
  run_select(ctx, in, out, pred, mode, count.as<std::int64_t>(), ws);
  std::int64_t value = 0;
  ctx.copy_to_host(&value, count.get(), sizeof(value));
  return value;
}

}  // namespace

namespace detail {

template <class T>
std::int64_t copy_if_precompiled(const context& ctx, span<const T> in, span<T> out,
                                 predicate<T> pred, workspace* ws) {
  checker c(ctx, "copy_if");
  check_select(c, in, out, pred, /*exact_size=*/false, ws);
  return select_to_host(ctx, in, out, pred, select_mode::compact, ws);
}

template <class T>
void copy_if_into_precompiled(const context& ctx, span<const T> in, span<T> out,
                              span<std::int64_t> count, predicate<T> pred, workspace* ws) {
  checker c(ctx, "copy_if_into");
  check_select(c, in, out, pred, /*exact_size=*/false, ws);
  c.valid(count, "count");
  if (count.size() != 1) c.fail("count.size()=" + std::to_string(count.size()) + " but must be 1");
  c.no_overlap(in, "in", count, "count", false);
  c.no_overlap(out, "out", count, "count", false);
  run_select(ctx, in, out, pred, select_mode::compact, count.data(), ws);
}

template <class T>
std::int64_t partition_precompiled(const context& ctx, span<const T> in, span<T> out,
                                   predicate<T> pred, workspace* ws) {
  checker c(ctx, "partition");
  check_select(c, in, out, pred, /*exact_size=*/true, ws);
  return select_to_host(ctx, in, out, pred, select_mode::stable_partition, ws);
}

template <class T>
std::int64_t unstable_partition_precompiled(const context& ctx, span<const T> in, span<T> out,
                                            predicate<T> pred, workspace* ws) {
  checker c(ctx, "unstable_partition");
  check_select(c, in, out, pred, /*exact_size=*/true, ws);
  return select_to_host(ctx, in, out, pred, select_mode::reversed_partition, ws);
}

}  // namespace detail

template <class T>
void split(const context& ctx, span<const T> in, span<T> out, bucket_fn f,
           span<std::int64_t> bucket_offsets, workspace* ws) {
  detail::checker c(ctx, "split");
  c.valid(in, "in");
  c.valid(out, "out");
  c.same_size(in.size(), "in", out.size(), "out");
  c.no_overlap(in, "in", out, "out", /*allow_same=*/false);
  c.known_option(f.how, bucket_fn::kind::even_range, "f.how");
  const int bits = int(sizeof(T) * 8);
  if (f.how == bucket_fn::kind::key_bits) {
    if (f.width < 1 || f.width > 12)
      c.fail("key_bits width=" + std::to_string(f.width) + " is outside [1, 12] (2 to 4096 buckets)");
    if (f.shift < 0 || f.shift + f.width > bits)
      c.fail("key_bits shift=" + std::to_string(f.shift) + " width=" + std::to_string(f.width) +
             " reaches outside the " + std::to_string(bits) + " bits of " + type_name<T>() + " keys");
  } else {
    if (f.count <= 0 || f.count > bucket_fn::max_buckets)
      c.fail("buckets=" + std::to_string(f.count) + " is outside [1, " +
             std::to_string(bucket_fn::max_buckets) + "]");
    if (!std::isfinite(f.lower) || !std::isfinite(f.upper) || !(f.lower < f.upper))
      c.fail("even_range needs finite lower < upper, got lower=" + std::to_string(f.lower) +
             " upper=" + std::to_string(f.upper));
    // The bucket is (x - lower) * (buckets / (upper - lower)) (partition_functors.hpp): an
    // infinite scale would put every element in the last bucket.
    if (!std::isfinite(double(f.count) / (f.upper - f.lower))) {
      char width[32];
      std::snprintf(width, sizeof width, "%.17g", f.upper - f.lower);
      c.fail("even_range buckets=" + std::to_string(f.count) + " / (upper - lower)=" + width +
             " is not finite: the range is too narrow");
    }
  }
  const std::int64_t buckets = f.buckets();
  if (bucket_offsets.size() != 0) {
    c.valid(bucket_offsets, "bucket_offsets");
    if (bucket_offsets.size() != buckets + 1)
      c.fail("bucket_offsets.size()=" + std::to_string(bucket_offsets.size()) + " but must be " +
             "buckets + 1 = " + std::to_string(buckets + 1));
    c.no_overlap(in, "in", bucket_offsets, "bucket_offsets", false);
    c.no_overlap(out, "out", bucket_offsets, "bucket_offsets", false);
  }
  c.own_workspace(ws);
  std::int64_t* offsets = bucket_offsets.size() ? bucket_offsets.data() : nullptr;
  if (in.size() == 0) {  // every bucket is empty and starts at 0
    if (offsets) ctx.fill_bytes(offsets, 0, std::size_t(buckets + 1) * sizeof(std::int64_t));
    return;
  }
  auto eval = detail::make_bucket_eval<T>(f);
#if PARPRIM_HAVE_CUDA
  if (ctx.kind() == backend::cuda) return cuda_backend::split(ctx, in, out, eval, offsets, ws);
#endif
  cpu_backend::split(ctx, in, out, eval, offsets);
}

#define PARPRIM_INSTANTIATE(T)                                                                  \
  template std::int64_t detail::copy_if_precompiled<T>(const context&, span<const T>, span<T>, \
                                                       predicate<T>, workspace*);               \
  template void detail::copy_if_into_precompiled<T>(const context&, span<const T>, span<T>,    \
                                                    span<std::int64_t>, predicate<T>,           \
                                                    workspace*);                                \
  template std::int64_t detail::partition_precompiled<T>(const context&, span<const T>,        \
                                                         span<T>, predicate<T>, workspace*);    \
  template std::int64_t detail::unstable_partition_precompiled<T>(                             \
      const context&, span<const T>, span<T>, predicate<T>, workspace*);                       \
  template void split<T>(const context&, span<const T>, span<T>, bucket_fn, span<std::int64_t>, \
                         workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim
