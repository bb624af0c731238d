// Stream compaction (copy_if) and stable partition: a single-pass kernel with decoupled
// look-back (Merrill & Garland, NVR-2016-002) applied to selection counts.
//
// Per tile (threads x items elements):
//   load      item k of thread t is element k * threads + t (coalesced)
//   rank      one ballot per item gives each warp's selected lanes; a scan of the (item,
//             warp) counts in element order gives every selected element its tile-local rank
//   publish   the tile's selected count (aggregate), so successors can look past it at once
//   stage     selected elements packed into shared memory in input order
//   look-back one warp sums the counts of the predecessor tiles, 32 at a time, back to the
//             nearest tile with an inclusive prefix; then publishes its own inclusive prefix
//   write     the packed run goes to out[prefix ...] with consecutive threads on consecutive
//             addresses
// Partition is two such passes: the selected elements, then (negated predicate) the rejected
// ones written after them, at an offset the first pass leaves in device memory. The second
// pass re-reads the input: 4n + 4n + 4n bytes for 4-byte elements against copy_if's 4n plus
// the selected writes. Writing the rejected elements backwards from the end (one pass) would
// reverse their order, and the order is part of the contract.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/partition_functors.hpp"
#include "core/temp_memory.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/partition_backend.hpp"
#include "cuda/tuning/partition_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

constexpr unsigned full_mask = 0xffffffffu;

// Tile status: a 2-bit state over a 62-bit count in one 64-bit word (one relaxed load or
// store is single-copy atomic, so the state is never seen without its count).
constexpr unsigned long long state_shift = 62;
constexpr unsigned long long status_aggregate = 1ull << state_shift;
constexpr unsigned long long status_inclusive = 2ull << state_shift;
constexpr unsigned long long count_bits = (1ull << state_shift) - 1;

__device__ __forceinline__ unsigned long long load_status(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_status(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ long long warp_sum_all(long long v) {
#pragma unroll
  for (int m = 16; m > 0; m >>= 1) v += __shfl_xor_sync(full_mask, v, m);
  return v;
}

// Sum of the counts of tiles [0, tile), by warp 0 (every lane returns it). Lane l inspects
// tile (window - l); the nearest inclusive prefix ends the walk.
__device__ __forceinline__ long long look_back(const unsigned long long* status, long long tile) {
  const int lane = threadIdx.x & 31;
  long long sum = 0;
  for (long long window = tile - 1;; window -= 32) {
    const long long t = window - lane;
    unsigned long long w = status_inclusive;  // before tile 0: an inclusive prefix of 0
    if (t >= 0) {
      do {
        w = load_status(status + t);
      } while ((w >> state_shift) == 0);
    }
    const unsigned inclusive = __ballot_sync(full_mask, (w & ~count_bits) == status_inclusive);
    long long v = static_cast<long long>(w & count_bits);
    if (inclusive) {
      const int nearest = __ffs(inclusive) - 1;  // lowest lane = highest tile index
      if (lane > nearest) v = 0;
      return sum + warp_sum_all(v);
    }
    sum += warp_sum_all(v);
  }
}

template <class T>
struct select_args {
  const T* in;
  std::int64_t n;
  T* out;
  const std::int64_t* out_offset;  // device: added to every write position (or null)
  detail::predicate_eval<T> pred;
  unsigned long long* status;      // [tiles], zeroed
  unsigned* tile_counter;          // zeroed
  std::int64_t* count_out;         // device: the total, written by the last tile (or null)
  unsigned tiles;
};

template <class T>
__global__ void __launch_bounds__(cuda_tuning::select_tuning<sizeof(T)>::threads)
    select_kernel(select_args<T> a) {
  using tuning = cuda_tuning::select_tuning<sizeof(T)>;
  constexpr int threads = tuning::threads, items = tuning::items, tile_size = tuning::tile;
  constexpr int warps = threads / 32, slots = items * warps;
  constexpr int per_lane = (slots + 31) / 32;
  __shared__ unsigned s_tile;
  __shared__ unsigned s_offsets[slots];  // selected count per (item, warp), then its prefix
  __shared__ unsigned s_selected;
  __shared__ long long s_prefix;
  __shared__ T s_stage[tile_size];

  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  // Tiles are numbered in the order blocks start, so every predecessor of a tile is running
  // or done and the look-back never waits on a block that cannot run.
  if (tid == 0) s_tile = atomicAdd(a.tile_counter, 1u);
  __syncthreads();
  const unsigned tile = s_tile;
  const std::int64_t begin = std::int64_t(tile) * tile_size;
  const int count = int(min(std::int64_t(tile_size), a.n - begin));

  // Load and rank phase.
  T x[items];
  unsigned ballots[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int i = k * threads + tid;
    const bool valid = i < count;
    x[k] = valid ? a.in[begin + i] : T();
    ballots[k] = __ballot_sync(full_mask, valid && a.pred(x[k]));
  }
  if (lane == 0) {
#pragma unroll
    for (int k = 0; k < items; ++k) s_offsets[k * warps + warp] = __popc(ballots[k]);
  }
  __syncthreads();

  // Scan phase: exclusive prefix of the (item, warp) counts, which are in element order.
  if (warp == 0) {
    unsigned v[per_lane], sum = 0;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) {
      const int s = lane * per_lane + j;
      v[j] = s < slots ? s_offsets[s] : 0u;
      sum += v[j];
    }
    unsigned inclusive = sum;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned below = __shfl_up_sync(full_mask, inclusive, d);
      if (lane >= d) inclusive += below;
    }
    unsigned running = inclusive - sum;
#pragma unroll
    for (int j = 0; j < per_lane; ++j) {
      const int s = lane * per_lane + j;
      if (s < slots) s_offsets[s] = running;
      running += v[j];
    }
    if (lane == 31) {
      s_selected = inclusive;
      // Publish phase: tile 0's count is already its inclusive prefix.
      store_status(a.status + tile,
                   (tile == 0 ? status_inclusive : status_aggregate) | (unsigned long long)inclusive);
    }
  }
  __syncthreads();
  const unsigned selected = s_selected;

  // Stage phase: selected elements packed in input order.
  const unsigned lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (int k = 0; k < items; ++k)
    if ((ballots[k] >> lane) & 1u)
      s_stage[s_offsets[k * warps + warp] + __popc(ballots[k] & lanes_below)] = x[k];

  // Look-back phase.
  if (warp == 0) {
    const long long prefix = tile == 0 ? 0 : look_back(a.status, tile);
    if (lane == 0) {
      if (tile != 0) store_status(a.status + tile, status_inclusive | (unsigned long long)(prefix + selected));
      if (a.count_out && tile == a.tiles - 1) *a.count_out = prefix + selected;
      s_prefix = prefix;
    }
  }
  __syncthreads();

  // Write phase.
  T* out = a.out + (a.out_offset ? *a.out_offset : 0) + s_prefix;
  for (int j = tid; j < int(selected); j += threads) out[j] = s_stage[j];
}

template <class T>
void launch_select(const context& ctx, cudaStream_t stream, select_args<T> a, const char* who) {
  using tuning = cuda_tuning::select_tuning<sizeof(T)>;
  select_kernel<T><<<a.tiles, tuning::threads, 0, stream>>>(a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void select(const context& ctx, span<const T> in, span<T> out, detail::predicate_eval<T> pred,
            bool partition, std::int64_t* count_device, workspace* ws) {
  using namespace cuda_kernels;
  using tuning = cuda_tuning::select_tuning<sizeof(T)>;
  const char* who = partition ? "partition" : "copy_if";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t tiles = ceil_div(in.size(), tuning::tile);
  // Per pass: tile status words, then the tile counter.
  const std::size_t pass_bytes = detail::align_up(std::size_t(tiles) * 8) + 256;
  const int pass_count = partition ? 2 : 1;
  detail::temp_memory temp(ctx, ws, pass_bytes * pass_count);
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaMemsetAsync(temp.get(), 0, pass_bytes * pass_count, stream));
  for (int pass = 0; pass < pass_count; ++pass) {
    unsigned char* p = temp.as<unsigned char>() + pass * pass_bytes;
    select_args<T> a{};
    a.in = in.data();
    a.n = in.size();
    a.out = out.data();
    a.pred = pred;
    a.pred.negate = pass == 1;                           // the rejected elements
    a.out_offset = pass == 1 ? count_device : nullptr;   // ... after the selected ones
    a.status = reinterpret_cast<unsigned long long*>(p);
    a.tile_counter = reinterpret_cast<unsigned*>(p + pass_bytes - 256);
    a.count_out = pass == 0 ? count_device : nullptr;
    a.tiles = unsigned(tiles);
    launch_select(ctx, stream, a, who);
  }
}

#define PARPRIM_INSTANTIATE(T)                                                        \
  template void select<T>(const context&, span<const T>, span<T>,                     \
                          detail::predicate_eval<T>, bool, std::int64_t*, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
