// CUDA dispatch of the runs engine with keys as the head source: reduce_by_key, the scans by
// key, unique, unique_by_key, unique_count and run_length_encode. Flags and offsets (the
// segmented primitives) are in segmented.cu.
#include "cuda/kernels/runs_launch.cuh"
#include "cuda/runs_backend.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

template <class V>
std::int64_t runs_by_segments(const context& ctx, const detail::runs_job<std::uint32_t, V>& job,
                              workspace* ws);

template <class K, class V>
std::int64_t runs(const context& ctx, const detail::runs_job<K, V>& job, workspace* ws) {
  using namespace cuda_kernels::runs;
  // Jobs without keys (flags, offsets) always arrive with K = u32 (src/core/segmented.cpp).
  if constexpr (std::is_same_v<K, std::uint32_t>)
    if (!job.keys) return runs_by_segments(ctx, job, ws);
  return launch<head_source::keys>(ctx, job, equal_to<K>{}, runtime_op<V>{job.o}, ws, "runs");
}

#define PARPRIM_INSTANTIATE_KV(K, V) \
  template std::int64_t runs<K, V>(const context&, const detail::runs_job<K, V>&, workspace*);
#define PARPRIM_INSTANTIATE(V)             \
  PARPRIM_INSTANTIATE_KV(std::uint32_t, V) \
  PARPRIM_INSTANTIATE_KV(std::uint64_t, V) \
  PARPRIM_INSTANTIATE_KV(float, V)         \
  PARPRIM_INSTANTIATE_KV(double, V)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim::cuda_backend
