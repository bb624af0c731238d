// CUDA entry point of the segmented primitives' runs jobs (flags or offsets as the head
// source; src/cuda/kernels/segmented.cu): the scans run the single-pass by-key scan on head
// flags, segmented_reduce its per-segment paths or the two-pass runs engine
// (parprim/cuda/segmented.cuh).
#include "cuda/runs_backend.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

template <class V>
void runs_by_segments(const context& ctx, const detail::runs_job<std::uint32_t, V>& job,
                              workspace* ws);

template <class K, class V>
void runs(const context& ctx, const detail::runs_job<K, V>& job, workspace* ws) {
  runs_by_segments(ctx, job, ws);
}

#define PARPRIM_INSTANTIATE(V) \
  template void runs<std::uint32_t, V>(const context&, const detail::runs_job<std::uint32_t, V>&, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
