// Stable counting sort on the GPU: histogram -> exclusive scan -> stable scatter.
//
// The unit of work is a warp tile: a contiguous run of `tile` keys that one warp owns, so
// that the order of equal keys inside a tile is the order in which the warp walks it.
//   1. count_kernel: each warp counts its tile's keys in shared memory and stores the counts
//      key-major, counts[key * tiles + tile].
//   2. parprim::exclusive_scan over counts: counts[key * tiles + tile] becomes the output
//      position of the first key `key` of tile `tile` (all tiles of key 0 first, in tile
//      order, then key 1, ...: that is what makes the sort stable across tiles).
//   3. scatter_kernel: each warp loads its tile's positions into shared memory and walks the
//      tile 32 keys at a time. __match_any_sync finds the lanes holding the same key; a
//      lane's rank among them (lanes below it) gives its slot after the key's running
//      position, and the highest such lane advances that position for the next step.
// Keys move as u32 bits (key - min_key is computed in unsigned arithmetic, which serves
// signed and unsigned keys alike), values as 4- or 8-byte words.
#include <algorithm>
#include <string>

#include "core/bad_position.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "core/word_of.hpp"
#include "cuda/gather_scatter_backend.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "cuda/runtime/bad_position.hpp"
#include "cuda/tuning/gather_scatter_tuning.hpp"
#include "parprim/scan.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

using tuning = cuda_tuning::counting_sort_tuning;

struct tile_shape {
  std::int64_t tile = 0;   // keys per warp tile
  std::int64_t tiles = 0;  // warp tiles
  int warps = 1;           // warps (tiles) per block
};

// Phase 1: per-tile counts of each key; a key outside the range is recorded, not counted.
__global__ void count_kernel(const std::uint32_t* __restrict__ keys, std::int64_t n,
                             std::uint32_t min_key, std::uint32_t range, std::int64_t tile,
                             std::int64_t tiles, unsigned long long* __restrict__ counts,
                             unsigned long long* bad) {
  extern __shared__ unsigned long long shared_words[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * (blockDim.x >> 5) + warp;
  if (t >= tiles) return;  // whole warps leave together; no block-wide barrier follows
  auto* cnt = reinterpret_cast<std::uint32_t*>(shared_words + std::int64_t(warp) * range);
  for (std::uint32_t k = lane; k < range; k += 32) cnt[k] = 0;
  __syncwarp();
  const std::int64_t begin = t * tile, end = min(n, begin + tile);
  for (std::int64_t i = begin + lane; i < end; i += 32) {
    const std::uint32_t d = keys[i] - min_key;
    if (d < range) atomicAdd(&cnt[d], 1u);
    else atomicMin(bad, static_cast<unsigned long long>(i));
  }
  __syncwarp();
  for (std::uint32_t k = lane; k < range; k += 32) counts[std::int64_t(k) * tiles + t] = cnt[k];
}

// Phase 3: stable scatter of each tile from the scanned positions.
template <class V>
__global__ void scatter_kernel(const std::uint32_t* __restrict__ keys_in, const V* __restrict__ values_in,
                               std::uint32_t* __restrict__ keys_out, V* __restrict__ values_out,
                               std::int64_t n, std::uint32_t min_key, std::uint32_t range,
                               std::int64_t tile, std::int64_t tiles,
                               const unsigned long long* __restrict__ positions) {
  extern __shared__ unsigned long long shared_words[];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * (blockDim.x >> 5) + warp;
  if (t >= tiles) return;
  unsigned long long* next = shared_words + std::int64_t(warp) * range;
  for (std::uint32_t k = lane; k < range; k += 32) next[k] = positions[std::int64_t(k) * tiles + t];
  __syncwarp();
  const unsigned below = (1u << lane) - 1;  // lanes ranked before this one
  const std::int64_t begin = t * tile, end = min(n, begin + tile);
  for (std::int64_t start = begin; start < end; start += 32) {  // same trip count in all lanes
    const std::int64_t i = start + lane;
    const std::uint32_t key = i < end ? keys_in[i] : 0;
    const std::uint32_t d = key - min_key;
    const bool ok = i < end && d < range;  // out-of-range keys were recorded in phase 1
    const unsigned peers = __match_any_sync(0xFFFFFFFFu, ok ? d : 0xFFFFFFFFu);
    if (ok) {
      const unsigned long long pos = next[d] + __popc(peers & below);
      keys_out[pos] = key;
      if (values_out != nullptr) values_out[pos] = values_in[i];
    }
    __syncwarp();  // every lane has read next[d] before the leader moves it
    if (ok && lane == 31 - __clz(peers)) next[d] += __popc(peers);
    __syncwarp();
  }
}

using detail::word_of;

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

using namespace cuda_kernels;

template <class K, class V>
void counting_sort(const context& ctx, span<const K> keys_in, span<const V> values_in,
                   span<K> keys_out, span<V> values_out, std::int64_t key_range, K min_key) {
  using W = typename word_of<sizeof(V)>::type;
  const char* who = values_in.size() > 0 ? "counting_sort_pairs" : "counting_sort";
  use_device(ctx, who);
  cudaStream_t stream = stream_of(ctx);
  const std::int64_t n = keys_in.size();
  const auto range = static_cast<std::uint32_t>(key_range);
  const auto min_bits = static_cast<std::uint32_t>(min_key);

  // Tiles long enough that the counts (key_range per tile) stay a small fraction of the
  // keys; warps per block as many as the shared memory for their positions allows.
  tile_shape shape;
  shape.tile = std::clamp<std::int64_t>(std::int64_t(tuning::tile_per_key) * key_range,
                                        tuning::min_tile, tuning::max_tile);
  shape.tile = (shape.tile + 31) / 32 * 32;
  shape.tiles = ceil_div(n, shape.tile);
  shape.warps = static_cast<int>(std::clamp<std::int64_t>(
      tuning::shared_bytes / (key_range * std::int64_t(sizeof(unsigned long long))), 1, tuning::max_warps));
  const std::size_t smem = std::size_t(shape.warps) * std::size_t(key_range) * sizeof(unsigned long long);
  const auto blocks = static_cast<unsigned>(ceil_div(shape.tiles, shape.warps));
  const int threads = 32 * shape.warps;

  unsigned long long* bad = cuda_rt::arm_bad_position(ctx, who);
  const std::string prefix = std::string("parprim::") + who + " [" + ctx.name() + "]: ";
  const long long min_value = static_cast<long long>(min_key);
  cuda_rt::defer_bad_position(ctx, bad, [prefix, min_value, key_range](std::int64_t pos) {
    return error(errc::out_of_range, prefix + detail::bad_key_what(pos, min_value, key_range));
  });

  const std::int64_t entries = shape.tiles * key_range;
  detail::temp_memory counts(ctx, nullptr, static_cast<std::size_t>(entries) * sizeof(std::uint64_t));
  auto* c = counts.as<unsigned long long>();
  const auto* kin = reinterpret_cast<const std::uint32_t*>(keys_in.data());

  // Phase 1: counts per (key, tile).
  count_kernel<<<blocks, threads, smem, stream>>>(kin, n, min_bits, range, shape.tile, shape.tiles, c, bad);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);

  // Phase 2: positions, by the library's own scan (in place).
  span<std::uint64_t> cs(counts.as<std::uint64_t>(), entries);
  exclusive_scan<std::uint64_t>(ctx, cs.as_const(), cs);

  // Phase 3: stable scatter.
  const bool with_values = values_in.size() > 0;
  scatter_kernel<W><<<blocks, threads, smem, stream>>>(
      kin, with_values ? reinterpret_cast<const W*>(values_in.data()) : nullptr,
      reinterpret_cast<std::uint32_t*>(keys_out.data()),
      with_values ? reinterpret_cast<W*>(values_out.data()) : nullptr, n, min_bits, range,
      shape.tile, shape.tiles, c);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

#define PARPRIM_INSTANTIATE(K, V)                                                              \
  template void counting_sort<K, V>(const context&, span<const K>, span<const V>, span<K>,     \
                                    span<V>, std::int64_t, K);
#define PARPRIM_INSTANTIATE_I32(V) PARPRIM_INSTANTIATE(std::int32_t, V)
#define PARPRIM_INSTANTIATE_U32(V) PARPRIM_INSTANTIATE(std::uint32_t, V)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE_I32)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE_U32)
#undef PARPRIM_INSTANTIATE_U32
#undef PARPRIM_INSTANTIATE_I32
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
