// What the by-key, unique and run-length primitives share (by_key.hpp, unique.hpp): the
// description of one call that both bodies run (detail/cpu/by_key.hpp, cuda/by_key.cuh), and
// the run state and its segmented operator.
//
// A run is a maximal stretch of consecutive elements whose keys are equal under the caller's
// equality; element 0 starts one. Four kinds of work:
//   reduce: per run, its first key and the fold of its values;
//   scan:   per element, the fold of its run's values up to it (inclusive) or before it
//           (exclusive, from init);
//   heads:  per run, its first key and optionally its first value (unique, unique_by_key,
//           unique_count);
//   lengths: per run, its first key and its length (run_length_encode; V = int64, no values
//           read: a run's length is the fold of a one per element under +).
#pragma once

#include <cstdint>

#include "parprim/detail/generic.hpp"
#include "parprim/detail/op_functors.hpp"

namespace parprim::detail {

struct runs_tag { static constexpr const char* header = "parprim/cuda/by_key.cuh"; };

enum class runs_kind { reduce, scan, heads, lengths };

template <class K, class V>
struct runs_io {
  std::int64_t n = 0;
  const K* keys = nullptr;
  // reduce, scan: folded; heads: copied at each run's first element, or null; lengths: null.
  const V* values = nullptr;
  K* keys_out = nullptr;    // per run: its first key (null: not written)
  V* values_out = nullptr;  // per run (reduce, heads, lengths) or per element (scan); null: not written
  std::int64_t capacity = 0;  // outputs indexed by run are written below this index only
  // The _into forms: backend memory that receives the run count, stream-ordered (on CUDA the
  // last tile's store, where the count would otherwise wait in scratch to be copied to the
  // host); null: the count returns to the host.
  std::int64_t* count_out = nullptr;
  bool inclusive = true;      // scan
  V init{};                   // exclusive scan: the value before every run
};

// A run state: heads seen, fold of the values since the last head (or since the start of
// the stretch when it holds no head), and whether it covers any element at all (the
// identity covers none, so the caller's operator needs no identity).
template <class V>
struct run_state {
  std::int64_t heads;
  V value;
  std::uint32_t valid;
};

// The segmented operator: associative, not commutative; a head in b restarts the fold.
template <class V, class Op>
struct segmented_op {
  Op op;
  PARPRIM_HD run_state<V> operator()(const run_state<V>& a, const run_state<V>& b) const {
    if (!b.valid) return a;
    if (!a.valid) return b;
    run_state<V> r = b;
    r.heads = a.heads + b.heads;
    if (b.heads == 0) r.value = op(a.value, b.value);
    return r;
  }
  static PARPRIM_HD run_state<V> identity() { return run_state<V>{0, V{}, 0}; }
};

// The operator of the heads kind, which folds no values (it keeps the left operand).
struct no_fold {
  template <class V>
  PARPRIM_HD V operator()(const V& a, const V&) const {
    return a;
  }
};

// Adds element value x to s in place; `head` restarts the fold.
template <class V, class Op>
PARPRIM_HD void fold_element(run_state<V>& s, bool head, const V& x, const Op& op) {
  if (head) {
    s.value = x;
    ++s.heads;
  } else {
    s.value = s.valid ? op(s.value, x) : x;
  }
  s.valid = 1;
}

}  // namespace parprim::detail
