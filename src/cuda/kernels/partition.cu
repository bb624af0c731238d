// copy_if and partition on the GPU: the precompiled entry point, the generic body of
// parprim/cuda/partition.cuh instantiated for the library's predicate descriptions.
#include "core/partition_functors.hpp"
#include "cuda/partition_backend.hpp"
#include "parprim/cuda/partition.cuh"
#include "parprim/types.hpp"

namespace parprim::cuda_backend {

namespace {
const char* function_name(detail::select_mode mode) {
  switch (mode) {
    case detail::select_mode::compact: return "copy_if";
    case detail::select_mode::stable_partition: return "partition";
    case detail::select_mode::reversed_partition: return "unstable_partition";
  }
  return "select";
}
}  // namespace

template <class T>
void select(const context& ctx, span<const T> in, span<T> out, detail::predicate_eval<T> pred,
            detail::select_mode mode, std::int64_t* count_device, workspace* ws) {
  cuda_kernels::select(ctx, in, out, pred, mode, count_device, ws, function_name(mode));
}

#define PARPRIM_INSTANTIATE(T)                                                        \
  template void select<T>(const context&, span<const T>, span<T>,                     \
                          detail::predicate_eval<T>, detail::select_mode, std::int64_t*, \
                          workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
