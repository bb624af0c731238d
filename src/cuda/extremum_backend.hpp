// The CUDA backend's argmin and argmax (src/cuda/kernels/extremum.cu), plain C++ for the front
// end: in is checked and not empty; value_out and index_out are one device word each.
// Stream-ordered, no host synchronization.
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/span.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_backend {

template <class T>
void find_extremum(const context& ctx, span<const T> in, bool largest, T* value_out,
                   std::int64_t* index_out, workspace* ws);

}  // namespace parprim::cuda_backend
