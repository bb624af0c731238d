// reduce: the op-sum of all elements. Empty input gives op's identity (0, max, lowest).
//
// Results are bitwise reproducible: the order in which elements are combined depends only on
// n and the algorithm, never on timing or on the number of threads.
#pragma once

#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

// Returns the result to the host (waits for the device).
template <class T>
T reduce(const context& ctx, span<const T> in, op o = op::plus,
         reduce_algorithm alg = reduce_algorithm::production, workspace* ws = nullptr);

// Leaves the result in out[0] on the backend; stream-ordered, no host synchronization.
template <class T>
void reduce_into(const context& ctx, span<const T> in, span<T> out, op o = op::plus,
                 reduce_algorithm alg = reduce_algorithm::production, workspace* ws = nullptr);

}  // namespace parprim
