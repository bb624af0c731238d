// The scan entry points of the kernel files, called by cuda_backend::scan (scan.cu).
#pragma once

#include <cstdint>

#include "parprim/context.hpp"
#include "parprim/detail/scan_kind.hpp"
#include "parprim/ops.hpp"
#include "parprim/workspace.hpp"

namespace parprim::cuda_kernels {

// The course's scans (hillis_steele, blelloch, blelloch_conflict_free) extended to any n with
// the three phases of the tutorial. Defined in scan_textbook.cu.
template <class T>
void scan_textbook(const context& ctx, const T* in, T* out, std::int64_t n, op o,
                   detail::scan_kind kind, T init, scan_algorithm alg, workspace* ws);

}  // namespace parprim::cuda_kernels
