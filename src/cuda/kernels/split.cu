// Split into F buckets (stable): the course's lock-free split on the GPU.
//
//   1. count    one block per tile counts its elements per bucket in shared memory and
//               writes the counts bucket-major: table[bucket * tiles + tile]
//   2. scan     exclusive scan of the table (the library's parprim::exclusive_scan): entry
//               (bucket, tile) becomes where that tile writes its first element of that bucket
//   3. scatter  up to 256 buckets, the ranked scatter: the Onesweep pass kernel's ranking
//               (radix_sort_pass.cuh) with the bucket as the digit. Each warp counts its
//               elements per bucket, the counts give every warp its first position per bucket
//               in the tile, the lanes of a bucket find each other by ballots and take
//               consecutive positions; the tile, staged in shared memory in bucket order,
//               leaves in runs of consecutive addresses. More buckets: each block walks its
//               tile in input order, 256 elements per round; inside a warp, lanes with the
//               same bucket find each other (match_any) and take consecutive positions; the
//               warps of a round take their turns in warp order, one barrier each.
// The general scatter's tiles hold at least 8 elements per bucket, so the table stays below
// n / 8 entries. H100, 256 buckets of 2^28 u32: 7.65 ms with the general scatter, 1.82 ms
// with the ranked one (0.91x CUB's radix sort of the same byte; 1.05x at 2^24;
// bench/results/2026-11-25-h100-split.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/partition_functors.hpp"
#include "cuda/kernels/radix_sort_pass.cuh"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/partition_backend.hpp"
#include "cuda/tuning/split_tuning.hpp"
#include "parprim/scan.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::split_tuning;
constexpr unsigned full_mask = 0xffffffffu;

template <class T>
struct split_args {
  const T* in;
  T* out;
  std::int64_t n;
  detail::bucket_eval f;
  int tile_size;   // a multiple of tuning::threads
  unsigned tiles;
  long long* table;  // [buckets][tiles]
};

// ---- 1. Count ------------------------------------------------------------------------------
// In rounds of threads x count_items elements: the round's loads first, in flight together,
// then one shared atomic per element.
template <class T>
__global__ void __launch_bounds__(tuning::threads) split_count(split_args<T> a) {
  constexpr int items = tuning::count_items, round = tuning::threads * items;
  extern __shared__ unsigned s_count[];  // [buckets]
  const int buckets = int(a.f.buckets);
  for (int b = threadIdx.x; b < buckets; b += tuning::threads) s_count[b] = 0;
  __syncthreads();
  const std::int64_t begin = std::int64_t(blockIdx.x) * a.tile_size;
  const int count = int(min(std::int64_t(a.tile_size), a.n - begin));
  for (int first = threadIdx.x; first < count; first += round) {
    T x[items];
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (first + k * tuning::threads < count) x[k] = a.in[begin + first + k * tuning::threads];
#pragma unroll
    for (int k = 0; k < items; ++k)
      if (first + k * tuning::threads < count) atomicAdd(&s_count[a.f(x[k])], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < buckets; b += tuning::threads)
    a.table[std::int64_t(b) * a.tiles + blockIdx.x] = s_count[b];
}

// ---- 3. Scatter, more buckets ------------------------------------------------------------
template <class T>
__global__ void __launch_bounds__(tuning::threads) split_scatter(split_args<T> a) {
  extern __shared__ long long s_next[];  // [buckets]: next write position of each bucket
  constexpr int warps = tuning::threads / 32;
  const int buckets = int(a.f.buckets);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int b = threadIdx.x; b < buckets; b += tuning::threads)
    s_next[b] = a.table[std::int64_t(b) * a.tiles + blockIdx.x];
  __syncthreads();
  const std::int64_t begin = std::int64_t(blockIdx.x) * a.tile_size;
  const int count = int(min(std::int64_t(a.tile_size), a.n - begin));
  const unsigned lanes_below = (1u << lane) - 1u;
  for (int round = 0; round < count; round += tuning::threads) {
    const int i = round + threadIdx.x;
    const bool valid = i < count;
    T x{};
    unsigned bucket = 0xffffffffu;  // past the end: a group of its own, never written
    if (valid) {
      x = a.in[begin + i];
      bucket = a.f(x);
    }
    const unsigned peers = __match_any_sync(full_mask, bucket);
    const int leader = 31 - __clz(peers);
    long long position = 0;
    for (int w = 0; w < warps; ++w) {
      if (warp == w) {  // warp-uniform
        if (valid) position = s_next[bucket] + __popc(peers & lanes_below);
        __syncwarp();  // every group member has read s_next[bucket] before it moves
        if (valid && lane == leader) s_next[bucket] += __popc(peers);
      }
      __syncthreads();  // the next warp sees this warp's updates
    }
    if (valid) a.out[position] = x;
  }
}

// ---- 3. Scatter, up to 256 buckets ---------------------------------------------------------
// Item k of lane l of warp w is tile element w * 32 * Items + k * 32 + l: coalesced loads, and
// ranking items in k order, lanes in lane order, visits each warp's elements in input order.
// The last tile is padded with the last bucket: padding comes after every real element of it,
// so it takes the tile positions past the real elements and is never written.
template <class T, int Items>
__global__ void __launch_bounds__(tuning::ranked_threads) split_ranked_scatter(split_args<T> a) {
  using namespace onesweep;
  constexpr int threads = tuning::ranked_threads, warps = threads / 32, tile = threads * Items;
  static_assert(threads >= radix, "one thread per bucket");
  // Per warp and bucket the count, then the next position; once ranked, the tile in bucket order.
  constexpr int counter_bytes = warps * radix * int(sizeof(unsigned));
  constexpr int tile_bytes = tile * int(sizeof(T));
  __shared__ __align__(16)
      unsigned char s_shared[counter_bytes > tile_bytes ? counter_bytes : tile_bytes];
  unsigned* const s_counters = reinterpret_cast<unsigned*>(s_shared);
  T* const s_tile = reinterpret_cast<T*>(s_shared);
  __shared__ unsigned char s_bucket[tile];
  __shared__ long long s_to_global[radix];  // per bucket: global position - tile position
  __shared__ unsigned s_warp_totals[warps];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int b = tid;  // the bucket this thread keeps track of
  const long long first_global =
      b < int(a.f.buckets) ? a.table[std::int64_t(b) * a.tiles + blockIdx.x] : 0;
  for (int i = tid; i < warps * radix; i += threads) s_counters[i] = 0;

  const std::int64_t begin = std::int64_t(blockIdx.x) * tile;
  const int count = int(min(std::int64_t(tile), a.n - begin));
  const int warp_first = warp * 32 * Items;
  const unsigned pad = unsigned(a.f.buckets - 1);
  T x[Items];
  unsigned bucket[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    const int i = warp_first + k * 32 + lane;
    x[k] = i < count ? a.in[begin + i] : T{};
    bucket[k] = i < count ? a.f(x[k]) : pad;
  }
  __syncthreads();  // counters cleared
  auto same = [](unsigned b) { return b; };
  unsigned* warp_counters = s_counters + warp * radix;
  count_digits(bucket, same, warp_counters);
  __syncthreads();

  // Thread b: bucket b's count in the tile, where it starts there, and each warp's first
  // position of it; the table entry, read early, gives where the tile's first element of b goes.
  unsigned bucket_count = 0;
  if (b < radix)
    for (int w = 0; w < warps; ++w) bucket_count += s_counters[w * radix + b];
  const unsigned tile_start = block_exclusive_sum(bucket_count, s_warp_totals);
  if (b < radix) {
    warp_digit_starts<warps>(s_counters, b, tile_start);
    s_to_global[b] = first_global - tile_start;
  }
  __syncthreads();
  unsigned rank[Items];
  rank_from_counts(bucket, same, warp_counters, lane, rank);
  __syncthreads();  // every warp has ranked: the counters' space takes the tile
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    s_tile[rank[k]] = x[k];
    s_bucket[rank[k]] = static_cast<unsigned char>(bucket[k]);
  }
  __syncthreads();
  for (int i = tid; i < count; i += threads) a.out[s_to_global[s_bucket[i]] + i] = s_tile[i];
}

__global__ void split_bucket_offsets(const long long* table, unsigned tiles, int buckets,
                                     std::int64_t n, std::int64_t* offsets) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < buckets) offsets[b] = table[std::int64_t(b) * tiles];
  else if (b == buckets) offsets[b] = n;
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void split(const context& ctx, span<const T> in, span<T> out, const detail::bucket_eval& f,
           std::int64_t* bucket_offsets, workspace* ws) {
  using namespace cuda_kernels;
  const char* who = "split";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t n = in.size();
  const int buckets = int(f.buckets);
  // Ranked: its own tile. General: at least min_tile elements and 8 per bucket, in whole
  // rounds of `threads`.
  const bool ranked = buckets <= tuning::ranked_max_buckets;
  constexpr int ranked_items = sizeof(T) == 8 ? tuning::ranked_items_8byte : tuning::ranked_items;
  const std::int64_t wanted = std::max<std::int64_t>(tuning::min_tile,
                                                     std::int64_t(tuning::elements_per_bucket) * buckets);
  const int tile_size = ranked ? tuning::ranked_threads * ranked_items
                               : int(ceil_div(wanted, tuning::threads) * tuning::threads);
  const std::int64_t tiles = ceil_div(n, tile_size);
  const std::int64_t entries = std::int64_t(buckets) * tiles;
  detail::temp_memory temp(ctx, ws, std::size_t(entries) * sizeof(long long));

  split_args<T> a{};
  a.in = in.data();
  a.out = out.data();
  a.n = n;
  a.f = f;
  a.tile_size = tile_size;
  a.tiles = unsigned(tiles);
  a.table = temp.as<long long>();

  split_count<T><<<unsigned(tiles), tuning::threads, buckets * sizeof(unsigned), stream>>>(a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  span<std::int64_t> table(reinterpret_cast<std::int64_t*>(a.table), entries);
  exclusive_scan<std::int64_t>(ctx, table, table);  // in place
  if (ranked)
    split_ranked_scatter<T, ranked_items><<<unsigned(tiles), tuning::ranked_threads, 0, stream>>>(a);
  else
    split_scatter<T><<<unsigned(tiles), tuning::threads, buckets * sizeof(long long), stream>>>(a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  if (bucket_offsets) {
    split_bucket_offsets<<<unsigned(ceil_div(buckets + 1, 256)), 256, 0, stream>>>(
        a.table, a.tiles, buckets, n, bucket_offsets);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  }
}

#define PARPRIM_INSTANTIATE(T)                                                             \
  template void split<T>(const context&, span<const T>, span<T>, const detail::bucket_eval&, \
                         std::int64_t*, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
