// The CUDA backend's entry points, in plain C++ so that the front ends (compiled by the host
// compiler) can call them. Defined in src/cuda/kernels/*.cu. All calls are stream-ordered.
#pragma once

#include "parprim/context.hpp"
#include "parprim/detail/scan_kind.hpp"
#include "parprim/ops.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

template <class T>
void transform(const context& ctx, span<const T> in, span<T> out, unary_op f);
template <class T>
void transform(const context& ctx, span<const T> a, span<const T> b, span<T> out, binary_op f);

// Writes the reduction to out_device[0] (device memory), no host synchronization.
template <class T>
void reduce_into(const context& ctx, span<const T> in, T* out_device, op o, reduce_algorithm alg,
                 workspace* ws);

template <class T>
void scan(const context& ctx, span<const T> in, span<T> out, op o, detail::scan_kind kind, T init,
          scan_algorithm alg, workspace* ws);

}  // namespace parprim::cuda_backend
