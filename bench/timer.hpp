// Times one run of a function on a CUDA context's stream with a pair of events.
#pragma once

#include <functional>

#include "parprim/context.hpp"

namespace parprim::bench {

class device_timer {
 public:
  explicit device_timer(const context& ctx);
  ~device_timer();
  device_timer(const device_timer&) = delete;
  device_timer& operator=(const device_timer&) = delete;
  double time_ms(const std::function<void()>& fn);  // waits for the stop event

 private:
  context ctx_;
  void* start_ = nullptr;
  void* stop_ = nullptr;
};

}  // namespace parprim::bench
