// Precompiled CUDA dispatch of reduce_by_key and inclusive/exclusive_scan_by_key: the
// single-pass body of parprim/cuda/by_key.cuh with == and the library's operators
// (run_length_encode runs on unique's compaction, unique.cu). op::plus, the common case,
// folds with the compile-time operator; min and max share one kernel per key and value type pair, chosen
// at run time. Per key type and kind that is 6 min/max kernels and 4 plus kernels (signed
// integers add as their unsigned type: wrap_add gives the same bits), 80 in all; plus the
// segmented scans' entry (scan_by_heads: u8 head flags as keys, scan kind only), 10 more.
#include <type_traits>

#include "cuda/runs_backend.hpp"
#include "parprim/by_key.hpp"
#include "parprim/cuda/by_key.cuh"
#include "parprim/cuda/segmented_scan.cuh"
#include "parprim/detail/op_functors.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

namespace {
// min or max, picked per combine by a uniform flag: both are computed and one selected, so
// the fold stays free of branches.
template <class V>
struct min_or_max {
  bool min;
  __device__ __forceinline__ V operator()(V a, V b) const {
    const V lo = detail::min_op<V>{}(a, b);
    const V hi = detail::max_op<V>{}(a, b);
    return min ? lo : hi;
  }
};

// The type whose kernel adds values of type V.
template <class V, bool = std::is_integral_v<V>>
struct plus_word {
  using type = V;
};
template <class V>
struct plus_word<V, true> {
  using type = std::make_unsigned_t<V>;
};
template <class V>
using plus_word_t = typename plus_word<V>::type;

}  // namespace

template <detail::runs_kind Kind, class K, class V>
std::int64_t runs_by_key(const context& ctx, const detail::runs_io<K, V>& io, op o, workspace* ws) {
  using W = plus_word_t<V>;
  if (o == op::plus)
    return cuda_kernels::by_key::runs<Kind>(ctx, detail::revalue<W>(io), equal_to{},
                                            detail::plus_op<W>{}, ws, "runs_by_key");
  return cuda_kernels::by_key::runs<Kind>(ctx, io, equal_to{}, min_or_max<V>{o == op::min}, ws,
                                          "runs_by_key");
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

template <class V>
void scan_by_heads(const context& ctx, const detail::runs_io<std::uint8_t, V>& io, op o,
                   workspace* ws) {
  constexpr auto scan = detail::runs_kind::scan;
  using heads_eq = cuda_kernels::segmented_scan::continues_segment;
  using W = plus_word_t<V>;
  if (o == op::plus)
    cuda_kernels::by_key::runs<scan>(ctx, detail::revalue<W>(io), heads_eq{},
                                     detail::plus_op<W>{}, ws, "segmented_scan");
  else
    cuda_kernels::by_key::runs<scan>(ctx, io, heads_eq{}, min_or_max<V>{o == op::min},
                                     ws, "segmented_scan");
}

#define PARPRIM_INSTANTIATE(V)                                                            \
  template void scan_by_heads<V>(const context&, const detail::runs_io<std::uint8_t, V>&, op, \
                                 workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
