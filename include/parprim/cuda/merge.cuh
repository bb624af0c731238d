// The CUDA side of the generic merge / merge_by_key (parprim/merge.hpp), for nvcc only.
//
// Merge path over the two ranges with merge_sort's kernels (parprim/cuda/merge_sort.cuh): one
// warp or thread per output tile boundary finds by a search on its cross diagonal how many of
// the outputs before it come from a, then one block per tile runs merge_sort's merge_tile on
// the slices of a and b that feed it (same tile shape, same stable serial merge, values
// gathered from their keys' source positions). It is merge_sort's merge pass with the two
// runs in two arrays instead of side by side in one.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "parprim/cuda/merge_sort.cuh"
#include "parprim/merge.hpp"

namespace parprim::cuda_merge {

// split[t] = how many of the first min(t * tile, na + nb) outputs come from a.
template <class K, class Comp>
__global__ void __launch_bounds__(merge_sort_tuning::partition_threads)
    merge_ranges_partition(const K* a, std::int64_t na, const K* b, std::int64_t nb,
                           std::int64_t tile, std::int64_t boundaries, std::int64_t* split,
                           Comp comp, bool by_warp) {
  const std::int64_t t = cuda_prim::partition_boundary(by_warp);
  if (t >= boundaries) return;  // whole warps when by_warp
  const std::int64_t taken =
      cuda_prim::merge_path_split(a, na, b, nb, min(t * tile, na + nb), comp, by_warp);
  if (cuda_prim::stores_split(by_warp)) split[t] = taken;
}

template <class K, class V, bool HasValues, class Comp>
__global__ void __launch_bounds__(merge_sort_tuning::threads)
    merge_ranges(const K* a_keys, const V* a_values, std::int64_t na, const K* b_keys,
                 const V* b_values, std::int64_t nb, K* keys_out, V* values_out,
                 const std::int64_t* split, Comp comp) {
  using shape = merge_shape<K, V, HasValues>;
  __shared__ alignas(16) unsigned char s_raw[shape::shared_bytes];
  const std::int64_t out0 = std::int64_t(blockIdx.x) * shape::tile;
  const int total = int(min(std::int64_t(shape::tile), na + nb - out0));
  const std::int64_t a0 = split[blockIdx.x], b0 = out0 - a0;
  // Each split lies within [max(0, diag - nb), min(diag, na)] whatever the input, but only
  // sorted inputs make consecutive splits grow by at most a tile: clamping the slice of a to
  // what both ranges hold keeps every read inside a and b when they are not sorted (a no-op
  // when they are).
  const std::int64_t fewest = max(std::int64_t(0), std::int64_t(total) - (nb - b0));
  const std::int64_t most = min(std::int64_t(total), na - a0);
  const int taken_from_a = int(min(max(split[blockIdx.x + 1] - a0, fewest), most));
  merge_tile<K, V, HasValues>(s_raw, a_keys, a_values, a0, taken_from_a, b_keys, b_values, b0,
                              total, keys_out, values_out, out0, comp);
}

template <class K, class V, bool HasValues, class Comp>
void merge_two_ranges(const context& ctx, const char* who, const K* a, const V* a_values,
                      std::int64_t na, const K* b, const V* b_values, std::int64_t nb, K* keys_out,
                      V* values_out, Comp comp, workspace* ws) {
  using shape = merge_shape<K, V, HasValues>;
  const cudaError_t set = cudaSetDevice(ctx.device());
  if (set != cudaSuccess)
    merge_detail::fail(ctx, who, std::string("cudaSetDevice: ") + cudaGetErrorString(set), errc::device_error);
  cudaStream_t stream = static_cast<cudaStream_t>(ctx.stream());
  const std::int64_t n = na + nb;
  const std::int64_t tiles = (n + shape::tile - 1) / shape::tile;
  detail::temp_memory temp(ctx, ws, std::size_t(tiles + 1) * sizeof(std::int64_t));
  auto* split = temp.as<std::int64_t>();
  constexpr int pt = merge_sort_tuning::partition_threads;
  const cuda_prim::partition_launch search = cuda_prim::partition_shape(tiles + 1, pt);
  merge_ranges_partition<K><<<search.blocks, pt, 0, stream>>>(a, na, b, nb, shape::tile, tiles + 1,
                                                              split, comp, search.by_warp);
  check_launch(ctx, who);
  merge_ranges<K, V, HasValues><<<unsigned(tiles), shape::threads, 0, stream>>>(
      a, a_values, na, b, b_values, nb, keys_out, values_out, split, comp);
  check_launch(ctx, who);
}

}  // namespace parprim::cuda_merge

namespace parprim::detail {

template <>
struct cuda_body<merge_tag, true> {
  template <bool HasValues, class K, class V, class Comp>
  static void run(const context& ctx, const char* who, std::bool_constant<HasValues>, const K* a,
                  const V* a_values, std::int64_t na, const K* b, const V* b_values,
                  std::int64_t nb, K* keys_out, V* values_out, Comp comp, workspace* ws) {
    cuda_merge::merge_two_ranges<K, V, HasValues>(ctx, who, a, a_values, na, b, b_values, nb,
                                                  keys_out, values_out, comp, ws);
  }
};

}  // namespace parprim::detail
