// Precompiled CUDA dispatch of reduce_by_key, inclusive/exclusive_scan_by_key and
// run_length_encode: the single-pass body of parprim/cuda/by_key.cuh with == and the
// library's operators, chosen at run time (one uniform branch per combine) so that each key
// and value type pair compiles one kernel per kind, not three.
#include "cuda/runs_backend.hpp"
#include "parprim/by_key.hpp"
#include "parprim/cuda/by_key.cuh"
#include "parprim/detail/op_functors.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

namespace {
template <class V>
struct runtime_op {
  op o;
  __device__ __forceinline__ V operator()(V a, V b) const {
    switch (o) {
      case op::min: return detail::min_op<V>{}(a, b);
      case op::max: return detail::max_op<V>{}(a, b);
      default: return detail::plus_op<V>{}(a, b);
    }
  }
};
}  // namespace

template <detail::runs_kind Kind, class K, class V>
std::int64_t runs_by_key(const context& ctx, const detail::runs_io<K, V>& io, op o, workspace* ws) {
  return cuda_kernels::by_key::runs<Kind>(ctx, io, equal_to{}, runtime_op<V>{o}, ws, "runs_by_key");
}

#define PARPRIM_INSTANTIATE_KV(K, V)                                                       \
  template std::int64_t runs_by_key<detail::runs_kind::reduce, K, V>(                      \
      const context&, const detail::runs_io<K, V>&, op, workspace*);                       \
  template std::int64_t runs_by_key<detail::runs_kind::scan, K, V>(                        \
      const context&, const detail::runs_io<K, V>&, op, workspace*);
#define PARPRIM_INSTANTIATE(V)             \
  PARPRIM_INSTANTIATE_KV(std::uint32_t, V) \
  PARPRIM_INSTANTIATE_KV(std::uint64_t, V) \
  PARPRIM_INSTANTIATE_KV(float, V)         \
  PARPRIM_INSTANTIATE_KV(double, V)
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE
#undef PARPRIM_INSTANTIATE_KV

}  // namespace parprim::cuda_backend
