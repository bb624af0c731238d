// Prefix scans.
//   inclusive: out[i] = in[0] op ... op in[i]
//   exclusive: out[0] = init, out[i] = init op in[0] op ... op in[i-1]
// `out` may alias `in` exactly (in place); partial overlap is rejected. Stream-ordered on
// CUDA. Float results are bitwise reproducible from run to run.
#pragma once

#include "parprim/context.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim {

template <class T>
void inclusive_scan(const context& ctx, span<const T> in, span<T> out, op o = op::plus,
                    scan_algorithm alg = scan_algorithm::decoupled_lookback,
                    workspace* ws = nullptr);

template <class T>
void exclusive_scan(const context& ctx, span<const T> in, span<T> out, T init = T{},
                    op o = op::plus, scan_algorithm alg = scan_algorithm::decoupled_lookback,
                    workspace* ws = nullptr);

}  // namespace parprim
