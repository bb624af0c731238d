// The Barnes-Hut tree passes on the CPU: the per-node functions of tree.hpp in OpenMP loops.
#include <omp.h>

#include <algorithm>

#include "tree.hpp"

namespace parprim::nbody::cpu_tree {
namespace {

using tree::node_moments;
using tree::vec4;

int workers(const context& ctx, std::int64_t work) { return work < (1 << 12) ? 1 : std::max(1, ctx.threads()); }

template <class T>
node_moments<T> moments_of(const tree::tree_arrays<T>& t, int id) {
  if (tree::is_internal(id, t.n)) return {t.com[id], t.box_lo[id], t.box_hi[id]};
  const vec4<T> b = t.bodies[id - (t.n - 1)];
  return {b, {b.x, b.y, b.z, T(0)}, {b.x, b.y, b.z, T(0)}};
}

}  // namespace

template <class T>
void pack(const context& ctx, const tree::body_arrays<T>& b, vec4<T>* out) {
  const int w = workers(ctx, b.n);
#pragma omp parallel for schedule(static) num_threads(w) if (w > 1)
  for (std::int64_t i = 0; i < b.n; ++i) out[i] = {b.x[i], b.y[i], b.z[i], b.m[i]};
}

template <class T>
void kick_drift(const context& ctx, const tree::body_arrays<T>& b, T half_dt, T dt) {
  const int w = workers(ctx, b.n);
#pragma omp parallel for schedule(static) num_threads(w) if (w > 1)
  for (std::int64_t i = 0; i < b.n; ++i) {
    b.vx[i] += b.ax[i] * half_dt, b.vy[i] += b.ay[i] * half_dt, b.vz[i] += b.az[i] * half_dt;
    b.x[i] += b.vx[i] * dt, b.y[i] += b.vy[i] * dt, b.z[i] += b.vz[i] * dt;
  }
}

template <class T>
void kick(const context& ctx, const tree::body_arrays<T>& b, T half_dt) {
  const int w = workers(ctx, b.n);
#pragma omp parallel for schedule(static) num_threads(w) if (w > 1)
  for (std::int64_t i = 0; i < b.n; ++i)
    b.vx[i] += b.ax[i] * half_dt, b.vy[i] += b.ay[i] * half_dt, b.vz[i] += b.az[i] * half_dt;
}

template <class T>
void build(const context& ctx, const tree::tree_arrays<T>& t) {
  const std::int64_t n = t.n;
  t.parent[0] = -1;
  t.skip[n - 1] = -1;
  const int w = workers(ctx, n);
#pragma omp parallel for schedule(static) num_threads(w) if (w > 1)
  for (std::int64_t i = 0; i < n - 1; ++i) tree::build_node(t, i);
}

// Bottom-up from every leaf: the second child to arrive at a node computes it and goes on up
// (the first stops), so each node is computed once, after both children, with no level
// synchronization. The acquire/release pair on the counter publishes the child's moments.
template <class T>
void moments(const context& ctx, const tree::tree_arrays<T>& t, T theta) {
  const std::int64_t n = t.n;
  if (n < 2) return;
  std::fill(t.arrivals, t.arrivals + (n - 1), 0u);
  const int w = workers(ctx, n);
#pragma omp parallel for schedule(static) num_threads(w) if (w > 1)
  for (std::int64_t j = 0; j < n; ++j) {
    int node = t.parent[n - 1 + j];
    while (node >= 0) {
      if (__atomic_fetch_add(&t.arrivals[node], 1u, __ATOMIC_ACQ_REL) == 0) break;
      T open2;
      tree::combine(moments_of(t, t.left[node]), moments_of(t, t.right[node]), theta, t.com[node],
                    t.box_lo[node], t.box_hi[node], open2);
      t.links[node].open2 = open2;
      t.links[node].escape = t.skip[t.last[node]];
      node = t.parent[node];
    }
  }
}

// Groups of walk_group consecutive (Morton-ordered, so nearby) bodies walk the tree together:
// a node is opened when any body of the group needs it, and each visited node is applied to
// the whole group in a SIMD loop.
template <class T>
void walk(const context& ctx, const tree::tree_arrays<T>& t, T eps2, T* ax, T* ay, T* az) {
  constexpr int g = tree::walk_group;
  const std::int64_t n = t.n, groups = (n + g - 1) / g;
  const int w = workers(ctx, n * 64);
#pragma omp parallel for schedule(dynamic, 4) num_threads(w) if (w > 1)
  for (std::int64_t grp = 0; grp < groups; ++grp) {
    const std::int64_t i0 = grp * g;
    const int lanes = static_cast<int>(std::min<std::int64_t>(g, n - i0));
    T px[g], py[g], pz[g], sx[g] = {}, sy[g] = {}, sz[g] = {};
    for (int l = 0; l < g; ++l) {  // idle lanes repeat the last body and are not stored
      const vec4<T> b = t.bodies[i0 + std::min(l, lanes - 1)];
      px[l] = b.x, py[l] = b.y, pz[l] = b.z;
    }
    int node = 0;
    while (node >= 0) {
      vec4<T> src;
      if (tree::is_internal(node, n)) {
        const tree::node_link<T> link = t.links[node];
        src = t.com[node];
        bool open = false;
#pragma omp simd reduction(|| : open)
        for (int l = 0; l < g; ++l) {
          const T dx = src.x - px[l], dy = src.y - py[l], dz = src.z - pz[l];
          open = open || dx * dx + dy * dy + dz * dz < link.open2;
        }
        if (open && link.left >= 0) {
          node = link.left;
          continue;
        }
        if (open) {  // a bucket: its bodies one by one
          const std::int64_t last = tree::last_body_before(link.escape, n);
          for (std::int64_t j = ~link.left; j <= last; ++j) {
            const vec4<T> b = t.bodies[j];
#pragma omp simd
            for (int l = 0; l < g; ++l) tree::attract(px[l], py[l], pz[l], b, eps2, sx[l], sy[l], sz[l]);
          }
          node = link.escape;
          continue;
        }
        node = link.escape;
      } else {
        const std::int64_t j = node - (n - 1);
        src = t.bodies[j];
        node = t.skip[j];
      }
#pragma omp simd
      for (int l = 0; l < g; ++l) tree::attract(px[l], py[l], pz[l], src, eps2, sx[l], sy[l], sz[l]);
    }
    for (int l = 0; l < lanes; ++l) ax[i0 + l] = sx[l], ay[i0 + l] = sy[l], az[i0 + l] = sz[l];
  }
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

}  // namespace parprim::nbody::cpu_tree
