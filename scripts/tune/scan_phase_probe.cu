// Probe of the 4-byte decoupled look-back scan, in one binary on the same device buffers:
// where a tile's time goes (globaltimer stamps per tile: load + local scan, look-back, the
// second barrier, stores), how far back the nearest inclusive prefix is, and variants:
//   lib       the library's scan_kernel (256 x 32 @3)
//   copy      the same tiles loaded and stored, no scan (the shape's ceiling)
//   none      the scan without its look-back (wrong results; what the look-back costs)
//   tree      exact operators: the look-back window summed by a shuffle tree, not folded
//   pipe2     persistent blocks, two tiles per block in flight: the next tile's loads are
//             issued into registers before the current tile is scanned, so they are in
//             flight through its look-back and stores
// Outputs compared bit for bit with the library's (u32 also with a sequential oracle).
//   nvcc -std=c++17 -O3 -DPARPRIM_HAVE_CUDA=1 --expt-relaxed-constexpr --extended-lambda \
//     -Iinclude -Ibuild-gpu/include -arch=sm_90 scripts/tune/scan_phase_probe.cu -o probe
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <cub/cub.cuh>

#include "parprim/cuda/detail/bulk_copy.cuh"
#include "parprim/cuda/scan.cuh"
#include "parprim/detail/op_functors.hpp"

using namespace parprim;
#define CK(x)                                                                         \
  do {                                                                                \
    cudaError_t e = (x);                                                              \
    if (e != cudaSuccess) {                                                           \
      printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e));             \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

enum class lb { lib, tree, none, walk4, walk8, walk4tree, walk8tree };
constexpr int walk_rounds = 4;

template <int Threads, int Items, int MinBlocks>
struct probe_tuning : cuda_tuning::scan_lookback_tuning<4> {
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int min_blocks_per_sm = MinBlocks;
};

__device__ __forceinline__ unsigned long long gtime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  return t;
}

// The window poll of look_back (in_window), then either the library's ordered fold or a
// shuffle-tree sum; `dist` = tile - nearest inclusive tile (or -1 on the slow path).
template <class T, class Op, int PerLane, bool Tree, class Status>
__device__ T probe_look_back(const Status& status, int tile, Op op, T* window, int& dist) {
  using namespace cuda_prim;
  constexpr int W = warp_size * PerLane;
  const int lane = lane_id();
  const int first = tile - W;
  T inclusive[PerLane], aggregate[PerLane];
  bool has_inclusive[PerLane], has_aggregate[PerLane];
#pragma unroll
  for (int k = 0; k < PerLane; ++k) {
    const int t = first + k * warp_size + lane;
    inclusive[k] = aggregate[k] = T{};
    has_inclusive[k] = has_aggregate[k] = false;
    if (t >= 0) {
      has_inclusive[k] = status.poll_inclusive(t, inclusive[k]);
      has_aggregate[k] = status.poll_aggregate(t, aggregate[k]);
    }
  }
  int p = -1;
#pragma unroll
  for (int k = 0; k < PerLane; ++k) {
    const unsigned lanes_with = __ballot_sync(full_warp, has_inclusive[k]);
    if (lanes_with != 0) p = k * warp_size + warp_size - 1 - __clz(lanes_with);
  }
  if (p < 0) {
    dist = -1;
    int base = 0;
    const T acc = look_back_steps::nearest_inclusive<T, W>(status, tile, 0, base);
    return look_back_steps::fold_aggregates_after<T, Op, true>(status, base, tile, acc, op, 0,
                                                              window);
  }
  dist = W - p;
  auto have_needed = [&] {
    bool ok = true;
#pragma unroll
    for (int k = 0; k < PerLane; ++k)
      if (k * warp_size + lane > p && !has_aggregate[k]) ok = false;
    return ok;
  };
  while (!__all_sync(full_warp, have_needed())) {
#pragma unroll
    for (int k = 0; k < PerLane; ++k)
      if (k * warp_size + lane > p && !has_aggregate[k])
        has_aggregate[k] = status.poll_aggregate(first + k * warp_size + lane, aggregate[k]);
  }
  if constexpr (Tree) {
    T part = T{};
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      const int q = k * warp_size + lane;
      if (q > p) part = op(part, aggregate[k]);
      else if (q == p) part = op(part, inclusive[k]);
    }
#pragma unroll
    for (int d = warp_size / 2; d > 0; d /= 2) part = op(part, shfl_xor(part, d));
    return part;
  } else {
    return look_back_steps::fold_window_from<T, Op, PerLane, true>(p, inclusive, has_inclusive,
                                                                   aggregate, op, window);
  }
}


// The windowed walk: every round trip polls W = 32 * PerLane tiles (both slots), moving down
// W tiles per round until an inclusive prefix is found; the aggregates of the windows passed
// wait in `buf` (Rounds * W values) and are folded in tile order at the end (Tree: summed per
// round by a shuffle tree instead, exact operators only). Past Rounds windows, the old walk.
template <class T, class Op, int PerLane, int Rounds, bool Tree, class Status>
__device__ T walk_look_back(const Status& status, int tile, Op op, T* buf, int& dist) {
  using namespace cuda_prim;
  constexpr int W = warp_size * PerLane;
  const int lane = lane_id();
  T tree_sum = T{};
  for (int r = 0; r < Rounds; ++r) {
    const int first = tile - (r + 1) * W;
    T inclusive[PerLane], aggregate[PerLane];
    bool has_inclusive[PerLane], has_aggregate[PerLane];
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      const int t = first + k * warp_size + lane;
      inclusive[k] = aggregate[k] = T{};
      has_inclusive[k] = false;
      has_aggregate[k] = t < 0;
      if (t >= 0) {
        has_inclusive[k] = status.poll_inclusive(t, inclusive[k]);
        has_aggregate[k] = status.poll_aggregate(t, aggregate[k]);
      }
    }
    int p = -1;
#pragma unroll
    for (int k = 0; k < PerLane; ++k) {
      const unsigned lanes_with = __ballot_sync(full_warp, has_inclusive[k]);
      if (lanes_with != 0) p = k * warp_size + warp_size - 1 - __clz(lanes_with);
    }
    if (p < 0 && first <= 0) {  // tile 0 is in this window and not out yet: poll it again
      --r;
      continue;
    }
    auto have_needed = [&] {
      bool ok = true;
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (k * warp_size + lane > p && !has_aggregate[k]) ok = false;
      return ok;
    };
    while (!__all_sync(full_warp, have_needed())) {
#pragma unroll
      for (int k = 0; k < PerLane; ++k)
        if (k * warp_size + lane > p && !has_aggregate[k])
          has_aggregate[k] = status.poll_aggregate(first + k * warp_size + lane, aggregate[k]);
    }
    if constexpr (Tree) {
      T part = T{};
#pragma unroll
      for (int k = 0; k < PerLane; ++k) {
        const int q = k * warp_size + lane;
        if (q > p) part = op(part, aggregate[k]);
        else if (q == p) part = op(part, inclusive[k]);
      }
#pragma unroll
      for (int d = warp_size / 2; d > 0; d /= 2) part = op(part, shfl_xor(part, d));
      tree_sum = op(tree_sum, part);
      if (p >= 0) {
        dist = r * W + W - p;
        return tree_sum;
      }
    } else {
#pragma unroll
      for (int k = 0; k < PerLane; ++k) buf[r * W + k * warp_size + lane] = aggregate[k];
      if (p >= 0) {
        T mine = T{};
#pragma unroll
        for (int k = 0; k < PerLane; ++k)
          if (has_inclusive[k]) mine = inclusive[k];
        T acc = shfl_idx(mine, p % warp_size);
        __syncwarp();
#pragma unroll 8
        for (int q = p + 1; q < W; ++q) acc = op(acc, buf[r * W + q]);
        for (int rr = r - 1; rr >= 0; --rr)
#pragma unroll 8
          for (int q = 0; q < W; ++q) acc = op(acc, buf[rr * W + q]);
        __syncwarp();
        dist = r * W + W - p;
        return acc;
      }
    }
  }
  dist = -1;
  int base = 0;
  const T acc = look_back_steps::nearest_inclusive<T, W>(status, tile, 0, base);
  return look_back_steps::fold_aggregates_after<T, Op, true>(status, base, tile, acc, op, 0, buf);
}

struct stamps {
  unsigned long long* t = nullptr;  // 5 per tile
  int* dist = nullptr;
};

// scan_tile of parprim/cuda/scan.cuh with the look-back chosen by Mode and optional stamps;
// identity operators only (plus).
template <class T, class Op, class Shape, lb Mode, bool Timed>
__device__ __forceinline__ void probe_scan_tile(cuda_kernels::lookback_storage<T, Op, Shape>& s,
                                                T (&x)[Shape::rows][Shape::vec], int tile, T* out,
                                                std::int64_t n, int num_tiles,
                                                const cuda_prim::tile_status<T>& status,
                                                bool inclusive, T start, bool vectorized, Op op,
                                                stamps st) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  constexpr int rows = Shape::rows;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  __shared__ T walk_buf[Mode == lb::walk4 ? walk_rounds * 128 : Mode == lb::walk8 ? walk_rounds * 256 : 1];
  const int lane = lane_id();
  const int warp = warp_id();
  const std::int64_t tile_base = static_cast<std::int64_t>(tile) * Shape::tile_items;
  const int tile_count = cuda_kernels::tile_size<Shape>(n, tile_base);
  const bool full_vectors = vectorized && tile_count == Shape::tile_items;
#pragma unroll
  for (int k = 0; k < rows; ++k)
#pragma unroll
    for (int j = 1; j < vec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);
  T row_prefix[rows];
  T warp_total;
  {
    T row_inclusive[rows];
#pragma unroll
    for (int k = 0; k < rows; ++k) row_inclusive[k] = warp_inclusive_scan(x[k][vec - 1], op);
#pragma unroll
    for (int k = 0; k < rows; ++k) {
      T exclusive = shfl_up(row_inclusive[k], 1);
      if (lane == 0) exclusive = Op::identity();
      const T row_total = shfl_idx(row_inclusive[k], warp_size - 1);
      if (k == 0) {
        row_prefix[0] = exclusive;
        warp_total = row_total;
      } else {
        row_prefix[k] = op(warp_total, exclusive);
        warp_total = op(warp_total, row_total);
      }
    }
  }
  block_scan_t::store_warp_total(s.scan, warp_total);
  __syncthreads();
  if (Timed && threadIdx.x == 0) st.t[5 * tile + 1] = gtime();
  if (warp == 0) {
    const T aggregate = block_scan_t::scan_warp_totals(s.scan, op);
    T prefix = start;
    int dist = 0;
    if (tile > 0 && Mode != lb::none) {
      if (lane == 0 && tile < num_tiles - 1) status.publish_aggregate(tile, aggregate);
      if constexpr (Mode == lb::lib || Mode == lb::tree)
        prefix = probe_look_back<T, Op, Shape::lookback_per_lane, Mode == lb::tree>(
            status, tile, op, s.window, dist);
      else
        prefix = walk_look_back<T, Op, Mode == lb::walk4 || Mode == lb::walk4tree ? 4 : 8,
                                walk_rounds, Mode == lb::walk4tree || Mode == lb::walk8tree>(
            status, tile, op, walk_buf, dist);
    }
    if (lane == 0) {
      if (tile < num_tiles - 1 && Mode != lb::none)
        status.publish_inclusive(tile, op(prefix, aggregate));
      s.tile_prefix = prefix;
      if (Timed) {
        st.t[5 * tile + 2] = gtime();
        st.dist[tile] = dist;
      }
    }
  }
  __syncthreads();
  if (Timed && threadIdx.x == 0) st.t[5 * tile + 3] = gtime();
  const T warp_prefix = op(s.tile_prefix, s.scan.warp_prefix[warp]);
  const int my_offset = warp * Shape::warp_items + lane * vec;
  T* dst = out + tile_base + my_offset;
#pragma unroll
  for (int k = 0; k < rows; ++k) {
    const T prefix = op(warp_prefix, row_prefix[k]);
    T y[vec];
#pragma unroll
    for (int j = 0; j < vec; ++j) y[j] = inclusive ? op(prefix, x[k][j]) : (j == 0 ? prefix : op(prefix, x[k][j - 1]));
    if (full_vectors) {
      store_unit(dst + k * warp_size * vec, y);
    } else {
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = k * warp_size * vec + j;
        if (my_offset + e < tile_count) dst[e] = y[j];
      }
    }
  }
  if (Timed && threadIdx.x == 0) st.t[5 * tile + 4] = gtime();
}

template <class T, class Op, class Shape, lb Mode, bool Timed>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    one_tile_kernel(const T* in, T* out, std::int64_t n, int num_tiles,
                    cuda_prim::tile_status<T> status, int* counter, bool inclusive, T start,
                    bool vectorized, Op op, stamps st) {
  __shared__ cuda_kernels::lookback_storage<T, Op, Shape> s;
  T x[Shape::rows][Shape::vec];
  const unsigned long long t0 = Timed ? gtime() : 0;
  if (threadIdx.x == 0) s.tile = atomicAdd(counter, 1);
  cuda_kernels::load_tile<T, T, Shape>(x, in, n, static_cast<int>(blockIdx.x), vectorized,
                                       detail::identity_map{});
  __syncthreads();
  const int tile = s.tile;
  if (tile != static_cast<int>(blockIdx.x))
    cuda_kernels::load_tile<T, T, Shape>(x, in, n, tile, vectorized, parprim::detail::identity_map{});
  if (Timed && threadIdx.x == 0) st.t[5 * tile] = t0;
  probe_scan_tile<T, Op, Shape, Mode, Timed>(s, x, tile, out, n, num_tiles, status, inclusive,
                                             start, vectorized, op, st);
}

// Persistent blocks with two tiles in flight each: tile ids are claimed one ahead, the next
// tile's loads are issued before the current one is scanned. Tiles are still claimed in the
// order blocks ask, and a block finishes its lower tile first, so the lowest unfinished tile
// always belongs to a running block whose predecessors are done: no deadlock.
template <class T, class Op, class Shape, lb Mode>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    pipe2_kernel(const T* in, T* out, std::int64_t n, int num_tiles,
                 cuda_prim::tile_status<T> status, int* counter, bool inclusive, T start,
                 bool vectorized, Op op) {
  __shared__ cuda_kernels::lookback_storage<T, Op, Shape> s;
  __shared__ int claims[2];
  if (threadIdx.x == 0) {
    claims[0] = atomicAdd(counter, 1);
    claims[1] = atomicAdd(counter, 1);
  }
  __syncthreads();
  int cur = claims[0], nxt = claims[1];
  T xa[Shape::rows][Shape::vec], xb[Shape::rows][Shape::vec];
  if (cur < num_tiles)
    cuda_kernels::load_tile<T, T, Shape>(xa, in, n, cur, vectorized, parprim::detail::identity_map{});
  int slot = 0;
  auto step = [&](auto& xc, auto& xn) {
    if (nxt < num_tiles)
      cuda_kernels::load_tile<T, T, Shape>(xn, in, n, nxt, vectorized, parprim::detail::identity_map{});
    // The claim after nxt: written before scan_tile's first barrier, read after its second.
    if (threadIdx.x == 0) claims[slot] = nxt < num_tiles ? atomicAdd(counter, 1) : num_tiles;
    probe_scan_tile<T, Op, Shape, Mode, false>(s, xc, cur, out, n, num_tiles, status,
                                                  inclusive, start, vectorized, op, stamps{});
    cur = nxt;
    nxt = claims[slot];
    slot ^= 1;
  };
  while (cur < num_tiles) {
    step(xa, xb);
    if (cur >= num_tiles) break;
    step(xb, xa);
  }
}


// ---- Warp-specialized, persistent: one block per SM, Stages tile buffers in shared memory.
//   warp 16 (load):      claims tiles in order, one bulk copy per tile into a free stage
//   warps 0-7 (reduce):  the tile aggregate as soon as the stage lands (same association as
//                        scan_tile), published at once
//   warp 17 (look-back): tile prefixes in order, inclusive prefixes published
//   warps 8-15 (scan):   with the tile prefix, scan the stage and store; frees the stage
__device__ __forceinline__ void named_sync(int id, int threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

template <class T, class Op, class Shape, int Stages>
struct ws_smem {
  alignas(128) T tile[Stages][Shape::tile_items];
  typename cuda_prim::block_scan<T, Op, Shape::threads>::storage scan[Stages];
  T aggregate[Stages];
  T tile_prefix[Stages];
  int tile_id[Stages];
  T window[Shape::window];
  std::uint64_t full[Stages], reduced[Stages], prefixed[Stages], empty[Stages];
};

// Stretch `w` of a staged tile into registers, elements past `count` padded with the first.
template <class T, class Shape>
__device__ __forceinline__ void read_stage(T (&x)[Shape::rows][Shape::vec], const T* tile, int count, int w) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec;
  const int my_offset = w * Shape::warp_items + lane_id() * vec;
  if (count == Shape::tile_items) {
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k) {
      const uint4 v = *reinterpret_cast<const uint4*>(tile + my_offset + k * warp_size * vec);
      x[k][0] = v.x; x[k][1] = v.y; x[k][2] = v.z; x[k][3] = v.w;
    }
  } else {
    const T pad = tile[0];
#pragma unroll
    for (int k = 0; k < Shape::rows; ++k)
#pragma unroll
      for (int j = 0; j < vec; ++j) {
        const int e = my_offset + k * warp_size * vec + j;
        x[k][j] = e < count ? tile[e] : pad;
      }
  }
}

// Phase 3 of scan_tile: units scanned in place, row prefixes, the warp total.
template <class T, class Op, class Shape>
__device__ __forceinline__ void stretch_scan(T (&x)[Shape::rows][Shape::vec], T (&row_prefix)[Shape::rows], T& warp_total, Op op) {
  using namespace cuda_prim;
  constexpr int vec = Shape::vec, rows = Shape::rows;
  const int lane = lane_id();
#pragma unroll
  for (int k = 0; k < rows; ++k)
#pragma unroll
    for (int j = 1; j < vec; ++j) x[k][j] = op(x[k][j - 1], x[k][j]);
  T row_inclusive[rows];
#pragma unroll
  for (int k = 0; k < rows; ++k) row_inclusive[k] = warp_inclusive_scan(x[k][vec - 1], op);
#pragma unroll
  for (int k = 0; k < rows; ++k) {
    T exclusive = shfl_up(row_inclusive[k], 1);
    if (lane == 0) exclusive = Op::identity();
    const T row_total = shfl_idx(row_inclusive[k], warp_size - 1);
    if (k == 0) {
      row_prefix[0] = exclusive;
      warp_total = row_total;
    } else {
      row_prefix[k] = op(warp_total, exclusive);
      warp_total = op(warp_total, row_total);
    }
  }
}

template <class T, class Op, class Shape, int Stages>
__global__ void __launch_bounds__(2 * Shape::threads + 64, 1)
    ws_kernel(const T* in, T* out, std::int64_t n, int num_tiles, cuda_prim::tile_status<T> status,
              int* counter, bool inclusive, T start, bool out_vec, Op op) {
  using namespace cuda_prim;
  extern __shared__ __align__(128) unsigned char raw[];
  auto& s = *reinterpret_cast<ws_smem<T, Op, Shape, Stages>*>(raw);
  constexpr int W = Shape::warps;
  constexpr int vec = Shape::vec, rows = Shape::rows;
  using block_scan_t = block_scan<T, Op, Shape::threads>;
  const int warp = warp_id(), lane = lane_id();
  if (threadIdx.x == 0) {
    for (int i = 0; i < Stages; ++i) {
      mbarrier_init(&s.full[i], 1);
      mbarrier_init(&s.reduced[i], 1);
      mbarrier_init(&s.prefixed[i], 1);
      mbarrier_init(&s.empty[i], W);
    }
    fence_mbarrier_init();
  }
  __syncthreads();
  if (warp == 2 * W) {  // load
    if (lane != 0) return;
    for (int it = 0;; ++it) {
      const int st = it % Stages;
      if (it >= Stages) mbarrier_wait_parity(&s.empty[st], ((it / Stages) - 1) & 1);
      const int tile = atomicAdd(counter, 1);
      if (tile >= num_tiles) {
        s.tile_id[st] = -1;
        mbarrier_arrive(&s.full[st]);
        return;
      }
      s.tile_id[st] = tile;
      const std::int64_t base = std::int64_t(tile) * Shape::tile_items;
      const int count = cuda_kernels::tile_size<Shape>(n, base);
      const unsigned bulk = unsigned(count * sizeof(T)) & ~15u;
      for (int e = int(bulk / sizeof(T)); e < count; ++e) s.tile[st][e] = in[base + e];
      if (bulk != 0) {
        mbarrier_arrive_expect_tx(&s.full[st], bulk);
        bulk_copy_to_shared(s.tile[st], in + base, bulk, &s.full[st]);
      } else {
        mbarrier_arrive(&s.full[st]);
      }
    }
  } else if (warp == 2 * W + 1) {  // look-back
    for (int it = 0;; ++it) {
      const int st = it % Stages;
      const unsigned par = (it / Stages) & 1;
      mbarrier_wait_parity(&s.full[st], par);
      const int tile = s.tile_id[st];
      if (tile < 0) return;
      mbarrier_wait_parity(&s.reduced[st], par);
      const T agg = s.aggregate[st];
      T prefix = start;
      if (tile > 0)
        prefix = look_back<T, Op, Shape::lookback_per_lane, true>(status, tile, op, 0u, s.window);
      if (lane == 0) {
        if (tile < num_tiles - 1) status.publish_inclusive(tile, op(prefix, agg));
        s.tile_prefix[st] = prefix;
        mbarrier_arrive(&s.prefixed[st]);
      }
    }
  } else if (warp < W) {  // reduce
    for (int it = 0;; ++it) {
      const int st = it % Stages;
      const unsigned par = (it / Stages) & 1;
      mbarrier_wait_parity(&s.full[st], par);
      const int tile = s.tile_id[st];
      if (tile < 0) return;
      const int count = cuda_kernels::tile_size<Shape>(n, std::int64_t(tile) * Shape::tile_items);
      T x[rows][vec], row_prefix[rows], warp_total;
      read_stage<T, Shape>(x, s.tile[st], count, warp);
      stretch_scan<T, Op, Shape>(x, row_prefix, warp_total, op);
      if (lane == 0) s.scan[st].warp_total[warp] = warp_total;
      named_sync(1, Shape::threads);
      if (warp == 0) {
        const T agg = block_scan_t::scan_warp_totals(s.scan[st], op);
        __syncwarp();
        if (lane == 0) {
          s.aggregate[st] = agg;
          if (tile > 0 && tile < num_tiles - 1) status.publish_aggregate(tile, agg);
          mbarrier_arrive(&s.reduced[st]);
        }
      }
    }
  } else {  // scan and store
    const int w = warp - W;
    for (int it = 0;; ++it) {
      const int st = it % Stages;
      const unsigned par = (it / Stages) & 1;
      mbarrier_wait_parity(&s.full[st], par);
      const int tile = s.tile_id[st];
      if (tile < 0) return;
      const std::int64_t tile_base = std::int64_t(tile) * Shape::tile_items;
      const int count = cuda_kernels::tile_size<Shape>(n, tile_base);
      mbarrier_wait_parity(&s.prefixed[st], par);
      T x[rows][vec], row_prefix[rows], warp_total;
      read_stage<T, Shape>(x, s.tile[st], count, w);
      stretch_scan<T, Op, Shape>(x, row_prefix, warp_total, op);
      const T warp_prefix = op(s.tile_prefix[st], s.scan[st].warp_prefix[w]);
      __syncwarp();
      if (lane == 0) mbarrier_arrive(&s.empty[st]);
      const int my_offset = w * Shape::warp_items + lane * vec;
      T* dst = out + tile_base + my_offset;
      const bool full_vectors = out_vec && count == Shape::tile_items;
#pragma unroll
      for (int k = 0; k < rows; ++k) {
        const T prefix = op(warp_prefix, row_prefix[k]);
        T y[vec];
#pragma unroll
        for (int j = 0; j < vec; ++j) y[j] = inclusive ? op(prefix, x[k][j]) : (j == 0 ? prefix : op(prefix, x[k][j - 1]));
        if (full_vectors) {
          store_unit(dst + k * warp_size * vec, y);
        } else {
#pragma unroll
          for (int j = 0; j < vec; ++j) {
            const int e = k * warp_size * vec + j;
            if (my_offset + e < count) dst[e] = y[j];
          }
        }
      }
    }
  }
}

template <class T, class Shape>
__global__ void __launch_bounds__(Shape::threads, Shape::min_blocks)
    copy_kernel(const T* in, T* out, std::int64_t n) {
  using namespace cuda_prim;
  T x[Shape::rows][Shape::vec];
  const int tile = blockIdx.x;
  cuda_kernels::load_tile<T, T, Shape>(x, in, n, tile, true, parprim::detail::identity_map{});
  const int my_offset = warp_id() * Shape::warp_items + lane_id() * Shape::vec;
  T* dst = out + static_cast<std::int64_t>(tile) * Shape::tile_items + my_offset;
#pragma unroll
  for (int k = 0; k < Shape::rows; ++k) store_unit(dst + k * warp_size * Shape::vec, x[k]);
}

using T = unsigned;
using Op = parprim::detail::plus_op<T>;
using shape3 = cuda_kernels::lookback_shape<T, cuda_tuning::scan_lookback_tuning<4>>;
using status_t = cuda_prim::tile_status<T>;

struct bufs {
  void* scratch;
  stamps st;
};

template <class Shape>
int tiles_of(long long n) { return int((n + Shape::tile_items - 1) / Shape::tile_items); }

template <class Shape, class Launch>
float timed(bufs& b, long long n, int reps, Launch launch, bool status = true) {
  std::vector<float> ms;
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  const int nt = tiles_of<Shape>(n);
  for (int r = 0; r < reps + 3; ++r) {
    CK(cudaEventRecord(e0));
    if (status) CK(cudaMemsetAsync(b.scratch, 0, 256 + status_t::bytes(nt)));
    status_t st = status_t::bind((char*)b.scratch + 256, nt);
    launch(st, (int*)b.scratch, nt);
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float t;
    CK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 3) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class Shape>
int resident_grid(const void* kernel) {
  int per_sm = 0, sms = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Shape::threads, 0));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return per_sm * sms;
}

template <class Shape, lb Mode>
float run_pipe2(bufs& b, const T* in, T* out, long long n, bool inclusive, int reps) {
  auto k = pipe2_kernel<T, Op, Shape, Mode>;
  const int grid = resident_grid<Shape>((const void*)k);
  const bool vec = cuda_prim::aligned16(in) && cuda_prim::aligned16(out);
  return timed<Shape>(b, n, reps, [&](status_t st, int* counter, int nt) {
    k<<<std::min(grid, nt), Shape::threads>>>(in, out, n, nt, st, counter, inclusive, inclusive ? 0u : 3u, vec, Op{});
  });
}

template <lb Mode, bool Timed>
float run_one(bufs& b, const T* in, T* out, long long n, bool inclusive, int reps) {
  const bool vec = cuda_prim::aligned16(in) && cuda_prim::aligned16(out);
  return timed<shape3>(b, n, reps, [&](status_t st, int* counter, int nt) {
    one_tile_kernel<T, Op, shape3, Mode, Timed><<<nt, shape3::threads>>>(
        in, out, n, nt, st, counter, inclusive, inclusive ? 0u : 3u, vec, Op{}, b.st);
  });
}

float run_lib(bufs& b, const T* in, T* out, long long n, bool inclusive, int reps) {
  const bool vec = cuda_prim::aligned16(in) && cuda_prim::aligned16(out);
  return timed<shape3>(b, n, reps, [&](status_t st, int* counter, int nt) {
    cuda_kernels::scan_kernel<T, T, parprim::detail::identity_map, Op, shape3><<<nt, shape3::threads>>>(
        in, out, n, nt, st, counter, inclusive, inclusive ? 0u : 3u, vec, 0u, in != out,
        parprim::detail::identity_map{}, Op{});
  });
}


template <int Stages>
float run_ws(bufs& b, const T* in, T* out, long long n, bool inclusive, int reps) {
  auto k = ws_kernel<T, Op, shape3, Stages>;
  const int bytes = int(sizeof(ws_smem<T, Op, shape3, Stages>));
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const bool vec = cuda_prim::aligned16(out);
  if (!cuda_prim::aligned16(in)) { printf("ws needs aligned input\n"); exit(1); }
  return timed<shape3>(b, n, reps, [&](status_t st, int* counter, int nt) {
    k<<<std::min(sms, nt), 2 * shape3::threads + 64, bytes>>>(in, out, n, nt, st, counter, inclusive, inclusive ? 0u : 3u, vec, Op{});
  });
}

bool oracle_ok(const std::vector<T>& x, const std::vector<T>& y, bool inclusive) {
  T acc = inclusive ? 0u : 3u;
  for (size_t i = 0; i < x.size(); ++i) {
    if (inclusive) acc += x[i];
    if (y[i] != acc) return false;
    if (!inclusive) acc += x[i];
  }
  return true;
}

std::vector<T> fetch(const T* d, long long n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

using pipe2_32x2 = cuda_kernels::lookback_shape<T, probe_tuning<256, 32, 2>>;
using pipe2_16x4 = cuda_kernels::lookback_shape<T, probe_tuning<256, 16, 4>>;
using pipe2_16x3 = cuda_kernels::lookback_shape<T, probe_tuning<256, 16, 3>>;

int check_sizes(bufs& b) {
  int bad = 0;
  for (long long n : {1LL, 8191LL, 8192LL, 8193LL, 3LL * 8192 + 5, 1000LL * 8192 + 17, 1LL << 24})
    for (int off : {0, 1}) {
      std::mt19937 g(unsigned(n) * 7 + off);
      std::vector<T> x(n);
      for (auto& v : x) v = g();
      T *din, *dout;
      CK(cudaMalloc(&din, (n + 4) * 4));
      CK(cudaMalloc(&dout, (n + 4) * 4));
      CK(cudaMemcpy(din + off, x.data(), n * 4, cudaMemcpyHostToDevice));
      for (bool inclusive : {true, false}) {
        auto check = [&](const char* name, auto run) {
          CK(cudaMemset(dout, 0xA5, (n + 4) * 4));
          run();
          CK(cudaDeviceSynchronize());
          const bool ok = oracle_ok(x, fetch(dout + off, n), inclusive);
          if (!ok) {
            ++bad;
            printf("MISMATCH %s n=%lld off=%d %s\n", name, n, off, inclusive ? "incl" : "excl");
          }
        };
        check("lib", [&] { run_lib(b, din + off, dout + off, n, inclusive, 1); });
        check("tree", [&] { run_one<lb::tree, false>(b, din + off, dout + off, n, inclusive, 1); });
        check("timed", [&] { run_one<lb::lib, true>(b, din + off, dout + off, n, inclusive, 1); });
        if (off == 0) {
          check("ws4", [&] { run_ws<4>(b, din + off, dout + off, n, inclusive, 1); });
          check("ws6", [&] { run_ws<6>(b, din + off, dout + off, n, inclusive, 1); });
        }

      }
      CK(cudaFree(din));
      CK(cudaFree(dout));
    }
  printf("checks: %d mismatches\n", bad);
  return bad;
}

void phase_report(bufs& b, long long n) {
  const int nt = tiles_of<shape3>(n);
  std::vector<unsigned long long> t(5ull * nt);
  std::vector<int> dist(nt);
  CK(cudaMemcpy(t.data(), b.st.t, t.size() * 8, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(dist.data(), b.st.dist, nt * 4, cudaMemcpyDeviceToHost));
  const char* names[4] = {"start -> local scan done (claim, load, phase 3)", "look-back (warp 0)",
                          "second barrier", "stores issued"};
  unsigned long long first = ~0ull, last = 0;
  for (int i = 0; i < nt; ++i) {
    first = std::min(first, t[5 * i]);
    last = std::max(last, t[5 * i + 4]);
  }
  double total_sum = 0;
  for (int i = 1; i < nt; ++i) total_sum += double(t[5 * i + 4] - t[5 * i]);
  printf("per tile (ns), tiles 1..%d, kernel span %.1f us:\n", nt - 1, (last - first) / 1e3);
  for (int ph = 0; ph < 4; ++ph) {
    std::vector<double> d;
    double sum = 0;
    for (int i = 1; i < nt; ++i) {
      d.push_back(double(t[5 * i + ph + 1] - t[5 * i + ph]));
      sum += d.back();
    }
    std::sort(d.begin(), d.end());
    printf("  %-50s median %7.0f  p10 %7.0f  p90 %7.0f  mean %7.0f  (%.1f%% of block time)\n", names[ph],
           d[d.size() / 2], d[d.size() / 10], d[d.size() * 9 / 10], sum / d.size(), 100.0 * sum / total_sum);
  }
  std::vector<int> dd;
  int slow = 0;
  for (int i = 1; i < nt; ++i) {
    if (dist[i] < 0) ++slow;
    else dd.push_back(dist[i]);
  }
  std::sort(dd.begin(), dd.end());
  if (!dd.empty())
    printf("  distance to the nearest inclusive prefix: median %d  p10 %d  p90 %d  max %d; slow path %d tiles\n",
           dd[dd.size() / 2], dd[dd.size() / 10], dd[dd.size() * 9 / 10], dd.back(), slow);
}

int main() {
  bufs b;
  CK(cudaMalloc(&b.scratch, 64 << 20));
  const long long N = 1LL << 28;
  CK(cudaMalloc(&b.st.t, 5ull * (N / 8192 + 2) * 8));
  CK(cudaMalloc(&b.st.dist, (N / 8192 + 2) * 4));
  int bad = check_sizes(b);
  T *din, *dout;
  CK(cudaMalloc(&din, N * 4));
  CK(cudaMalloc(&dout, N * 4));
  {
    std::vector<T> x(N);
    std::mt19937 g(42);
    for (auto& v : x) v = g();
    CK(cudaMemcpy(din, x.data(), N * 4, cudaMemcpyHostToDevice));
  }
  void* cub_tmp = nullptr;
  size_t cub_bytes = 0;
  CK(cub::DeviceScan::ExclusiveSum(nullptr, cub_bytes, din, dout, N));
  CK(cudaMalloc(&cub_tmp, cub_bytes));
  const int reps = 25;
  for (int round = 0; round < 1; ++round) {
    float memcpy_ms = timed<shape3>(b, N, reps, [&](status_t, int*, int) {
      CK(cudaMemcpyAsync(dout, din, N * 4, cudaMemcpyDeviceToDevice));
    }, false);
    auto row = [&](const char* name, float ms) {
      printf("  %-34s %.4f ms  %5.1f%% of memcpy  %.1f GB/s\n", name, ms, 100.0 * memcpy_ms / ms, 8.0 * N / ms / 1e6);
    };
    printf("round %d, u32 2^28 (each with its status memset; median of %d):\n", round + 1, reps);
    row("memcpy D2D", memcpy_ms);
    row("copy, 256 x 32 tiles @3", timed<shape3>(b, N, reps, [&](status_t, int*, int nt) {
          copy_kernel<T, shape3><<<nt, shape3::threads>>>(din, dout, N);
        }, false));
    row("cub ExclusiveSum", timed<shape3>(b, N, reps, [&](status_t, int*, int) {
          CK(cub::DeviceScan::ExclusiveSum(cub_tmp, cub_bytes, din, dout, N));
        }, false));
    row("lib exclusive", run_lib(b, din, dout, N, false, reps));
    row("lib inclusive", run_lib(b, din, dout, N, true, reps));
    row("probe copy of lib, exclusive", run_one<lb::lib, false>(b, din, dout, N, false, reps));
    row("no look-back (wrong), exclusive", run_one<lb::none, false>(b, din, dout, N, false, reps));
    row("tree window sum, exclusive", run_one<lb::tree, false>(b, din, dout, N, false, reps));
    row("ws 4 stages, exclusive", run_ws<4>(b, din, dout, N, false, reps));
    row("ws 5 stages, exclusive", run_ws<5>(b, din, dout, N, false, reps));
    row("ws 6 stages, exclusive", run_ws<6>(b, din, dout, N, false, reps));
    row("ws 6 stages, inclusive", run_ws<6>(b, din, dout, N, true, reps));
    row("stamped lib, exclusive", run_one<lb::lib, true>(b, din, dout, N, false, reps));
    phase_report(b, N);

  }
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, ws_kernel<T, Op, shape3, 6>));
  printf("ws6 regs %d local %zu smem %zu\n", fa.numRegs, fa.localSizeBytes, sizeof(ws_smem<T, Op, shape3, 6>));
  return bad ? 1 : 0;
}
