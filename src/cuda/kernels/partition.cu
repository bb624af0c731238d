// Stream compaction (copy_if) and stable partition: host dispatch, and the original
// single-pass kernel with decoupled look-back (Merrill & Garland, NVR-2016-002) applied to
// selection counts (select_tuning::kernel == 0).
//
// Per tile (threads x items elements) of select_kernel:
//   load      item k of thread t is element k * threads + t (coalesced)
//   rank      one ballot per item gives each warp's selected lanes; a scan of the (item,
//             warp) counts in element order gives every selected element its tile-local rank
//   publish   the tile's selected count (aggregate), so successors can look past it at once
//   stage     selected elements packed into shared memory in input order
//   look-back one warp sums the counts of the predecessor tiles, 32 at a time, back to the
//             nearest tile with an inclusive prefix; then publishes its own inclusive prefix
//   write     the packed run goes to out[prefix ...] with consecutive threads on consecutive
//             addresses
// select_tuning::kernel == 1 uses select_lookback_kernel (select_lookback.cuh) instead:
// 16-byte loads, 32 KiB tiles, a speculative tile load and a wider look-back window.
//
// Partition must be stable (selected in order, then rejected in order); see
// partition_count_place.cuh for what that costs against an unstable partition.
//   scheme 0: two compaction passes: the selected elements, then (negated predicate) the
//             rejected ones written after them, at an offset the first pass leaves in device
//             memory. Reads 2n, writes n, each pass with its look-back.
//   scheme 1: partition_count_place.cuh: a count pass, then a place pass that writes both
//             parts without look-back.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "core/partition_functors.hpp"
#include "core/temp_memory.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/partition_count_place.cuh"
#include "cuda/kernels/select_lookback.cuh"
#include "cuda/kernels/select_status.cuh"
#include "cuda/partition_backend.hpp"
#include "cuda/tuning/partition_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using select_status::full_mask;

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
      select_status::store(a.status + tile, (tile == 0 ? select_status::inclusive
                                                       : select_status::aggregate) |
                                                (unsigned long long)inclusive);
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
    const long long prefix = tile == 0 ? 0 : select_status::look_back<1>(a.status, tile, 0u);
    if (lane == 0) {
      if (tile != 0)
        select_status::store(a.status + tile,
                             select_status::inclusive | (unsigned long long)(prefix + selected));
      if (a.count_out && tile == a.tiles - 1) *a.count_out = prefix + selected;
      s_prefix = prefix;
    }
  }
  __syncthreads();

  // Write phase.
  T* out = a.out + (a.out_offset ? *a.out_offset : 0) + s_prefix;
  for (int j = tid; j < int(selected); j += threads) out[j] = s_stage[j];
}

// One compaction pass: tiles of the configured kernel, status words zeroed by the caller.
template <class T>
void launch_select(const context& ctx, cudaStream_t stream, select_args<T> a, const char* who) {
  using tuning = cuda_tuning::select_tuning<sizeof(T)>;
  if constexpr (tuning::kernel == 1) {
    using lt = cuda_tuning::select_lookback_tuning<sizeof(T)>;
    using shape = select_shape<T, lt::threads, lt::items>;
    select_lookback_kernel<T, shape, lt::min_blocks, lt::lookback_per_lane, lt::vector_store>
        <<<a.tiles, lt::threads, 0, stream>>>(a, lt::spin_sleep_ns);
  } else {
    select_kernel<T><<<a.tiles, tuning::threads, 0, stream>>>(a);
  }
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

template <class T>
constexpr std::int64_t select_tile() {
  using tuning = cuda_tuning::select_tuning<sizeof(T)>;
  if constexpr (tuning::kernel == 1) {
    using lt = cuda_tuning::select_lookback_tuning<sizeof(T)>;
    return lt::threads * lt::items;
  } else {
    return tuning::tile;
  }
}

// Compaction passes: copy_if (one) or partition scheme 0 (two, the second with the negated
// predicate writing after the selected count).
template <class T>
void select_passes(const context& ctx, cudaStream_t stream, span<const T> in, span<T> out,
                   detail::predicate_eval<T> pred, bool partition, std::int64_t* count_device,
                   workspace* ws, const char* who) {
  const std::int64_t tiles = ceil_div(in.size(), select_tile<T>());
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
    a.vectorized = cuda_prim::aligned16(in.data());
    launch_select(ctx, stream, a, who);
  }
}

// Partition scheme 1: count pass, place pass, over G chunks of whole tiles.
template <class T>
void count_place(const context& ctx, cudaStream_t stream, span<const T> in, span<T> out,
                 detail::predicate_eval<T> pred, std::int64_t* count_device, workspace* ws,
                 const char* who) {
  using pt = cuda_tuning::partition_tuning<sizeof(T)>;
  using shape = select_shape<T, pt::threads, pt::items>;
  int sms = 0;
  PARPRIM_CUDA_CHECK(ctx.name(), who,
                     cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx.device()));
  const std::int64_t tiles = ceil_div(in.size(), shape::tile);
  const std::int64_t capacity = std::max<std::int64_t>(1, std::int64_t(sms) * pt::blocks_per_sm);
  const std::int64_t chunk = ceil_div(tiles, std::min(tiles, capacity)) * shape::tile;
  const std::int64_t chunks = ceil_div(in.size(), chunk);  // every chunk non-empty
  detail::temp_memory counts(ctx, ws, detail::align_up(std::size_t(chunks) * 8));
  place_args<T> a{};
  a.in = in.data();
  a.n = in.size();
  a.out = out.data();
  a.pred = pred;
  a.chunk = chunk;
  a.chunks = int(chunks);
  a.counts = counts.as<unsigned long long>();
  a.count_out = count_device;
  a.vectorized = cuda_prim::aligned16(in.data());
  partition_count_kernel<T, shape><<<unsigned(chunks), shape::threads, 0, stream>>>(
      a, counts.as<unsigned long long>());
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  partition_place_kernel<T, shape, pt::blocks_per_sm><<<unsigned(chunks), shape::threads, 0, stream>>>(a);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void select(const context& ctx, span<const T> in, span<T> out, detail::predicate_eval<T> pred,
            bool partition, std::int64_t* count_device, workspace* ws) {
  using namespace cuda_kernels;
  const char* who = partition ? "partition" : "copy_if";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  if constexpr (cuda_tuning::partition_tuning<sizeof(T)>::scheme == 1) {
    if (partition) return count_place(ctx, stream, in, out, pred, count_device, ws, who);
  }
  select_passes(ctx, stream, in, out, pred, partition, count_device, ws, who);
}

#define PARPRIM_INSTANTIATE(T)                                                        \
  template void select<T>(const context&, span<const T>, span<T>,                     \
                          detail::predicate_eval<T>, bool, std::int64_t*, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
