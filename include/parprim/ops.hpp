// The operators and algorithm choices shared by the primitives.
#pragma once

namespace parprim {

// Associative operators for reduce and scan. Each has an identity: 0, +max, lowest.
enum class op { plus, min, max };

// Element-wise maps for transform (the precompiled path; any callable works through the
// generic overloads in parprim/transform.hpp).
enum class unary_op { identity, negate, abs, square };
enum class binary_op { plus, minus, multiply, min, max };

// Reduction variants: the course's ladder and the production kernel.
enum class reduce_algorithm {
  interleaved,  // divergent `tid % (2*stride) == 0` tree in shared memory
  contiguous,   // sequential addressing: the "better reduction kernel"
  production,   // warp shuffles, 16-byte loads, many elements per thread (the default)
};

// Scan variants: the course's ladder and the production single-pass scan.
enum class scan_algorithm {
  hillis_steele,           // naive, double-buffered, O(n log n) work
  blelloch,                // work-efficient up-sweep / down-sweep
  blelloch_conflict_free,  // Blelloch with the tutorial's bank-conflict-free padding
  decoupled_lookback,      // single pass, Merrill & Garland (the default)
};

const char* to_string(op o) noexcept;
const char* to_string(unary_op o) noexcept;
const char* to_string(binary_op o) noexcept;
const char* to_string(reduce_algorithm a) noexcept;
const char* to_string(scan_algorithm a) noexcept;

}  // namespace parprim
