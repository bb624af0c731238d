// The primitives over a device_group: data in dist_buffers, one slice per rank.
//
// Each call runs every local rank's part on its own host thread, does the rank's local work
// with the single-context primitives and exchanges through the group's communicator. All
// calls return with the work complete (the host waits for every local rank).
//
// Cost: reduce reads every slice once; the scans read it once (the slice's reduction, whose
// total every rank needs before it can scan) and then scan it seeded with its prefix (a read
// and a write), against a read and a write for the single-context scan: with P GPUs the scans
// are bounded by (2/3) P times one GPU (2.67x on 4), reduce by P, less the exchange of the
// totals (one NCCL call of a few bytes, tens of microseconds).
//
// What equals the single-context result, bit for bit:
//   - sort: always (keys and values), any type, any slicing: the output is the stable sort of
//     the concatenated slices, cut back into slices of the input sizes;
//   - gather and scatter: always;
//   - reduce and scan of integers: always (wrapping plus, min and max are associative);
//   - reduce and scan of floats: when at most one rank holds elements (1 rank, or all data on
//     one rank). Otherwise float results follow this documented order, identical from run to
//     run (they depend on the slice sizes, never on timing):
//       reduce:   L_r = reduce(slice r) on rank r's context; the result is the left fold
//                 L_a op L_b op ... over the non-empty slices a < b < ... in rank order.
//       exclusive_scan: E_r = init op L_a op L_b ... over the non-empty slices before r
//                 (L as above); slice r = exclusive_scan(slice r, init = E_r).
//       inclusive_scan: on the first non-empty slice, inclusive_scan(slice); on a later slice
//                 r, inclusive_scan(slice r, init = P_r), P_r the left fold of L over the
//                 non-empty slices before it.
//     Single-context float scans and reductions combine in an order fixed by n and the
//     kernels' tile shapes (docs/ARCHITECTURE.md, Reproducibility); a slice boundary that
//     falls inside a tile has no equivalent there, so float equality for any slicing would
//     need every rank to rescan across its neighbours' tiles.
//
// Errors (parprim::error, before any communication): a dist_buffer of another group, slices
// whose sizes disagree (in/out, keys/values), indices outside the distributed array.
#pragma once

#include <cstdint>
#include <vector>

#include "parprim/gather_scatter.hpp"
#include "parprim/group.hpp"
#include "parprim/ops.hpp"
#include "parprim/sort.hpp"

namespace parprim::dist {

template <class T>
T reduce(const device_group& g, const dist_buffer<T>& in, op o = op::plus);
// The result in out's slice of every rank, element 0 (out: one element per rank).
template <class T>
void reduce_into(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out,
                 op o = op::plus);

// out may be in itself (in place). in and out must have the same slice sizes.
template <class T>
void inclusive_scan(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out,
                    op o = op::plus);
template <class T>
void exclusive_scan(const device_group& g, const dist_buffer<T>& in, dist_buffer<T>& out,
                    T init = T{}, op o = op::plus);

// Stable sort of the distributed array, in place: afterwards rank r holds positions
// [offset(r), offset(r) + count(r)) of the globally sorted sequence, so every rank keeps its
// slice size exactly (the output is as balanced as the input; the splitters are exact
// global ranks, found by bisection over the key order, not samples). Order, bit range and key
// rules as in parprim/sort.hpp. Steps: local sort; exact splitters (each round counts every
// rank's keys at or below 255 candidates per target with a binary search, so 8 bits a round);
// the all-to-all of the sorted runs in up to 8 chunks per destination, on a second stream of
// each GPU; each chunk's received runs merged stably (source-rank order breaks ties, so equal
// keys keep their global input order) while the next chunk crosses: a tree of 2-way merges
// (the library's merge over the whole key), ceil(log2 P) passes over the slice instead of a
// second radix sort.
//
// phases (optional): resized to g.size(); each local rank r fills phases[r] with host wall
// clock times of its steps, each ended by a wait for the rank's device (steps that depend on
// one another, so the waits add only a launch gap). What `parprim bench distributed` reports.
struct sort_phase_ms {
  double local_sort = 0;  // the rank's own slice sorted
  double splitters = 0;   // the exact splitter search (one allgather of counts per round)
  double exchange = 0;    // until the last chunk has arrived (the merges of the earlier chunks
                          // run meanwhile)
  double merge = 0;       // the merging left after that: the last chunk's, and any backlog
};
template <class K>
void radix_sort(const device_group& g, dist_buffer<K>& keys, sort_order order = sort_order::ascending,
                int begin_bit = 0, int end_bit = -1, std::vector<sort_phase_ms>* phases = nullptr);
template <class K, class V>
void radix_sort_pairs(const device_group& g, dist_buffer<K>& keys, dist_buffer<V>& values,
                      sort_order order = sort_order::ascending, int begin_bit = 0, int end_bit = -1,
                      std::vector<sort_phase_ms>* phases = nullptr);

// Global indices into the whole distributed array (0 .. values.size() - 1):
//   gather:  out[i] = values[indices[i]]   (out sliced like indices)
//   scatter: out[indices[i]] = values[i]   (values sliced like indices)
// Requests are sorted by index, sent to the owning rank in one all-to-all, served with the
// local gather/scatter, and (gather) sent back. Duplicate scatter indices: which value lands is
// unspecified, as in the single-context scatter. Element types: the six; index types i32, i64.
template <class T, class I>
void gather(const device_group& g, const dist_buffer<T>& values, const dist_buffer<I>& indices,
            dist_buffer<T>& out);
template <class T, class I>
void scatter(const device_group& g, const dist_buffer<T>& values, const dist_buffer<I>& indices,
             dist_buffer<T>& out);

}  // namespace parprim::dist
