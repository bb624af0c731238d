// CUDA segmented top-k. For k <= 32 and segments of 256 or more elements on average, blocks over
// equal chunks of the keys keep each warp's best candidates in registers (segmented_top_k.cuh).
// For larger k and segments of 2^22 or more on average, top_k's radix select on each in turn.
// top_k itself comes here for small inputs: k <= 32 by the chunked select over one segment,
// larger k on one tile by an argsort.
// Otherwise by composition: a stable segmented sort of (key, position) puts each segment's
// chosen elements first (ties by position, as the contract asks); a slice keeps the first
// min(k, length) positions of every segment in slots s*k ...; for input order those positions
// are sorted per segment; a gather writes keys and values.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "parprim/cuda/detail/check.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/segmented_sort.hpp"
#include "parprim/sort.hpp"
#include "cuda/kernels/segmented_top_k.cuh"
#include "cuda/kernels/segmented_top_k_tiles.cuh"
#include "cuda/top_k_backend.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels::segmented_top_k {

constexpr int threads = 256;
constexpr std::int64_t max_blocks = std::int64_t(1) << 20;  // grid-stride beyond
// The chunked select from this many elements per segment on average: a block takes a chunk's
// segments one at a time, and shorter ones would leave most of its 8 warps without a batch (the
// composition ranks short segments by warps).
constexpr std::int64_t select_min_mean_length = 256;
// One chunk per resident block, of at least this many elements (8 batches per warp): smaller
// chunks would add lists for pass 2 to merge without adding blocks that run at once.
constexpr std::int64_t select_min_chunk = 2048;
// k above select_max_k and segments of at least this many elements on average: each segment
// by top_k's radix select (a few passes over the segment, then a sort of its k) instead of the
// segmented sort of every (key, position) pair. A segment costs top_k's fixed ~0.13 ms (a
// dozen launches, one wait for a count on the host) plus ~0.01 ms per 2^20 elements; the sort
// ~0.055 ms per 2^20 elements. H100, f32, sorted, S segments of 2^22 / 2^20, k = 64 and 1024
// alike (bench/results/2026-11-25-h100-segmented-top-k-each.md): S = 1 0.17 against 0.29 ms,
// S = 16 2.3 against 3.7 ms; at 2^20 S = 1 0.14 against 0.16 ms but S = 16 2.2 against 1.5.
// Whatever the lengths, a mean of 2^22 bounds the fixed costs to about 60% of the sort's.
// (Measured while top_k still waited on the host at every size; it no longer does up to 16
// MiB of keys, which only lowers the fixed cost.)
constexpr std::int64_t select_each_min_mean_length = std::int64_t(1) << 22;
// The tiles' select from this k and for segments of these lengths on average; otherwise the
// warp lists. H100, f32, both kernels forced on the same inputs
// (bench/results/2026-11-25-h100-segmented-top-k-tiles.md): segments of 4096 at 2^28, k = 1 /
// 4 / 8 / 16 / 32: lists 1.14 / 1.73 / 2.21 / 2.93 / 3.81 ms, tiles 1.46 / 1.47 / 1.49 / 1.50 /
// 1.55; half the keys in one segment and segments of 4096 (a mean of 8K) alike (k >= 4: 1.13x
// to 2.06x). The tiles lost at k = 1 in every layout (0.73-0.91x), on segments of 256 at every
// k (0.38-0.95x: a segment's barriers outweigh its reads), and on one segment of random keys
// at 2^28 (0.73-0.75x: each block walks a part of 2^19 keys, where the lists' few insertions
// cost less than a tile's barriers); at 2^24 (parts of 2^15) they won only from k = 16
// (1.03-1.14x). Between 256 and 4096 and between 2^14 and 2^15 nothing was measured.
constexpr int tiles_min_k = 4;
constexpr std::int64_t tiles_min_mean_length = 4096;
constexpr std::int64_t tiles_max_mean_length = std::int64_t(1) << 14;
// top_k with k <= 32 on at most this many elements: the chunked select over one segment (two
// launches) instead of the radix select (a dozen launches and then a wait on the host:
// ~0.095 ms from 2^10 to 2^18 on the H100; ~0.07 ms since it stopped waiting below 16 MiB,
// 2026-11-25-h100-top-k-no-wait.md). Chunked, random f32 keys: 0.028-0.060 ms there; keys in
// ascending order with the largest asked (every key enters the lists): 0.029-0.076 ms. At
// 2^20 ascending keys with k = 8 take 0.162 against 0.111 ms (random 0.077)
// (bench/results/2026-11-25-h100-top-k-chunked.md).
constexpr std::int64_t chunked_top_k_max_n = std::int64_t(1) << 18;
// top_k with larger k on at most this many elements, radix_sort's one-block size
// (radix_sort_small.cuh): an argsort, then the first k positions (sorted again for input
// order), then a gather; three launches against the radix select's ten or so (~0.07 ms).
constexpr std::int64_t argsort_top_k_max_n = 4096;

// The offsets {0, n} of top_k's one segment.
__global__ void one_segment_kernel(std::int64_t* offsets, std::int64_t n) {
  offsets[0] = 0;
  offsets[1] = n;
}

template <class P>
__global__ void __launch_bounds__(threads)
    positions_kernel(P* positions, std::int64_t first, std::int64_t last) {
  for (std::int64_t i = first + std::int64_t(blockIdx.x) * threads + threadIdx.x; i < last;
       i += std::int64_t(gridDim.x) * threads)
    positions[i] = P(i);
}

// Slot i = s*k + j: the segment's j-th position in sorted order when j < min(k, length), else
// 0 (never read back); and the offsets of the slots in use, [s*k, s*k + m) per segment, with
// the unused tail of each as a segment of its own.
template <class P>
__global__ void __launch_bounds__(threads)
    slice_kernel(const P* sorted_positions, const std::int64_t* offsets, std::int64_t segments,
                 std::int64_t k, P* chosen, std::int64_t* chosen_offsets) {
  const std::int64_t slots = segments * k;
  for (std::int64_t i = std::int64_t(blockIdx.x) * threads + threadIdx.x; i < slots;
       i += std::int64_t(gridDim.x) * threads) {
    const std::int64_t s = i / k, j = i - s * k;
    const std::int64_t begin = offsets[s], length = offsets[s + 1] - begin;
    const std::int64_t m = length < k ? length : k;
    chosen[i] = j < m ? sorted_positions[begin + j] : P(0);
    if (j == 0) {
      chosen_offsets[2 * s] = s * k;
      chosen_offsets[2 * s + 1] = s * k + m;
    }
    if (i == 0) chosen_offsets[2 * segments] = slots;
  }
}

// top_k's chosen elements from the first k positions of its argsort.
template <class K, class W, class P>
__global__ void __launch_bounds__(threads)
    gather_first_kernel(const K* in, const W* values, const P* positions, std::int64_t k, K* out,
                        W* out_values) {
  for (std::int64_t j = std::int64_t(blockIdx.x) * threads + threadIdx.x; j < k;
       j += std::int64_t(gridDim.x) * threads) {
    out[j] = in[positions[j]];
    if (out_values) out_values[j] = values[positions[j]];
  }
}

template <class K, class W, class P>
__global__ void __launch_bounds__(threads)
    gather_kernel(const K* in, const W* values, const std::int64_t* offsets,
                  std::int64_t segments, std::int64_t k, const P* chosen, K* out, W* out_values) {
  const std::int64_t slots = segments * k;
  for (std::int64_t i = std::int64_t(blockIdx.x) * threads + threadIdx.x; i < slots;
       i += std::int64_t(gridDim.x) * threads) {
    const std::int64_t s = i / k, j = i - s * k;
    if (j >= offsets[s + 1] - offsets[s]) continue;
    const P p = chosen[i];
    out[i] = in[p];
    if (out_values) out_values[i] = values[p];
  }
}

inline unsigned grid_for(std::int64_t n) {
  return unsigned(std::max<std::int64_t>(1, std::min(ceil_div(n, threads), max_blocks)));
}

// Whether the tiles' select (segmented_top_k_tiles.cuh) takes k and segments of `mean`
// elements on average, rather than the warp lists (segmented_top_k.cuh).
inline bool select_by_tiles(int k, std::int64_t mean) {
  return k >= tiles_min_k && mean >= tiles_min_mean_length && mean <= tiles_max_mean_length;
}

// The two passes of segmented_top_k.cuh (or of segmented_top_k_tiles.cuh, same launch shape,
// where select_by_tiles says so and `tiles_allowed`): the keys in one chunk per resident block,
// then the segments longer than a chunk merged from their parts' lists (none when one chunk
// holds all).
template <class K, class W>
void select_by_chunks(const context& ctx, const K* in, const W* values, const std::int64_t* offsets,
                      std::int64_t segments, std::int64_t first, std::int64_t last, int k, K* out,
                      W* out_values, bool largest, bool sorted, bool tiles_allowed, workspace* ws,
                      const char* who) {
  using U = detail::key_word_t<K>;
  cudaStream_t stream = stream_of(ctx);
  const bool by_tiles =
      tiles_allowed && select_by_tiles(k, (last - first) / std::max<std::int64_t>(segments, 1));
  const auto first_pass = by_tiles ? tiles::select_chunks_kernel<K, W> : select_chunks_kernel<K, W>;
  const auto second_pass = by_tiles ? tiles::merge_partials_kernel<K, W> : merge_partials_kernel<K, W>;
  int per_sm = 0;  // on the H100: 5 for the warp lists (48 registers a thread), 4 for the tiles (64)
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, first_pass, select_threads, 0));
  const std::int64_t resident = std::int64_t(ctx.multiprocessors()) * std::max(per_sm, 1);
  const std::int64_t min_chunk = by_tiles ? tiles::tile_elements<std::uint32_t> : select_min_chunk;
  const std::int64_t chunk = std::max(min_chunk, ceil_div(last - first, resident));
  const std::int64_t chunks = ceil_div(last - first, chunk);
  const std::int64_t slots = 2 * chunks;
  const std::size_t list_entries = std::size_t(slots) * select_max_k;
  detail::temp_memory lists(ctx, ws, list_entries * (sizeof(std::int64_t) + sizeof(U)) + std::size_t(slots) * sizeof(int));
  std::int64_t* positions = lists.as<std::int64_t>();
  U* scores = reinterpret_cast<U*>(positions + list_entries);
  const partial_lists<U> partial{scores, positions, reinterpret_cast<int*>(scores + list_entries)};
  first_pass<<<unsigned(chunks), select_threads, 0, stream>>>(
      in, values, offsets, segments, first, last, chunk, k, largest, sorted, out, out_values, partial);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  if (chunks == 1) return;
  second_pass<<<unsigned(std::min(segments, resident)), select_threads, 0, stream>>>(
      in, values, offsets, segments, first, chunk, k, sorted, out, out_values, partial);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

// Long segments, each by top_k (the radix select of top_k.cu): its min(k, length) chosen
// elements in input order at out + s k, then, for sorted output, a stable radix sort of them
// (ties stay in input order, as the contract asks). A segment no longer than k is copied whole.
template <class K, class W>
void select_each_segment(const context& ctx, const K* in, const W* values, const std::int64_t* offsets,
                         std::int64_t segments, std::int64_t k, K* out, W* out_values, bool largest,
                         bool sorted, workspace* ws) {
  using U = detail::key_word_t<K>;
  const char* who = "segmented_top_k";
  cudaStream_t stream = stream_of(ctx);
  std::vector<std::int64_t> bounds(std::size_t(segments) + 1);
  ctx.copy_to_host(bounds.data(), offsets, bounds.size() * sizeof(std::int64_t));
  const sort_order order = largest ? sort_order::descending : sort_order::ascending;
  for (std::int64_t s = 0; s < segments; ++s) {
    const std::int64_t begin = bounds[s], length = bounds[s + 1] - begin;
    const std::int64_t m = std::min(k, length);
    if (m == 0) continue;
    K* keys_out = out + s * k;
    W* values_out = out_values ? out_values + s * k : nullptr;
    if (m == length) {
      PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemcpyAsync(keys_out, in + begin, std::size_t(m) * sizeof(K),
                                                          cudaMemcpyDeviceToDevice, stream));
      if (values_out)
        PARPRIM_CUDA_CHECK(ctx.name(), who, cudaMemcpyAsync(values_out, values + begin, std::size_t(m) * sizeof(W),
                                                            cudaMemcpyDeviceToDevice, stream));
    } else {
      cuda_backend::top_k<U, W>(ctx, reinterpret_cast<const U*>(in + begin), values ? values + begin : nullptr,
                                length, m, reinterpret_cast<U*>(keys_out), values_out, detail::kind_of<K>(),
                                largest, ws);
    }
    if (!sorted) continue;
    if (values_out)
      radix_sort_pairs<K, W>(ctx, span<K>(keys_out, m), span<W>(values_out, m), order, 0, -1,
                             sort_algorithm::onesweep, ws);
    else
      radix_sort<K>(ctx, span<K>(keys_out, m), order, 0, -1, sort_algorithm::onesweep, ws);
  }
}

}  // namespace parprim::cuda_kernels::segmented_top_k

namespace parprim::cuda_backend {

template <class K, class W>
void segmented_top_k(const context& ctx, const K* in, const W* values,
                     const std::int64_t* offsets, std::int64_t segments, std::int64_t first,
                     std::int64_t last, std::int64_t k, K* out, W* out_values, bool largest,
                     bool sorted, workspace* ws) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::segmented_top_k;
  using P = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;
  const char* who = "segmented_top_k";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  if (k <= select_max_k && segments > 0 && last - first >= select_min_mean_length * segments) {
    select_by_chunks(ctx, in, values, offsets, segments, first, last, int(k), out, out_values, largest,
                     sorted, true, ws, who);
    return;
  }
  if (k > select_max_k && last - first >= select_each_min_mean_length * segments) {
    select_each_segment(ctx, in, values, offsets, segments, k, out, out_values, largest, sorted, ws);
    return;
  }
  // Keys and positions at their own indices, so the caller's offsets apply unchanged. The
  // sorts below lease their temporaries from the workspace above these.
  detail::temp_memory keys(ctx, ws, std::size_t(last) * sizeof(K));
  detail::temp_memory positions(ctx, ws, std::size_t(last) * sizeof(P));
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaMemcpyAsync(keys.as<K>() + first, in + first, std::size_t(last - first) * sizeof(K),
                                     cudaMemcpyDeviceToDevice, stream));
  positions_kernel<P><<<grid_for(last - first), threads, 0, stream>>>(positions.as<P>(), first, last);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  const span<const std::int64_t> offs(offsets, segments + 1);
  const sort_order order = largest ? sort_order::descending : sort_order::ascending;
  segmented_sort_pairs<K, P>(ctx, span<K>(keys.as<K>(), last), span<P>(positions.as<P>(), last), offs,
                             order, ws);

  const std::int64_t slots = segments * k;
  detail::temp_memory chosen(ctx, ws, std::size_t(slots) * sizeof(P));
  detail::temp_memory chosen_offsets(ctx, ws, std::size_t(2 * segments + 1) * sizeof(std::int64_t));
  slice_kernel<P><<<grid_for(slots), threads, 0, stream>>>(positions.as<P>(), offsets, segments, k,
                                                           chosen.as<P>(), chosen_offsets.as<std::int64_t>());
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  if (!sorted)
    segmented_sort<P>(ctx, span<P>(chosen.as<P>(), slots),
                      span<const std::int64_t>(chosen_offsets.as<std::int64_t>(), 2 * segments + 1),
                      sort_order::ascending, ws);
  gather_kernel<K, W, P><<<grid_for(slots), threads, 0, stream>>>(in, values, offsets, segments, k,
                                                                  chosen.as<P>(), out, out_values);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

template <class K, class W>
bool top_k_by_chunks(const context& ctx, const K* in, const W* values, std::int64_t n, std::int64_t k,
                     K* out, W* out_values, bool largest, bool sorted, workspace* ws) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::segmented_top_k;
  if (k > select_max_k || n > chunked_top_k_max_n) return false;
  const char* who = "top_k";
  use_device(ctx, who);
  detail::temp_memory offsets(ctx, ws, 2 * sizeof(std::int64_t));
  one_segment_kernel<<<1, 1, 0, stream_of(ctx)>>>(offsets.as<std::int64_t>(), n);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  // The warp lists only: top_k's small inputs were timed on them (chunked_top_k_max_n), the
  // tiles not.
  select_by_chunks(ctx, in, values, offsets.as<std::int64_t>(), 1, 0, n, int(k), out, out_values, largest, sorted,
                   false, ws, who);
  return true;
}

template <class K, class W>
bool top_k_by_argsort(const context& ctx, const K* in, const W* values, std::int64_t n, std::int64_t k,
                      K* out, W* out_values, bool largest, bool sorted, workspace* ws) {
  using namespace cuda_kernels;
  using namespace cuda_kernels::segmented_top_k;
  using P = std::uint32_t;
  if (n > argsort_top_k_max_n) return false;
  const char* who = "top_k";
  use_device(ctx, who);
  // Stable, so equal keys keep their input order: ties go to the earliest positions.
  detail::temp_memory positions(ctx, ws, std::size_t(n) * sizeof(P));
  argsort<K, P>(ctx, span<const K>(in, n), span<P>(positions.as<P>(), n),
                largest ? sort_order::descending : sort_order::ascending, 0, -1, ws);
  if (!sorted)  // input order: the chosen positions sorted
    radix_sort<P>(ctx, span<P>(positions.as<P>(), k), sort_order::ascending, 0, -1,
                  sort_algorithm::onesweep, ws);
  gather_first_kernel<K, W, P><<<grid_for(k), threads, 0, stream_of(ctx)>>>(
      in, values, positions.as<P>(), k, out, out_values);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  return true;
}

#define PARPRIM_INSTANTIATE_W(K, W)                                                            \
  template bool top_k_by_argsort<K, W>(const context&, const K*, const W*, std::int64_t,        \
                                       std::int64_t, K*, W*, bool, bool, workspace*);           \
  template bool top_k_by_chunks<K, W>(const context&, const K*, const W*, std::int64_t,         \
                                      std::int64_t, K*, W*, bool, bool, workspace*);            \
  template void segmented_top_k<K, W>(const context&, const K*, const W*, const std::int64_t*, \
                                      std::int64_t, std::int64_t, std::int64_t, std::int64_t,   \
                                      K*, W*, bool, bool, workspace*);
#define PARPRIM_INSTANTIATE(K)                 \
  PARPRIM_INSTANTIATE_W(K, std::uint32_t)      \
  PARPRIM_INSTANTIATE_W(K, std::uint64_t)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_W

}  // namespace parprim::cuda_backend
