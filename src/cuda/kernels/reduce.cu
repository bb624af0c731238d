// reduce_into on the GPU: dispatch to the course's kernels (interleaved, contiguous) or the
// production kernel (the generic body of parprim/cuda/reduce.cuh with the library's op
// functors). Every variant leaves the result in device memory without any host
// synchronization and works for any n, including 0 (the op's identity) and n > 2^31.
#include <algorithm>

#include "parprim/detail/op_functors.hpp"
#include "parprim/detail/temp_memory.hpp"
#include "cuda/cuda_backend.hpp"
#include "parprim/cuda/detail/launch.cuh"
#include "parprim/reduce.hpp"
#include "cuda/kernels/reduce_textbook.cuh"
#include "parprim/cuda/tuning/reduce_tuning.hpp"
#include "parprim/types.hpp"

namespace parprim::cuda_kernels {

namespace {

constexpr const char* who = "reduce";

// ---- Course variants: one launch per level; level k reduces blocks of 2 * Threads values
// of level k-1 until a single block writes the result. Scratch: two ping-pong arrays.
template <class T, class Op>
void reduce_textbook(const context& ctx, const T* in, std::int64_t n, T* out, bool interleaved,
                     workspace* ws) {
  using tuning = cuda_tuning::reduce_textbook_tuning;
  constexpr int threads = tuning::threads;
  constexpr std::int64_t per_block = tuning::items_per_block;
  const std::int64_t level1 = ceil_div(n, per_block);
  const std::int64_t level2 = ceil_div(level1, per_block);
  const std::size_t a_bytes = level1 > 1 ? detail::align_up(level1 * sizeof(T)) : 0;
  const std::size_t b_bytes = level2 > 1 ? detail::align_up(level2 * sizeof(T)) : 0;
  detail::temp_memory scratch(ctx, ws, a_bytes + b_bytes);
  T* ping = scratch.as<T>();
  T* pong = reinterpret_cast<T*>(static_cast<unsigned char*>(scratch.get()) + a_bytes);

  auto kernel = interleaved ? reduce_interleaved_kernel<T, Op, threads>
                            : reduce_contiguous_kernel<T, Op, threads>;
  const T* src = in;
  std::int64_t count = n;
  T* dst = ping;
  for (;;) {
    const std::int64_t blocks = std::max<std::int64_t>(1, ceil_div(count, per_block));
    T* target = blocks == 1 ? out : dst;
    kernel<<<static_cast<unsigned>(blocks), threads, 0, stream_of(ctx)>>>(src, count, target);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    if (blocks == 1) return;
    src = dst;
    count = blocks;
    dst = dst == ping ? pong : ping;
  }
}

}  // namespace

}  // namespace parprim::cuda_kernels

namespace parprim::cuda_backend {

template <class T>
void reduce_into(const context& ctx, span<const T> in, T* out_device, op o, reduce_algorithm alg,
                 workspace* ws) {
  using namespace cuda_kernels;
  use_device(ctx, who);
  detail::with_op<T>(o, [&](auto f) {
    using Op = decltype(f);
    switch (alg) {
      case reduce_algorithm::interleaved:
        return reduce_textbook<T, Op>(ctx, in.data(), in.size(), out_device, true, ws);
      case reduce_algorithm::contiguous:
        return reduce_textbook<T, Op>(ctx, in.data(), in.size(), out_device, false, ws);
      case reduce_algorithm::production:
      default:
        return cuda_kernels::reduce_into(ctx, in.data(), in.size(), out_device, Op::identity(),
                                          detail::identity_map{}, Op{}, ws, who);
    }
  });
}

#define PARPRIM_INSTANTIATE(T) \
  template void reduce_into<T>(const context&, span<const T>, T*, op, reduce_algorithm, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
