// dot: the inner product sum_i x[i] * y[i] of two equally long vectors (f32 and f64).
//
// Empty vectors give 0. Results are bitwise reproducible: the order in which products are
// summed depends only on n and the algorithm, never on timing or on the number of threads.
// Floats are accumulated in their own type (as BLAS does); the error is bounded by a few
// units in the last place times sum_i |x[i] * y[i]| (see tests/test_dot.cpp for the bound).
#pragma once

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

enum class dot_algorithm {
  shared_memory,  // the course's kernel: one product per thread, shared-memory tree per block
  production,     // products fused into a vectorized warp-shuffle reduction (the default)
};
const char* to_string(dot_algorithm a) noexcept;

// Returns the result to the host (waits for the device).
template <class T>
T dot(const context& ctx, span<const T> x, span<const T> y,
      dot_algorithm alg = dot_algorithm::production, workspace* ws = nullptr);

// Leaves the result in out[0] on the backend; stream-ordered, no host synchronization.
template <class T>
void dot_into(const context& ctx, span<const T> x, span<const T> y, span<T> out,
              dot_algorithm alg = dot_algorithm::production, workspace* ws = nullptr);

}  // namespace parprim
