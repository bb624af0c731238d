// Times a CUB device-wide call the way its fastest users run it: the two-phase temp-storage
// query and allocation happen once, outside the timed region; only the real call is timed.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>

#include "parprim/cuda/detail/check.hpp"
#include "engine.hpp"
#include "parprim/buffer.hpp"

namespace parprim::bench::yardstick {

// call(temp, bytes, stream) forwards to the CUB function (temp == nullptr: size query).
template <class Call>
double time_cub(session& s, const char* what, Call call) {
  auto stream = static_cast<cudaStream_t>(s.ctx().stream());
  std::size_t bytes = 0;
  PARPRIM_CUDA_CHECK(s.ctx().name(), what, call(nullptr, bytes, stream));
  buffer<unsigned char> temp(s.ctx(), static_cast<std::int64_t>(std::max<std::size_t>(bytes, 1)));
  void* p = temp.data();
  return s.time_ms([&] { PARPRIM_CUDA_CHECK(s.ctx().name(), what, call(p, bytes, stream)); });
}

}  // namespace parprim::bench::yardstick
