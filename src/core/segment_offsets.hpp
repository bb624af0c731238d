// The check of segment offsets shared by the front ends that take them (segmented.cpp,
// top_k.cpp): non-decreasing and inside [0, n]; also the longest segment's length. Offsets
// live on the context's backend; CUDA checks them with a kernel and waits for the verdict.
#pragma once

#include <cstdint>
#include <string>

#include "parprim/detail/segmented.hpp"
#include "parprim/detail/validate.hpp"
#include "parprim/span.hpp"
#if PARPRIM_HAVE_CUDA
#include "cuda/runs_backend.hpp"
#endif

namespace parprim::detail {

inline covered check_offsets(const checker& c, span<const std::int64_t> offsets, std::int64_t n) {
  c.valid(offsets, "offsets");
  if (offsets.size() < 1) c.fail("offsets.size()=0 but must be segments + 1 >= 1");
  const std::int64_t segments = offsets.size() - 1;
  std::int64_t bad = -1, first = 0, last = 0, longest = 0;
#if PARPRIM_HAVE_CUDA
  if (c.ctx().kind() == backend::cuda) {
    auto v = cuda_backend::check_offsets(c.ctx(), offsets.data(), segments, n);
    bad = v.bad;
    first = v.first;
    last = v.last;
    longest = v.longest;
  }
#endif
  if (c.ctx().kind() == backend::cpu) {
    const std::int64_t* o = offsets.data();
    for (std::int64_t s = 0; s <= segments && bad < 0; ++s) {
      if (o[s] < 0 || o[s] > n || (s < segments && o[s + 1] < o[s])) bad = s;
      else if (s < segments && o[s + 1] - o[s] > longest) longest = o[s + 1] - o[s];
    }
    first = o[0];
    last = o[segments];
  }
  if (bad >= 0)
    c.fail("offsets[" + std::to_string(bad) + "] or offsets[" + std::to_string(bad + 1) +
           "] is outside [0, " + std::to_string(n) + "] or the offsets decrease there");
  return {first, last, longest};
}

}  // namespace parprim::detail
