// CUDA dispatch of the segmented sort (kernel bodies in segmented_sort.cuh): one kernel sorts
// the warp-sized segments and lists the others, one block per medium or big segment, and the
// Onesweep radix sort for each large segment. Only the three class counts and the list of
// large segments (at most n / big_tile of them) come back to the host.
#include <algorithm>
#include <vector>

#include "cuda/kernels/segmented_sort.cuh"
#include "cuda/segmented_sort_backend.hpp"
#include "cuda/sort_backend.hpp"
#include "parprim/cuda/detail/check.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/detail/temp_memory.hpp"

namespace parprim::cuda_backend {

namespace {

// One block per listed segment of at most Tile keys, in dynamic shared memory whose limit is
// raised to what the tile needs (above the default 48 KiB for the big tile).
template <class U, int Threads, int Tile>
void sort_listed_segments(const context& ctx, const detail::sort_request& r,
                          const std::int64_t* offsets, const std::int64_t* listed,
                          unsigned long long count) {
  using namespace cuda_kernels::segmented_sort;
  const char* who = "segmented_sort";
  if (count == 0) return;
  auto kernel = block_sort_kernel<U, Threads, Tile>;
  const int shared_bytes = block_sort_shared_bytes<U>(Tile);
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          shared_bytes));
  kernel<<<unsigned(count), Threads, shared_bytes, cuda_kernels::stream_of(ctx)>>>(
      static_cast<U*>(r.keys), static_cast<U*>(r.values), offsets, listed, r.kind, r.descending);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// Sorts the warp-sized segments and the medium ones; returns the large ones for the caller.
template <class U>
std::vector<std::int64_t> sort_small_segments(const context& ctx, const detail::sort_request& r,
                                              const std::int64_t* offsets,
                                              std::int64_t segments, workspace* ws) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::segmented_sort;
  const char* who = "segmented_sort";
  cudaStream_t stream = stream_of(ctx);
  U* keys = static_cast<U*>(r.keys);
  U* values = static_cast<U*>(r.values);
  // Bounds on the list lengths: a medium segment has more than warp_segment keys, a big one
  // more than block_tile, a large one more than big_tile.
  const std::int64_t max_medium = std::min(segments, r.n / (tuning::warp_segment + 1) + 1);
  const std::int64_t max_big = std::min(segments, r.n / (tuning::block_tile + 1) + 1);
  const std::int64_t max_large = std::min(segments, r.n / (tuning::big_tile + 1) + 1);
  const std::size_t counts_bytes = detail::align_up(3 * sizeof(unsigned long long));
  const std::size_t medium_bytes = detail::align_up(std::size_t(max_medium) * sizeof(std::int64_t));
  const std::size_t big_bytes = detail::align_up(std::size_t(max_big) * sizeof(std::int64_t));
  const std::size_t large_bytes = std::size_t(max_large) * 2 * sizeof(std::int64_t);
  detail::temp_memory temp(ctx, ws, counts_bytes + medium_bytes + big_bytes + large_bytes);
  auto* base = temp.as<unsigned char>();
  segment_lists lists;
  lists.counts = reinterpret_cast<unsigned long long*>(base);
  lists.medium = reinterpret_cast<std::int64_t*>(base + counts_bytes);
  lists.big = reinterpret_cast<std::int64_t*>(base + counts_bytes + medium_bytes);
  lists.large = reinterpret_cast<std::int64_t*>(base + counts_bytes + medium_bytes + big_bytes);
  PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemsetAsync(lists.counts, 0, counts_bytes, stream));

  const std::int64_t warps_per_block = tuning::classify_threads / 32;
  warp_sort_kernel<U><<<unsigned(ceil_div(segments, warps_per_block)), tuning::classify_threads,
                        0, stream>>>(keys, values, offsets, segments, r.kind, r.descending,
                                     lists);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  unsigned long long counts[3];
  ctx.copy_to_host(counts, lists.counts, sizeof(counts));
  sort_listed_segments<U, tuning::block_threads, tuning::block_tile>(ctx, r, offsets, lists.medium,
                                                                     counts[0]);
  sort_listed_segments<U, tuning::big_threads, tuning::big_tile>(ctx, r, offsets, lists.big,
                                                                 counts[1]);
  std::vector<std::int64_t> large(2 * std::size_t(counts[2]));
  if (counts[2] > 0) ctx.copy_to_host(large.data(), lists.large, large.size() * sizeof(std::int64_t));
  return large;
}

template <class U>
void sort_segments(const context& ctx, const detail::sort_request& r, const std::int64_t* offsets,
                   std::int64_t segments, workspace* ws) {
  const std::vector<std::int64_t> large = sort_small_segments<U>(ctx, r, offsets, segments, ws);
  // Each large segment is one stream-ordered radix sort over its sub-span: the whole device
  // works on it, so one huge segment never sits on a single block.
  for (std::size_t i = 0; i < large.size(); i += 2) {
    detail::sort_request part = r;
    part.keys = static_cast<U*>(r.keys) + large[i];
    part.values = r.values ? static_cast<void*>(static_cast<U*>(r.values) + large[i]) : nullptr;
    part.n = large[i + 1];
    radix_sort_onesweep(ctx, part, ws);
  }
}

}  // namespace

void segmented_sort(const context& ctx, const detail::sort_request& r,
                    const std::int64_t* offsets, std::int64_t segments, workspace* ws) {
  cuda_kernels::use_device(ctx, "segmented_sort");
  if (r.key_bytes == 4) return sort_segments<std::uint32_t>(ctx, r, offsets, segments, ws);
  sort_segments<std::uint64_t>(ctx, r, offsets, segments, ws);
}

}  // namespace parprim::cuda_backend
