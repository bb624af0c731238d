// The Barnes-Hut tree: a binary radix tree over bodies sorted by Morton code (Karras,
// "Maximizing parallelism in the construction of BVHs, octrees, and k-d trees", HPG 2012),
// its monopole moments, and the force walk. The per-node algorithms are written once, here,
// as host/device functions; tree_cpu.cpp runs them in OpenMP loops and cuda/tree_kernels.cu in
// kernels, so both backends build the same tree and walk it the same way.
//
// Layout for n >= 1 sorted bodies: internal nodes 0 .. n-2 and leaves (one body each)
// 0 .. n-1. A node id is an internal index i (id < n - 1) or a leaf j (id = n - 1 + j); the
// root is id 0 (the only leaf when n = 1); id -1 ends a walk.
//
// The walk is stackless: a node's `escape` is the node that follows its subtree in
// depth-first order. A subtree whose leaves end at j is followed by the right child of the
// internal node that splits between j and j+1 (each split position belongs to exactly one
// internal node), so escape(range ending at j) = skip[j], written by the build, with
// skip[n-1] = -1.
#pragma once

#include <cmath>
#include <cstdint>

#include "cuda/kernels.hpp"  // vec4 (plain C++)
#include "parprim/context.hpp"

#if defined(__CUDACC__)
#define PARPRIM_BH_HD __host__ __device__ __forceinline__
#else
#define PARPRIM_BH_HD inline
#endif

namespace parprim::nbody::tree {

using cuda::vec4;

// Bodies of one walk group share every opening decision: a node is opened when any body of
// the group needs it. On the GPU the group is a warp (the decision is a warp vote, so the
// threads never diverge and every node load is one broadcast); the CPU uses the same groups,
// so both backends make the same decisions (their forces differ only by rounding).
inline constexpr int walk_group = 32;

// An opened node of at most this many bodies is not descended into: its bodies are summed
// directly, one after the other (contiguous in memory), which replaces up to 2 * 16 - 1 node
// visits, each a vote and two dependent loads, by 16 plain interactions (Bonsai's leaves hold
// up to 16 bodies for the same reason).
inline constexpr int leaf_bucket = 16;

// What the walk reads per internal node, in one 16-byte record: the opening radius squared
// and the two places to go next.
template <class T>
struct alignas(16) node_link {
  T open2;     // open the node when the distance to its centre of mass squared is below this
  int left;    // >= 0: the first child (node id); < 0: a bucket of bodies ~left .. (see below)
  int escape;  // the node after the subtree (node id, or -1)
};

// The last body of a subtree, from its escape: the subtree is followed by the node that
// starts at the next body (an internal node's range starts at its own index when it is a
// right child; a leaf's at its body), or by nothing when it ends at the last body.
PARPRIM_BH_HD std::int64_t last_body_before(int escape, std::int64_t n) {
  if (escape < 0) return n - 1;
  return (escape >= n - 1 ? escape - (n - 1) : escape) - 1;
}

// Every array of a tree; sizes in brackets. Device pointers on CUDA, host pointers on the CPU.
template <class T>
struct tree_arrays {
  std::int64_t n = 0;
  const std::uint64_t* codes = nullptr;  // [n] sorted Morton codes
  const vec4<T>* bodies = nullptr;       // [n] sorted bodies: position and mass (w)
  int* left = nullptr;                   // [n-1] child node ids
  int* right = nullptr;                  // [n-1]
  int* last = nullptr;                   // [n-1] the last leaf of each internal node's range
  int* parent = nullptr;                 // [2n-1] parent of each node id (-1 for the root)
  int* skip = nullptr;                   // [n] skip[j]: the node after a range ending at leaf j
  unsigned* arrivals = nullptr;          // [n-1] bottom-up pass: children done (zeroed first)
  vec4<T>* com = nullptr;                // [n-1] centre of mass (xyz) and total mass (w)
  vec4<T>* box_lo = nullptr;             // [n-1] bounding box of the node's bodies
  vec4<T>* box_hi = nullptr;             // [n-1]
  node_link<T>* links = nullptr;         // [n-1]
};

PARPRIM_BH_HD int count_leading_zeros(std::uint64_t v) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(v));
#else
  return v ? __builtin_clzll(v) : 64;
#endif
}
PARPRIM_BH_HD int count_leading_zeros(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __clz(static_cast<int>(v));
#else
  return v ? __builtin_clz(v) : 32;
#endif
}

// Length of the common prefix of keys i and j, -1 outside [0, n). Equal codes are told apart
// by their indices (the key is the code followed by the index), so every key is distinct and
// the tree is well formed even when bodies share a Morton cell or a position.
PARPRIM_BH_HD int common_prefix(const std::uint64_t* codes, std::int64_t n, std::int64_t i, std::int64_t j) {
  if (j < 0 || j >= n) return -1;
  const std::uint64_t a = codes[i], b = codes[j];
  if (a != b) return count_leading_zeros(a ^ b);
  return 64 + count_leading_zeros(static_cast<std::uint32_t>(i ^ j));
}

// Internal node i: its range of leaves, found from i alone (the direction by comparing with
// both neighbours, the far end by an exponential then a binary search), and its split: the
// last leaf that shares more than the range's common prefix with the first (binary search).
// Writes the node's children and range end, the children's parent, skip[split], and the
// walk's `left` (a child, or the first body of a bucket).
template <class T>
PARPRIM_BH_HD void build_node(const tree_arrays<T>& t, std::int64_t i) {
  const std::uint64_t* k = t.codes;
  const std::int64_t n = t.n;
  const std::int64_t d = common_prefix(k, n, i, i + 1) - common_prefix(k, n, i, i - 1) > 0 ? 1 : -1;
  const int floor_prefix = common_prefix(k, n, i, i - d);
  std::int64_t reach = 2;
  while (common_prefix(k, n, i, i + reach * d) > floor_prefix) reach *= 2;
  std::int64_t length = 0;
  for (std::int64_t step = reach / 2; step >= 1; step /= 2)
    if (common_prefix(k, n, i, i + (length + step) * d) > floor_prefix) length += step;
  const std::int64_t j = i + length * d;
  const int node_prefix = common_prefix(k, n, i, j);
  std::int64_t s = 0, step = length;
  do {
    step = (step + 1) / 2;
    if (common_prefix(k, n, i, i + (s + step) * d) > node_prefix) s += step;
  } while (step > 1);
  const std::int64_t split = i + s * d + (d < 0 ? -1 : 0);
  const std::int64_t first = d > 0 ? i : j, last = d > 0 ? j : i;
  const int leaf0 = static_cast<int>(n - 1);
  const int l = static_cast<int>(first == split ? leaf0 + split : split);
  const int r = static_cast<int>(last == split + 1 ? leaf0 + split + 1 : split + 1);
  t.left[i] = l;
  t.right[i] = r;
  t.last[i] = static_cast<int>(last);
  t.links[i].left = last - first + 1 <= leaf_bucket ? ~static_cast<int>(first) : l;
  t.parent[l] = static_cast<int>(i);
  t.parent[r] = static_cast<int>(i);
  t.skip[split] = r;
}

template <class T>
PARPRIM_BH_HD T lesser(T a, T b) { return b < a ? b : a; }
template <class T>
PARPRIM_BH_HD T greater(T a, T b) { return a < b ? b : a; }

// The moments of a node as its parent sees them: centre of mass and mass, and bounding box
// (a leaf's box is its body's position).
template <class T>
struct node_moments {
  vec4<T> com, lo, hi;
};

// Internal node i from its two children: mass-weighted centre (the midpoint of the children's
// centres when both are massless, so zero-mass bodies still have a finite place), the union
// of the boxes, and the opening radius r = size / theta + delta, where size is the box's
// longest edge and delta the distance from the centre of mass to the box's centre (Barnes
// 1994: without delta a lopsided node could be accepted by a body just outside it). theta = 0
// gives r = infinity: every node is opened and the walk is the exact all-pairs sum.
template <class T>
PARPRIM_BH_HD void combine(const node_moments<T>& a, const node_moments<T>& b, T theta, vec4<T>& com,
                           vec4<T>& lo, vec4<T>& hi, T& open2) {
  const T mass = a.com.w + b.com.w;
  const T wb = mass > T(0) ? b.com.w / mass : T(0.5);
  com.x = a.com.x + (b.com.x - a.com.x) * wb;
  com.y = a.com.y + (b.com.y - a.com.y) * wb;
  com.z = a.com.z + (b.com.z - a.com.z) * wb;
  com.w = mass;
  lo.x = lesser(a.lo.x, b.lo.x), lo.y = lesser(a.lo.y, b.lo.y), lo.z = lesser(a.lo.z, b.lo.z), lo.w = 0;
  hi.x = greater(a.hi.x, b.hi.x), hi.y = greater(a.hi.y, b.hi.y), hi.z = greater(a.hi.z, b.hi.z), hi.w = 0;
  const T size = greater(hi.x - lo.x, greater(hi.y - lo.y, hi.z - lo.z));
  const T cx = com.x - (lo.x + hi.x) / 2, cy = com.y - (lo.y + hi.y) / 2, cz = com.z - (lo.z + hi.z) / 2;
  const T delta = std::sqrt(cx * cx + cy * cy + cz * cz);
  const T r = theta > T(0) ? size / theta + delta : T(INFINITY);
  open2 = r * r;  // overflows to infinity for enormous nodes: they are always opened
}

// The softened attraction of a source (position, mass in w) on a body at (px, py, pz), added
// to (ax, ay, az). A source at distance zero without softening adds nothing (as in the
// all-pairs kernels).
template <class T>
PARPRIM_BH_HD void attract(T px, T py, T pz, const vec4<T>& src, T eps2, T& ax, T& ay, T& az) {
  const T dx = src.x - px, dy = src.y - py, dz = src.z - pz;
  const T r2 = dx * dx + dy * dy + dz * dz + eps2;
#if defined(__CUDA_ARCH__)
  // The hardware reciprocal square root (as the all-pairs kernels): the walk is bound by its
  // node loads, not by this arithmetic, but an IEEE sqrt and division cost ~20 instructions.
  T inv;
  if constexpr (sizeof(T) == 4) inv = rsqrtf(r2);
  else inv = rsqrt(r2);
#else
  const T inv = T(1) / std::sqrt(r2);
#endif
  const T s = r2 > T(0) ? src.w * inv * inv * inv : T(0);
  ax += dx * s, ay += dy * s, az += dz * s;
}

PARPRIM_BH_HD bool is_internal(int id, std::int64_t n) { return id < n - 1; }

// Bodies in the order of the tree (structure of arrays) and their accelerations.
template <class T>
struct body_arrays {
  std::int64_t n = 0;
  T *x = nullptr, *y = nullptr, *z = nullptr, *m = nullptr;
  T *vx = nullptr, *vy = nullptr, *vz = nullptr;
  T *ax = nullptr, *ay = nullptr, *az = nullptr;
};

}  // namespace parprim::nbody::tree

namespace parprim::nbody::cpu_tree {

// One pass each, in OpenMP loops, on host arrays (tree_cpu.cpp). `theta` as in combine.
// out[i] = (x, y, z, m)[i]: the bodies as the walk reads them, one 16- or 32-byte load each.
template <class T>
void pack(const context& ctx, const tree::body_arrays<T>& b, tree::vec4<T>* out);
// Leapfrog pieces on the arrays: v += a h, x += v dt; and v += a h.
template <class T>
void kick_drift(const context& ctx, const tree::body_arrays<T>& b, T half_dt, T dt);
template <class T>
void kick(const context& ctx, const tree::body_arrays<T>& b, T half_dt);
template <class T>
void build(const context& ctx, const tree::tree_arrays<T>& t);
template <class T>
void moments(const context& ctx, const tree::tree_arrays<T>& t, T theta);
// Accelerations of every sorted body, by the group walk.
template <class T>
void walk(const context& ctx, const tree::tree_arrays<T>& t, T eps2, T* ax, T* ay, T* az);

}  // namespace parprim::nbody::cpu_tree

#if PARPRIM_HAVE_CUDA
namespace parprim::nbody::cuda_tree {

// The same passes as kernels on the context's stream (cuda/tree_kernels.cu); none waits.
// out[i] = (x, y, z, m)[i]: the bodies as the walk reads them, one 16- or 32-byte load each.
template <class T>
void pack(const context& ctx, const tree::body_arrays<T>& b, tree::vec4<T>* out);
// Leapfrog pieces on the arrays: v += a h, x += v dt; and v += a h.
template <class T>
void kick_drift(const context& ctx, const tree::body_arrays<T>& b, T half_dt, T dt);
template <class T>
void kick(const context& ctx, const tree::body_arrays<T>& b, T half_dt);
template <class T>
void build(const context& ctx, const tree::tree_arrays<T>& t);
template <class T>
void moments(const context& ctx, const tree::tree_arrays<T>& t, T theta);
template <class T>
void walk(const context& ctx, const tree::tree_arrays<T>& t, T eps2, T* ax, T* ay, T* az);

}  // namespace parprim::nbody::cuda_tree
#endif
