// Precompiled CUDA dispatch of unique, unique_by_key, unique_count and run_length_encode:
// the heads and lengths kinds of parprim/cuda/by_key.cuh (copy_if's single-pass compaction
// selecting run heads; run_length_encode also writes the lengths) with ==. Values are only
// copied, so they travel as u32 or u64 words (unique and unique_count pass none): 8 kernels,
// and per key type one for the lengths, 12 in all, plus the lengths' fix-up kernel.
#include "cuda/runs_backend.hpp"
#include "parprim/by_key.hpp"
#include "parprim/cuda/by_key.cuh"
#include "parprim/detail/op_functors.hpp"

namespace parprim::cuda_backend {

template <class K, class V>
std::int64_t heads_by_key(const context& ctx, const detail::runs_io<K, V>& io, workspace* ws) {
  return cuda_kernels::by_key::runs<detail::runs_kind::heads>(ctx, io, equal_to{},
                                                              detail::no_fold{}, ws, "unique");
}

template <class K>
std::int64_t lengths_by_key(const context& ctx, const detail::runs_io<K, std::int64_t>& io,
                            workspace* ws) {
  return cuda_kernels::by_key::runs<detail::runs_kind::lengths>(
      ctx, io, equal_to{}, detail::plus_op<std::int64_t>{}, ws, "run_length_encode");
}

#define PARPRIM_INSTANTIATE_KV(K, V) \
  template std::int64_t heads_by_key<K, V>(const context&, const detail::runs_io<K, V>&, workspace*);
#define PARPRIM_INSTANTIATE(K)             \
  PARPRIM_INSTANTIATE_KV(K, std::uint32_t) \
  PARPRIM_INSTANTIATE_KV(K, std::uint64_t) \
  template std::int64_t lengths_by_key<K>(const context&,                            \
                                          const detail::runs_io<K, std::int64_t>&, workspace*);
PARPRIM_INSTANTIATE(std::uint32_t)
PARPRIM_INSTANTIATE(std::uint64_t)
PARPRIM_INSTANTIATE(float)
PARPRIM_INSTANTIATE(double)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim::cuda_backend
