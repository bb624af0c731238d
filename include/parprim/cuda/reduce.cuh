// The CUDA body of reduce, reduce_into and transform_reduce (nvcc only): the kernels and
// their launch, for any element type and associative operator. The precompiled reduce
// (src/cuda/kernels/reduce.cu) is this code instantiated for the library's op functors.
//
// Two launches, deterministic, memory-bound:
//   pass 1: G blocks (G a function of n only) each reduce a contiguous share of the input and
//           write partial[block];
//   pass 2: one block folds the G partials in order and writes init op (their fold).
// When G == 1, pass 1 writes the result directly (one launch).
//
// Pass 1 has two layouts, chosen by the operator at compile time:
//   * ordered (any associative operator): the input is cut into warp chunks of
//     32 * Vectors * unit elements, and warp w of block b reduces a contiguous run of chunks.
//     Within a chunk, row k (one 16-byte unit per lane, 512 contiguous bytes) is reduced by
//     each lane over its unit, then across lanes by a shuffle tree that keeps lane order, and
//     the rows are folded in order: elements are combined strictly left to right.
//   * reorderable (commutative operators with an identity: the library's plus/min/max):
//     chunk c of Threads * Vectors units goes to block c % G, and each thread folds its
//     vectors into one accumulator per vector lane across chunks; lanes, warps and the block
//     are combined at the end. No shuffles per chunk: one fewer dependency chain per load.
// Either way the element-to-accumulator assignment depends only on n and G, never on timing or
// on the pointer's alignment (a misaligned input loads the same elements one by one), so float
// results are bitwise reproducible. No atomics are used.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "parprim/cuda/detail/block_reduce.cuh"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/cuda/detail/vector_io.cuh"
#include "parprim/cuda/tuning/reduce_tuning.hpp"
#include "parprim/detail/generic.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "parprim/span.hpp"

namespace parprim::cuda_kernels {

// A thread's unit of a chunk, mapped: vector-wide loads when `vectorized`, else elements.
template <class In, class R, class Map>
__device__ __forceinline__ void load_mapped(R (&y)[cuda_prim::unit_size<In>], const In* p,
                                            bool vectorized, Map map) {
  constexpr int u = cuda_prim::unit_size<In>;
  In x[u];
  if (vectorized) {
    cuda_prim::load_unit(x, p);
  } else {
#pragma unroll
    for (int j = 0; j < u; ++j) x[j] = p[j];
  }
#pragma unroll
  for (int j = 0; j < u; ++j) y[j] = map(x[j]);
}

// ---- Ordered layout ---------------------------------------------------------------------------
// Chunks [first, last) of the warp's run; `has` says whether the warp had any element.
// Vectorized is a template parameter because nvcc did not unswitch the loop on a run-time
// flag here: the SASS of the u32 kernel issued all 20 loads of a chunk (4 x LDG.E.128 and
// 16 x LDG.E, predicated on the flag) per iteration, where the reorderable kernel's loop has
// its 4 x LDG.E.128 alone (cuobjdump -sass, sm_90).
template <class In, class R, class Map, class Op, int Vectors, bool Vectorized>
__device__ __forceinline__ R reduce_warp_run(const In* in, std::int64_t n, std::int64_t first,
                                             std::int64_t last, Map map, Op op, bool& has) {
  using namespace cuda_prim;
  constexpr int u = unit_size<In>;
  constexpr std::int64_t chunk = std::int64_t(warp_size) * Vectors * u;
  const int lane = lane_id();
  R acc{};
  has = false;
  for (std::int64_t c = first; c < last; ++c) {
    const std::int64_t base = c * chunk;
    const In* p = in + base + lane * u;
    if (base + chunk <= n) {
      R y[Vectors][u];
#pragma unroll
      for (int k = 0; k < Vectors; ++k) load_mapped<In, R>(y[k], p + k * warp_size * u, Vectorized, map);
      R rows[Vectors];
#pragma unroll
      for (int k = 0; k < Vectors; ++k) {
        R t = y[k][0];
#pragma unroll
        for (int j = 1; j < u; ++j) t = op(t, y[k][j]);
        rows[k] = warp_reduce(t, op);
      }
#pragma unroll
      for (int k = 0; k < Vectors; ++k) {
        acc = has ? op(acc, rows[k]) : rows[k];
        has = true;
      }
    } else {  // the partial last chunk: valid elements are a prefix of it
      const std::int64_t valid = n - base;
#pragma unroll
      for (int k = 0; k < Vectors; ++k) {
        const std::int64_t row = std::int64_t(k) * warp_size * u;
        if (row >= valid) break;
        const std::int64_t mine = row + std::int64_t(lane) * u;
        R t{};
        if (mine < valid) {
          t = map(p[k * warp_size * u]);
          for (int j = 1; j < u && mine + j < valid; ++j) t = op(t, map(p[k * warp_size * u + j]));
        }
        const std::int64_t units = (valid - row + u - 1) / u;
        const int lanes = units < warp_size ? int(units) : warp_size;
        const R total = shfl_idx(warp_reduce_first(t, op, lanes), 0);
        acc = has ? op(acc, total) : total;
        has = true;
      }
    }
  }
  return acc;
}

template <class In, class R, class Map, class Op, int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    reduce_ordered_kernel(const In* in, std::int64_t n, R* out, bool vectorized, Map map, Op op,
                          bool apply_init, R init) {
  constexpr int warps = Threads / cuda_prim::warp_size;
  constexpr std::int64_t chunk = std::int64_t(cuda_prim::warp_size) * Vectors * cuda_prim::unit_size<In>;
  __shared__ R s_total[warps];
  __shared__ bool s_has[warps];
  const std::int64_t chunks = (n + chunk - 1) / chunk;
  const std::int64_t all_warps = std::int64_t(gridDim.x) * warps;
  const std::int64_t w = std::int64_t(blockIdx.x) * warps + cuda_prim::warp_id();
  bool has;
  const std::int64_t first = w * chunks / all_warps, last = (w + 1) * chunks / all_warps;
  const R r = vectorized
                  ? reduce_warp_run<In, R, Map, Op, Vectors, true>(in, n, first, last, map, op, has)
                  : reduce_warp_run<In, R, Map, Op, Vectors, false>(in, n, first, last, map, op, has);
  if (cuda_prim::lane_id() == 0) {
    s_total[cuda_prim::warp_id()] = r;
    s_has[cuda_prim::warp_id()] = has;
  }
  __syncthreads();
  if (threadIdx.x == 0) {  // every block has at least one chunk (G <= chunks / warps)
    R b = s_total[0];
    bool any = s_has[0];
    for (int i = 1; i < warps; ++i)
      if (s_has[i]) {
        b = any ? op(b, s_total[i]) : s_total[i];
        any = true;
      }
    out[blockIdx.x] = apply_init ? op(init, b) : b;
  }
}

// ---- Reorderable layout -----------------------------------------------------------------------
template <class In, class R, class Map, class Op, int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    reduce_reorderable_kernel(const In* in, std::int64_t n, R* out, bool vectorized, Map map,
                              Op op, bool apply_init, R init) {
  constexpr int vec = cuda_prim::unit_size<In>;
  constexpr std::int64_t items = std::int64_t(Threads) * Vectors * vec;
  using block_reduce = cuda_prim::block_reduce<R, Op, Threads>;
  __shared__ typename block_reduce::storage s_reduce;
  R acc[vec];
#pragma unroll
  for (int j = 0; j < vec; ++j) acc[j] = Op::identity();

  // Full chunks: all loads of a chunk in flight together, then folded in vector order.
  const std::int64_t full_chunks = n / items;
  const In* mine = in + static_cast<std::int64_t>(threadIdx.x) * vec;
  for (std::int64_t c = blockIdx.x; c < full_chunks; c += gridDim.x) {
    const In* p = mine + c * items;
    R y[Vectors][vec];
#pragma unroll
    for (int u = 0; u < Vectors; ++u) load_mapped<In, R>(y[u], p + u * Threads * vec, vectorized, map);
#pragma unroll
    for (int u = 0; u < Vectors; ++u)
#pragma unroll
      for (int j = 0; j < vec; ++j) acc[j] = op(acc[j], y[u][j]);
  }
  // The partial last chunk, same element positions, guarded.
  if (full_chunks * items < n && blockIdx.x == full_chunks % gridDim.x) {
    const std::int64_t base = full_chunks * items + static_cast<std::int64_t>(threadIdx.x) * vec;
#pragma unroll
    for (int u = 0; u < Vectors; ++u)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const std::int64_t i = base + u * Threads * vec + j;
        if (i < n) acc[j] = op(acc[j], map(in[i]));
      }
  }
  R r = acc[0];
#pragma unroll
  for (int j = 1; j < vec; ++j) r = op(r, acc[j]);
  r = block_reduce::reduce(s_reduce, r, op);
  if (threadIdx.x == 0) out[blockIdx.x] = apply_init ? op(init, r) : r;
}

// ---- Pass 2: one block; thread t folds a contiguous run of partials, then the block, in
// order. count == 0 writes init.
template <class R, class Op, int Threads>
__global__ void __launch_bounds__(Threads)
    reduce_partials_kernel(const R* partial, int count, R* out, Op op, R init) {
  using block_reduce = cuda_prim::block_reduce<R, Op, Threads>;
  __shared__ typename block_reduce::storage s_reduce;
  if (count == 0) {
    if (threadIdx.x == 0) out[0] = init;
    return;
  }
  const int per = (count + Threads - 1) / Threads;
  const int valid = (count + per - 1) / per;  // threads with a non-empty run: a prefix
  const int begin = int(threadIdx.x) * per;
  R r{};
  if (begin < count) {
    r = partial[begin];
    for (int i = begin + 1; i < min(begin + per, count); ++i) r = op(r, partial[i]);
  }
  r = cuda_prim::block_reduce_first<R, Op, Threads>(s_reduce, r, op, valid);
  if (threadIdx.x == 0) out[0] = op(init, r);
}

// Writes init op map(in[0]) op ... op map(in[n-1]) to out_device[0]; stream-ordered.
template <class In, class R, class Map, class Op>
void reduce_into(const context& ctx, const In* in, std::int64_t n, R* out_device, R init, Map map,
                 Op op, workspace* ws, const char* who) {
  using tuning = cuda_tuning::reduce_production_tuning;
  constexpr int threads = tuning::threads;
  constexpr int vectors = tuning::vectors_per_thread;
  constexpr bool reorderable = detail::reorderable_v<Op>;
  constexpr int unit = cuda_prim::unit_size<In>;
  // Ordered: at least one warp chunk per warp of a block, so every block has elements.
  constexpr std::int64_t block_items =
      reorderable ? std::int64_t(threads) * vectors * unit : std::int64_t(cuda_prim::warp_size) * vectors * unit;
  constexpr std::int64_t per_block_unit = reorderable ? 1 : threads / cuda_prim::warp_size;
  use_device(ctx, who);
  const cudaStream_t s = stream_of(ctx);
  const std::int64_t chunks = ceil_div(n, block_items);
  const int blocks = static_cast<int>(std::clamp<std::int64_t>(
      reorderable ? chunks : chunks / per_block_unit, 1, tuning::max_blocks));
  const bool vectorized = !cuda_prim::vector_unit<In> || cuda_prim::aligned16(in);
  auto pass1 = [] {
    if constexpr (reorderable) return reduce_reorderable_kernel<In, R, Map, Op, threads, vectors>;
    else return reduce_ordered_kernel<In, R, Map, Op, threads, vectors>;
  }();
  if (n == 0) {
    reduce_partials_kernel<R, Op, 32><<<1, 32, 0, s>>>(nullptr, 0, out_device, op, init);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  if (blocks == 1) {
    pass1<<<1, threads, 0, s>>>(in, n, out_device, vectorized, map, op, true, init);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  detail::temp_memory partial(ctx, ws, detail::align_up(blocks * sizeof(R)));
  pass1<<<blocks, threads, 0, s>>>(in, n, partial.as<R>(), vectorized, map, op, false, init);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  reduce_partials_kernel<R, Op, tuning::final_threads>
      <<<1, tuning::final_threads, 0, s>>>(partial.as<R>(), blocks, out_device, op, init);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
}

}  // namespace parprim::cuda_kernels

namespace parprim::detail {

template <>
struct cuda_body<reduce_tag, true> {
  template <class In, class R, class Map, class Op>
  static void run(const context& ctx, const char* function, span<const In> in, R* out_device,
                  R init, Map map, Op op, workspace* ws) {
    cuda_kernels::reduce_into(ctx, in.data(), in.size(), out_device, init, map, op, ws, function);
  }
};

}  // namespace parprim::detail
