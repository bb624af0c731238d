// CUDA-event timing for benchmarks (host clock fallback in CPU-only builds).
#include "timer.hpp"

#include <chrono>

#if PARPRIM_HAVE_CUDA
#include <cuda_runtime_api.h>

#include "parprim/cuda/detail/check.hpp"
#endif

namespace parprim::bench {

#if PARPRIM_HAVE_CUDA
device_timer::device_timer(const context& ctx) : ctx_(ctx) {
  cudaEvent_t a, b;
  PARPRIM_CUDA_CHECK(ctx.name(), "bench", cudaEventCreate(&a));
  PARPRIM_CUDA_CHECK(ctx.name(), "bench", cudaEventCreate(&b));
  start_ = a;
  stop_ = b;
}

device_timer::~device_timer() {
  cudaEventDestroy(static_cast<cudaEvent_t>(start_));
  cudaEventDestroy(static_cast<cudaEvent_t>(stop_));
}

double device_timer::time_ms(const std::function<void()>& fn) {
  auto s = static_cast<cudaStream_t>(ctx_.stream());
  PARPRIM_CUDA_CHECK(ctx_.name(), "bench", cudaEventRecord(static_cast<cudaEvent_t>(start_), s));
  fn();
  PARPRIM_CUDA_CHECK(ctx_.name(), "bench", cudaEventRecord(static_cast<cudaEvent_t>(stop_), s));
  PARPRIM_CUDA_CHECK(ctx_.name(), "bench", cudaEventSynchronize(static_cast<cudaEvent_t>(stop_)));
  float ms = 0;
  PARPRIM_CUDA_CHECK(ctx_.name(), "bench",
                     cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start_),
                                          static_cast<cudaEvent_t>(stop_)));
  return ms;
}
#else
device_timer::device_timer(const context& ctx) : ctx_(ctx) {}
device_timer::~device_timer() = default;
double device_timer::time_ms(const std::function<void()>& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  ctx_.synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}
#endif

}  // namespace parprim::bench
