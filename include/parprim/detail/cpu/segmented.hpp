// CPU body of the segmented primitives (detail/segmented.hpp), for any value type and
// associative operator: fixed blocks of the input, three phases.
//   1. each block folds its elements into a run state (heads seen, value since the last head,
//      tag of the last head);
//   2. the block states are scanned in block order (a few thousand at most);
//   3. each block walks its elements again from its exclusive prefix and writes. A run is
//      written when the next one starts (by the block holding that head) or at the end.
// Blocks depend on n only, so float results are the same on any number of threads; values
// are combined left to right, so the operator need not be commutative.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "parprim/context.hpp"
#include "parprim/detail/cpu/parallel.hpp"
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

// Finds heads of [begin, end) one element at a time, in order.
template <class V>
class head_finder {
 public:
  head_finder(const segments_job<V>& job, std::int64_t begin) : job_(job) {
    if (job.offsets) {
      const std::int64_t* o = job.offsets;
      segment_ = std::lower_bound(o, o + job.segments + 1, o[0] + begin) - o;
    }
  }
  // Whether element i starts a run, and its tag. With `write_empty`, empty segments met on
  // the way get init in reduced_out.
  bool head(std::int64_t i, std::int64_t& tag, bool write_empty) {
    tag = i;
    if (job_.offsets) return offsets_head(i, tag, write_empty);
    return i == 0 || job_.flags[i] != 0;
  }
  // Empty segments sitting at the end of the data (offsets[s] == offsets[segments]).
  void finish(bool write_empty) {
    std::int64_t tag;
    if (job_.offsets) offsets_head(job_.n, tag, write_empty);
  }

 private:
  bool offsets_head(std::int64_t i, std::int64_t& tag, bool write_empty) {
    const std::int64_t* o = job_.offsets;
    bool found = false;
    while (segment_ < job_.segments && o[segment_] - o[0] == i) {
      if (o[segment_ + 1] > o[segment_]) {
        found = true;
        tag = segment_;
      } else if (write_empty && job_.by_segment && job_.reduced_out) {
        job_.reduced_out[segment_] = job_.init;
      }
      ++segment_;
    }
    return found;
  }

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

// Writes the outputs of the run that `s` closes.
template <class V>
void close_run(const segments_job<V>& job, const state<V>& s) {
  const std::int64_t r = s.heads - 1;
  if (job.reduced_out) job.reduced_out[job.by_segment ? s.tag : r] = s.value;
}

// Runs the job with operator `op`; returns the number of runs.
template <class V, class Op>
std::int64_t run(const context& ctx, const segments_job<V>& job, Op op) {
  const std::int64_t n = job.n;
  const std::int64_t blocks = block_count(n, block_elements);
  std::vector<state<V>> prefix(static_cast<std::size_t>(blocks) + 1);
  if (n == 0) {  // only empty segments
    head_finder<V>(job, 0).finish(true);
    return 0;
  }

  // Phase 1: one state per block.
  blocked_for(ctx, n, block_elements, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    head_finder<V> heads(job, begin);
    state<V> s;
    for (std::int64_t i = begin; i < end; ++i) {
      std::int64_t tag;
      const bool h = heads.head(i, tag, false);
      step(s, job, i, h, tag, op);
    }
    prefix[b + 1] = s;
  });
  // Phase 2: exclusive prefixes in block order; prefix[blocks] is the whole input's state.
  for (std::int64_t b = 0; b < blocks; ++b) prefix[b + 1] = combine(prefix[b], prefix[b + 1], op);
  const std::int64_t runs = prefix[blocks].heads;

  // Phase 3: walk again from each block's prefix and write.
  const bool writes = job.reduced_out || job.scan_out;
  if (!writes) return runs;
  blocked_for(ctx, n, block_elements, [&](std::int64_t b, std::int64_t begin, std::int64_t end) {
    head_finder<V> heads(job, begin);
    // Floating-point values fold from the block's first element, and the outputs of the run
    // carried in from earlier blocks combine the prefix in: the running value stays one
    // block's sum (cpu/by_key.hpp's folds_within_block says why: one f32 segment of 2^26
    // values in [0, 1) otherwise ends half its sum short). From the block's first head on, s
    // is the whole prefix's state again and the loop is the plain one.
    const state<V>& carry = prefix[b];
    bool continuing = std::is_floating_point_v<V> && carry.valid;
    state<V> s = continuing ? state<V>{} : carry;
    for (std::int64_t i = begin; i < end; ++i) {
      std::int64_t tag;
      const bool h = heads.head(i, tag, true);
      if (continuing && h) {
        s = combine(carry, s, op);
        continuing = false;
      }
      if (h && s.valid) close_run(job, s);
      const V before = !continuing ? s.value : s.valid ? op(carry.value, s.value) : carry.value;
      step(s, job, i, h, tag, op);
      if (job.scan_out)
        job.scan_out[i] = job.inclusive ? (continuing ? op(carry.value, s.value) : s.value) : (h ? job.init : before);
    }
    if (end == n) {
      if (continuing) s = combine(carry, s, op);
      close_run(job, s);
      heads.finish(true);
    }
  });
  return runs;
}

}  // namespace parprim::detail::cpu::segments
