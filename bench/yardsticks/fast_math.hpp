// The cost and gain of fast-math intrinsics, on the ray tracer's shading arithmetic.
//
// Not a yardstick of another library, but bench-only CUDA code, kept beside them. Each
// thread shades one surface point lit by 64 point lights (normalize, Lambert, distance
// attenuation and exponential fog), once with the precise operations (1.0f / sqrtf, '/',
// expf) and once with the intrinsics (rsqrtf, __fdividef, __expf).
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace parprim::bench::yardstick {

struct fast_math_result {
  double precise_ms = 0;
  double fast_ms = 0;
  double max_rel_error = 0;   // max over points of |fast - precise| / |precise|
  double mean_rel_error = 0;
  double lights_per_point = 0;
};

fast_math_result fast_math_shading(session& s, std::int64_t points);

}  // namespace parprim::bench::yardstick
