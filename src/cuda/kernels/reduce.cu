// reduce_into on the GPU: dispatch to the course's kernels (interleaved, contiguous) or the
// production kernel. Every variant leaves the result in device memory without any host
// synchronization and works for any n, including 0 (the op's identity) and n > 2^31.
#include <algorithm>

#include "core/op_functors.hpp"
#include "core/temp_memory.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/kernels/launch.cuh"
#include "cuda/kernels/reduce_production.cuh"
#include "cuda/kernels/reduce_textbook.cuh"
#include "cuda/tuning/reduce_tuning.hpp"
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

// ---- Production: pass 1 over G blocks (G from n alone), pass 2 folds the G partials.
template <class T, class Op>
void reduce_production(const context& ctx, const T* in, std::int64_t n, T* out, workspace* ws) {
  using tuning = cuda_tuning::reduce_production_tuning;
  constexpr int threads = tuning::threads;
  constexpr int vectors = tuning::vectors_per_thread;
  using chunk = reduce_chunk<T, Op, threads, vectors>;
  const std::int64_t chunks = ceil_div(n, chunk::items);
  const int blocks = static_cast<int>(std::clamp<std::int64_t>(chunks, 1, tuning::max_blocks));
  const bool vectorized = cuda_prim::aligned16(in);
  if (blocks == 1) {
    reduce_production_kernel<T, Op, threads, vectors>
        <<<1, threads, 0, stream_of(ctx)>>>(in, n, out, vectorized);
    PARPRIM_LAUNCH_CHECK(ctx.state(), who);
    return;
  }
  detail::temp_memory partial(ctx, ws, detail::align_up(blocks * sizeof(T)));
  reduce_production_kernel<T, Op, threads, vectors>
      <<<blocks, threads, 0, stream_of(ctx)>>>(in, n, partial.as<T>(), vectorized);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
  reduce_partials_kernel<T, Op, tuning::final_threads>
      <<<1, tuning::final_threads, 0, stream_of(ctx)>>>(partial.as<T>(), blocks, out);
  PARPRIM_LAUNCH_CHECK(ctx.state(), who);
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
        return reduce_production<T, Op>(ctx, in.data(), in.size(), out_device, ws);
    }
  });
}

#define PARPRIM_INSTANTIATE(T) \
  template void reduce_into<T>(const context&, span<const T>, T*, op, reduce_algorithm, workspace*);
PARPRIM_FOR_EACH_TYPE(PARPRIM_INSTANTIATE)
#undef PARPRIM_INSTANTIATE

}  // namespace parprim::cuda_backend
