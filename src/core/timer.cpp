// stream_timer: CUDA events on a CUDA context, the host clock on the CPU backend.
#include "parprim/timer.hpp"

#if PARPRIM_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "parprim/cuda/detail/check.hpp"
#endif

namespace parprim {

#if PARPRIM_HAVE_CUDA
namespace {
cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }
cudaStream_t stream(const context& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }
}  // namespace
#endif

stream_timer::stream_timer(const context& ctx, const char* who) : ctx_(ctx), who_(who) {
#if PARPRIM_HAVE_CUDA
  if (ctx_.kind() != backend::cuda) return;
  cudaEvent_t a = nullptr, b = nullptr;
  PARPRIM_CUDA_CHECK(ctx_.name(), who_, cudaEventCreate(&a));
  if (cudaError_t e = cudaEventCreate(&b); e != cudaSuccess) {
    cudaEventDestroy(a);
    PARPRIM_CUDA_CHECK(ctx_.name(), who_, e);
  }
  start_event_ = a;
  stop_event_ = b;
#endif
}

stream_timer::~stream_timer() {
#if PARPRIM_HAVE_CUDA
  if (start_event_) cudaEventDestroy(event(start_event_));
  if (stop_event_) cudaEventDestroy(event(stop_event_));
#endif
}

void stream_timer::start() {
#if PARPRIM_HAVE_CUDA
  if (start_event_) {
    PARPRIM_CUDA_CHECK(ctx_.name(), who_, cudaEventRecord(event(start_event_), stream(ctx_)));
    return;
  }
#endif
  host_start_ = std::chrono::steady_clock::now();
}

double stream_timer::stop_ms() {
#if PARPRIM_HAVE_CUDA
  if (stop_event_) {
    PARPRIM_CUDA_CHECK(ctx_.name(), who_, cudaEventRecord(event(stop_event_), stream(ctx_)));
    PARPRIM_CUDA_CHECK(ctx_.name(), who_, cudaEventSynchronize(event(stop_event_)));
    float ms = 0;
    PARPRIM_CUDA_CHECK(ctx_.name(), who_,
                       cudaEventElapsedTime(&ms, event(start_event_), event(stop_event_)));
    return ms;
  }
#endif
  ctx_.synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start_)
      .count();
}

}  // namespace parprim
