// CUDA dispatch of the radix select behind top_k (top_k.cuh): the first-digit pass over n,
// the candidate copy (the shared look-back copy_if), the later digit passes and the final
// stable compaction.
#include <algorithm>
#include <vector>

#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/partition.cuh"
#include "parprim/cuda/scan.cuh"
#include "cuda/kernels/top_k.cuh"
#include "cuda/top_k_backend.hpp"

namespace parprim::cuda_backend {

namespace {

// The 8-bit passes after the 12-bit first digit, most significant first; the last one
// overlaps bits already fixed (harmless: histogram_kernel keeps only keys matching the prefix,
// so only digits that agree with it are counted). u32: 12, 4, 0.
template <class U>
std::vector<int> later_shifts() {
  using tuning = cuda_kernels::top_k::tuning;
  std::vector<int> shifts;
  const int bits = int(sizeof(U)) * 8;
  for (int shift = bits - tuning::first_digit_bits - tuning::digit_bits; shift > 0;
       shift -= tuning::digit_bits)
    shifts.push_back(shift);
  shifts.push_back(0);
  return shifts;
}

}  // namespace

template <class U, class W>
void top_k(const context& ctx, const U* in, const W* values, std::int64_t n, std::int64_t k,
           U* out, W* out_values, detail::key_kind kind, bool largest, workspace* ws) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::top_k;
  const char* who = "top_k";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const int sms = ctx.multiprocessors();
  const std::int64_t tiles = ceil_div(n, tuning::tile);
  const std::size_t state_bytes = detail::align_up(sizeof(select_state<U>));
  const std::size_t hist_bytes = detail::align_up(tuning::first_bins * sizeof(unsigned long long));
  const std::size_t counts_bytes = detail::align_up(std::size_t(tiles) * sizeof(counts));
  detail::temp_memory temp(ctx, ws, state_bytes + hist_bytes + counts_bytes + scan_scratch_bytes<counts>(tiles));
  auto* base = temp.as<unsigned char>();
  auto* state = reinterpret_cast<select_state<U>*>(base);
  auto* hist = reinterpret_cast<unsigned long long*>(base + state_bytes);
  auto* tile_counts = reinterpret_cast<counts*>(base + state_bytes + hist_bytes);
  void* scan_scratch = base + state_bytes + hist_bytes + counts_bytes;

  // First pass over all n: the top digit; pick_first_digit_kernel writes the whole state.
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(hist, 0, hist_bytes, stream));
  const std::int64_t grid = std::min<std::int64_t>(ceil_div(n, tuning::threads),
                                                   std::int64_t(sms) * tuning::histogram_blocks_per_sm);
  const int first_shift = int(sizeof(U)) * 8 - tuning::first_digit_bits;
  first_histogram_kernel<U><<<unsigned(grid), tuning::threads, 0, stream>>>(in, n, kind, largest, first_shift, hist);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  pick_first_digit_kernel<U><<<1, 256, 0, stream>>>(state, hist, first_shift, k);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);

  // Copy the candidates out, in input order, when they are few: every later pass, and for
  // keys alone the final compaction too, then reads them instead of n. They are leased from
  // the workspace above the state. Deciding waits for their count on the host, so up to
  // no_wait_max_bytes of keys every pass reads the input instead, without waiting.
  const U* src = in;
  std::int64_t src_n = n;
  const bool wait = n * std::int64_t(sizeof(U)) > tuning::no_wait_max_bytes;
  select_state<U> host{};
  if (wait) ctx.copy_to_host(&host, state, sizeof(host));
  const bool copy_candidates = wait && host.candidates <= n / tuning::candidate_divisor;
  detail::temp_memory candidates(ctx, ws, copy_candidates ? std::size_t(host.candidates) * sizeof(U) : 0);
  if (copy_candidates) {
    const candidate_pred<U> pred{kind, largest, first_shift, U(host.prefix >> first_shift)};
    lookback_pass<false>(ctx, stream, span<const U>(in, n), span<U>(candidates.as<U>(), host.candidates), pred,
                 nullptr, nullptr, who);
    src = candidates.as<U>();
    src_n = host.candidates;
  }
  const std::int64_t src_grid = std::min<std::int64_t>(ceil_div(src_n, tuning::threads),
                                                       std::int64_t(sms) * tuning::histogram_blocks_per_sm);
  for (int shift : later_shifts<U>()) {
    histogram_kernel<U><<<unsigned(src_grid), tuning::threads, 0, stream>>>(src, src_n, kind, largest, shift, state, hist);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    pick_digit_kernel<U><<<1, 256, 0, stream>>>(state, hist, shift);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }

  // The final stable compaction: over the candidates for keys alone (they hold every chosen
  // key, in input order); over all n when values travel with them.
  if (values) {
    src = in;
    src_n = n;
  }
  const std::int64_t src_tiles = ceil_div(src_n, tuning::tile);
  count_kernel<U><<<unsigned(src_tiles), tuning::threads, 0, stream>>>(src, src_n, kind, largest, state, tile_counts);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  // The tile counts' exclusive scan, in place, by the library's single-pass scan (it was one
  // block looping over rounds of 1024 counts: 64 rounds at 2^28 pairs).
  scan_into(ctx, tile_counts, tile_counts, src_tiles, detail::scan_kind::exclusive, counts{0, 0},
            detail::identity_map{}, counts_plus{}, scan_scratch, who);
  place_kernel<U, W><<<unsigned(src_tiles), tuning::threads, 0, stream>>>(src, values, src_n, kind, largest, state,
                                                                          tile_counts, out, out_values);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

#define PARPRIM_INSTANTIATE(U, W)                                                             \
  template void top_k<U, W>(const context&, const U*, const W*, std::int64_t, std::int64_t, U*, \
                            W*, detail::key_kind, bool, workspace*);
PARPRIM_INSTANTIATE(std::uint32_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint32_t, std::uint64_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t, std::uint64_t)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
