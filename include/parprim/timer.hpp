// The library's one stream timer, for the benchmark, the applications and the library's own
// calibrations: the time that work queued on a context takes.
//
//   stream_timer timer(ctx);
//   double ms = timer.time_ms([&] { parprim::exclusive_scan(ctx, in, out); });
//
// On a CUDA context it records a CUDA event before and after the work on the context's
// stream and waits for the second one (device time, launch gaps included, the host's own
// overhead before the first launch excluded). On the CPU backend it reads the host's steady
// clock around the work. Errors of the event calls are parprim::error naming `who`.
#pragma once

#include <chrono>

#include "parprim/context.hpp"

namespace parprim {

class stream_timer {
 public:
  explicit stream_timer(const context& ctx, const char* who = "stream_timer");
  ~stream_timer();
  stream_timer(const stream_timer&) = delete;
  stream_timer& operator=(const stream_timer&) = delete;

  void start();
  // Milliseconds since start(); waits for the work queued since then.
  double stop_ms();

  template <class F>
  double time_ms(F&& fn) {
    start();
    fn();
    return stop_ms();
  }

 private:
  context ctx_;
  const char* who_;
  void* start_event_ = nullptr;  // cudaEvent_t on a CUDA context
  void* stop_event_ = nullptr;
  std::chrono::steady_clock::time_point host_start_{};
};

}  // namespace parprim
