// Split into F buckets (stable): the course's lock-free split on the GPU.
//
//   1. count    one block per tile counts its elements per bucket in shared memory and
//               writes the counts bucket-major: table[bucket * tiles + tile]
//   2. scan     exclusive scan of the table (the library's parprim::exclusive_scan): entry
//               (bucket, tile) becomes where that tile writes its first element of that bucket
//   3. scatter  each block walks its tile again in input order, 256 elements per round.
//               Inside a warp, lanes with the same bucket find each other (match_any) and
//               take consecutive positions; the warps of a round take their turns in warp
//               order, so positions follow input order across the whole tile
// Tiles hold at least 8 elements per bucket, so the table stays below n / 8 entries. This is
// the general algorithm for any F up to 4096; radix sort's Onesweep pass is the fast special
// case for 256 buckets taken from key bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/partition_functors.hpp"
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
template <class T>
__global__ void __launch_bounds__(tuning::threads) split_count(split_args<T> a) {
  extern __shared__ unsigned s_count[];  // [buckets]
  const int buckets = int(a.f.buckets);
  for (int b = threadIdx.x; b < buckets; b += tuning::threads) s_count[b] = 0;
  __syncthreads();
  const std::int64_t begin = std::int64_t(blockIdx.x) * a.tile_size;
  const int count = int(min(std::int64_t(a.tile_size), a.n - begin));
  for (int i = threadIdx.x; i < count; i += tuning::threads)
    atomicAdd(&s_count[a.f(a.in[begin + i])], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < buckets; b += tuning::threads)
    a.table[std::int64_t(b) * a.tiles + blockIdx.x] = s_count[b];
}

// ---- 3. Scatter ----------------------------------------------------------------------------
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
  // At least min_tile elements and 8 per bucket, in whole rounds of `threads`.
  const std::int64_t wanted = std::max<std::int64_t>(tuning::min_tile,
                                                     std::int64_t(tuning::elements_per_bucket) * buckets);
  const int tile_size = int(ceil_div(wanted, tuning::threads) * tuning::threads);
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
