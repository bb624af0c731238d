// The run state of the CPU segmented primitives (cpu/segmented.hpp) and the steps shared by
// their phases: a block's state and how two combine, the heads of a block in order, and the
// folds of the stretches between heads.
#pragma once

#include <algorithm>
#include <cstdint>

#include "parprim/detail/cpu/reduce.hpp"
#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/segmented.hpp"

namespace parprim::detail::cpu::segments {

inline constexpr std::int64_t block_elements = 1 << 16;

template <class V>
struct state {
  V value{};                // fold since the last head (or since the start of the block)
  std::int64_t heads = 0;   // heads seen
  std::int64_t tag = 0;     // tag of the last head
  bool valid = false;       // false: no element yet (the identity)
};

// The segmented operator: a later head restarts the fold.
template <class V, class Op>
state<V> combine(const state<V>& a, const state<V>& b, Op op) {
  if (!b.valid) return a;
  if (!a.valid) return b;
  state<V> r;
  r.valid = true;
  r.heads = a.heads + b.heads;
  if (b.heads > 0) {
    r.value = b.value;
    r.tag = b.tag;
  } else {
    r.value = op(a.value, b.value);
    r.tag = a.tag;
  }
  return r;
}

// Finds the heads of a block in order, a stretch at a time.
template <class V>
class head_finder {
 public:
  head_finder(const segments_job<V>& job, std::int64_t begin) : job_(job) {
    if (job.offsets) {
      const std::int64_t* o = job.offsets;
      segment_ = std::lower_bound(o, o + job.segments + 1, o[0] + begin) - o;
    }
  }
  // The first head in [i, end) (end if none) and its tag: the head's position with flags, its
  // segment with offsets. With `write_empty`, empty segments passed on the way get init in
  // reduced_out.
  std::int64_t next(std::int64_t i, std::int64_t end, std::int64_t& tag, bool write_empty) {
    if (!job_.offsets) {
      for (; i < end; ++i)
        if (i == 0 || job_.flags[i] != 0) {
          tag = i;
          return i;
        }
      return end;
    }
    const std::int64_t* o = job_.offsets;
    for (; segment_ < job_.segments; ++segment_) {
      const std::int64_t start = o[segment_] - o[0];
      if (start >= end) return end;
      if (o[segment_ + 1] > o[segment_]) {
        tag = segment_++;
        return start;
      }
      if (write_empty && job_.by_segment && job_.reduced_out) job_.reduced_out[segment_] = job_.init;
    }
    return end;
  }
  // Empty segments sitting at the end of the data (offsets[s] == offsets[segments]).
  void finish(bool write_empty) {
    std::int64_t tag;
    if (job_.offsets) next(job_.n, job_.n + 1, tag, write_empty);
  }

 private:
  const segments_job<V>& job_;
  std::int64_t segment_ = 0;
};

// Folds element i into s in place (state copies per element stalled on store forwarding).
template <class V, class Op>
inline void step(state<V>& s, const segments_job<V>& job, std::int64_t i, bool head,
                 std::int64_t tag, Op op) {
  V v{};
  if (job.values) v = head && job.has_init ? op(job.init, job.values[i]) : job.values[i];
  if (head) {
    s.value = v;
    ++s.heads;
    s.tag = tag;
  } else {
    s.value = s.valid ? op(s.value, v) : v;
  }
  s.valid = true;
}

// Stretches this long fold in reduce_range's eight accumulators (cpu/reduce.hpp: interleaved
// under the library's operators, contiguous eighths combined in order under any other), not
// in one chain: a chain of f32 adds waits ~4 cycles per element. segmented_reduce of 2^24 f32
// on 2 threads: segments of 4096 7.1 -> 1.5-1.6 ms, one segment 7.1 -> 1.6 ms, of 256
// 5.7 -> 1.5-1.6 ms (bench segmented).
inline constexpr std::int64_t lanes_from = 64;

// acc op x[i] op ... op x[h - 1].
template <class V, class Op>
V fold_values(const V* x, std::int64_t i, std::int64_t h, V acc, Op op) {
  if (h - i >= lanes_from) return op(acc, reduce_range<V>(x, i, h, identity_map{}, op));
  for (; i < h; ++i) acc = op(acc, x[i]);
  return acc;
}

// Folds the elements [i, h), none of them a head, into s. Heads are found a stretch at a time
// and the values between them folded in a plain loop: with the head test and the state update
// on every element, segmented_reduce in segments of 32 took 5.9 ms on 2 threads for 2^22 u32
// where the sequential loop took 0.8 ms.
template <class V, class Op>
inline void fold_stretch(state<V>& s, const segments_job<V>& job, std::int64_t i, std::int64_t h, Op op) {
  if (i < h && (!s.valid || !job.values)) step(s, job, i++, false, 0, op);
  if (i >= h || !job.values) {
    for (; i < h; ++i) step(s, job, i, false, 0, op);
    return;
  }
  s.value = fold_values(job.values, i, h, s.value, op);
}

// Writes the outputs of the run that `s` closes.
template <class V>
void close_run(const segments_job<V>& job, const state<V>& s) {
  const std::int64_t r = s.heads - 1;
  if (job.reduced_out) job.reduced_out[job.by_segment ? s.tag : r] = s.value;
}

}  // namespace parprim::detail::cpu::segments
