// The Barnes-Hut tree passes on the GPU: the per-node functions of tree.hpp in kernels.
//
// build     one thread per internal node (Karras 2012), no synchronization between nodes.
// moments   one thread per leaf climbs towards the root; at each node an atomic counter lets
//           the second child's thread through (the first stops), so a node is computed once,
//           after both children. Children's moments are read past the L1 cache (__ldcg): they
//           were written by other blocks of the same kernel.
// walk      one thread per body, bodies in Morton order, a warp per group of 32: the opening
//           decision is a warp vote, so `node` stays warp-uniform (no divergence, and each
//           node record is one broadcast load for the whole warp). Stackless: the next node is
//           read from the node itself (its left child or its escape); an opened node of at
//           most leaf_bucket bodies is summed body by body.
#include <cuda_runtime.h>

#include <algorithm>

#include "../tree.hpp"
#include "parprim/cuda/detail/check.hpp"

namespace parprim::nbody::cuda_tree {
namespace {

using tree::node_moments;
using tree::vec4;

struct tree_tuning {
  static constexpr int block = 256;       // build, moments, pack, integrate
  static constexpr int walk_block = 128;  // 4 warps: small blocks keep the tail of the grid short
};
static_assert(tree_tuning::walk_block % tree::walk_group == 0, "the walk needs whole warps");
static_assert(tree::walk_group == 32, "the GPU walk group is a warp");

cudaStream_t stream_of(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }

unsigned blocks_for(std::int64_t threads, int block) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, (threads + block - 1) / block));
}

// A 16- or 32-byte record written by another block of the running kernel: load from L2.
template <class T>
__device__ vec4<T> load_from_l2(const vec4<T>* p) {
  if constexpr (sizeof(T) == 4) {
    const float4 v = __ldcg(reinterpret_cast<const float4*>(p));
    return {v.x, v.y, v.z, v.w};
  } else {
    const double2* q = reinterpret_cast<const double2*>(p);
    const double2 a = __ldcg(q), b = __ldcg(q + 1);
    return {a.x, a.y, b.x, b.y};
  }
}

template <class T>
__device__ node_moments<T> child_moments(const tree::tree_arrays<T>& t, int id) {
  if (tree::is_internal(id, t.n)) return {load_from_l2(t.com + id), load_from_l2(t.box_lo + id), load_from_l2(t.box_hi + id)};
  const vec4<T> b = t.bodies[id - (t.n - 1)];
  return {b, {b.x, b.y, b.z, T(0)}, {b.x, b.y, b.z, T(0)}};
}

template <class T>
__global__ void __launch_bounds__(tree_tuning::block) pack_kernel(tree::body_arrays<T> b, vec4<T>* out) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < b.n) out[i] = {b.x[i], b.y[i], b.z[i], b.m[i]};
}

template <class T>
__global__ void __launch_bounds__(tree_tuning::block) kick_drift_kernel(tree::body_arrays<T> b, T half_dt, T dt) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= b.n) return;
  const T vx = b.vx[i] + b.ax[i] * half_dt, vy = b.vy[i] + b.ay[i] * half_dt, vz = b.vz[i] + b.az[i] * half_dt;
  b.vx[i] = vx, b.vy[i] = vy, b.vz[i] = vz;
  b.x[i] += vx * dt, b.y[i] += vy * dt, b.z[i] += vz * dt;
}

template <class T>
__global__ void __launch_bounds__(tree_tuning::block) kick_kernel(tree::body_arrays<T> b, T half_dt) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= b.n) return;
  b.vx[i] += b.ax[i] * half_dt, b.vy[i] += b.ay[i] * half_dt, b.vz[i] += b.az[i] * half_dt;
}

template <class T>
__global__ void __launch_bounds__(tree_tuning::block) build_kernel(tree::tree_arrays<T> t) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < t.n - 1) tree::build_node(t, i);
}

template <class T>
__global__ void __launch_bounds__(tree_tuning::block) moments_kernel(tree::tree_arrays<T> t, T theta) {
  const std::int64_t j = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= t.n) return;
  int node = t.parent[t.n - 1 + j];
  while (node >= 0) {
    // Publish this thread's last node before the counter lets the sibling's thread read it.
    __threadfence();
    if (atomicAdd(&t.arrivals[node], 1u) == 0) return;
    __threadfence();
    T open2;
    tree::combine(child_moments(t, t.left[node]), child_moments(t, t.right[node]), theta, t.com[node], t.box_lo[node],
                  t.box_hi[node], open2);
    t.links[node].open2 = open2;
    t.links[node].escape = t.skip[t.last[node]];
    node = t.parent[node];
  }
}

template <class T>
__global__ void __launch_bounds__(tree_tuning::walk_block)
    walk_kernel(tree::tree_arrays<T> t, T eps2, T* __restrict__ ax, T* __restrict__ ay, T* __restrict__ az) {
  const std::int64_t n = t.n;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if ((i & ~std::int64_t(31)) >= n) return;  // a whole warp past the end (uniform per warp)
  // Lanes past the end repeat the last body (so every vote has 32 voters) and store nothing.
  const vec4<T> me = t.bodies[i < n ? i : n - 1];
  T sx = 0, sy = 0, sz = 0;
  int node = 0;
  while (node >= 0) {
    vec4<T> src;
    if (tree::is_internal(node, n)) {
      const tree::node_link<T> link = t.links[node];
      src = t.com[node];
      const T dx = src.x - me.x, dy = src.y - me.y, dz = src.z - me.z;
      if (__any_sync(0xffffffffu, dx * dx + dy * dy + dz * dz < link.open2)) {
        if (link.left >= 0) {
          node = link.left;
          continue;
        }
        // A bucket: its bodies one by one (each load a broadcast to the warp).
        const std::int64_t last = tree::last_body_before(link.escape, n);
        for (std::int64_t j = ~link.left; j <= last; ++j) tree::attract(me.x, me.y, me.z, t.bodies[j], eps2, sx, sy, sz);
        node = link.escape;
        continue;
      }
      node = link.escape;
    } else {
      const std::int64_t j = node - (n - 1);
      src = t.bodies[j];
      node = t.skip[j];
    }
    tree::attract(me.x, me.y, me.z, src, eps2, sx, sy, sz);
  }
  if (i < n) ax[i] = sx, ay[i] = sy, az[i] = sz;
}

}  // namespace

template <class T>
void pack(const context& ctx, const tree::body_arrays<T>& b, vec4<T>* out) {
  pack_kernel<T><<<blocks_for(b.n, tree_tuning::block), tree_tuning::block, 0, stream_of(ctx)>>>(b, out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::barnes_hut pack");
}

template <class T>
void kick_drift(const context& ctx, const tree::body_arrays<T>& b, T half_dt, T dt) {
  kick_drift_kernel<T><<<blocks_for(b.n, tree_tuning::block), tree_tuning::block, 0, stream_of(ctx)>>>(b, half_dt, dt);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::barnes_hut kick_drift");
}

template <class T>
void kick(const context& ctx, const tree::body_arrays<T>& b, T half_dt) {
  kick_kernel<T><<<blocks_for(b.n, tree_tuning::block), tree_tuning::block, 0, stream_of(ctx)>>>(b, half_dt);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::barnes_hut kick");
}

// The root has no parent and nothing follows a range that ends at the last leaf: both -1
// (all bits set) before the nodes fill in the rest.
template <class T>
void build(const context& ctx, const tree::tree_arrays<T>& t) {
  ctx.fill_bytes(t.parent, 0xFF, sizeof(int));
  ctx.fill_bytes(t.skip + (t.n - 1), 0xFF, sizeof(int));
  if (t.n < 2) return;
  build_kernel<T><<<blocks_for(t.n - 1, tree_tuning::block), tree_tuning::block, 0, stream_of(ctx)>>>(t);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::barnes_hut build");
}

template <class T>
void moments(const context& ctx, const tree::tree_arrays<T>& t, T theta) {
  if (t.n < 2) return;
  ctx.fill_bytes(t.arrivals, 0, sizeof(unsigned) * std::size_t(t.n - 1));
  moments_kernel<T><<<blocks_for(t.n, tree_tuning::block), tree_tuning::block, 0, stream_of(ctx)>>>(t, theta);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::barnes_hut moments");
}

template <class T>
void walk(const context& ctx, const tree::tree_arrays<T>& t, T eps2, T* ax, T* ay, T* az) {
  walk_kernel<T><<<blocks_for(t.n, tree_tuning::walk_block), tree_tuning::walk_block, 0, stream_of(ctx)>>>(t, eps2, ax,
                                                                                                          ay, az);
  PARPRIM_LAUNCH_CHECK(ctx.state(), "nbody::barnes_hut walk");
}

#define PARPRIM_INSTANTIATE(T)                                                             \
  template void pack<T>(const context&, const tree::body_arrays<T>&, vec4<T>*);           \
  template void kick_drift<T>(const context&, const tree::body_arrays<T>&, T, T);         \
  template void kick<T>(const context&, const tree::body_arrays<T>&, T);                  \
  template void build<T>(const context&, const tree::tree_arrays<T>&);                    \
  template void moments<T>(const context&, const tree::tree_arrays<T>&, T);               \
  template void walk<T>(const context&, const tree::tree_arrays<T>&, T, T*, T*, T*);
PARPRIM_INSTANTIATE(float)
PARPRIM_INSTANTIATE(double)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::nbody::cuda_tree
