// How close a system's forces are to the exact sums: `parprim nbody --accuracy` and the tests.
// The exact accelerations of a sample of bodies are summed over all bodies in double precision
// on the host; each sampled body's error is |a - a_exact| / |a_exact|.
#pragma once

#include <cstdint>
#include <vector>

#include "body_system.hpp"

namespace parprim::nbody {

struct force_error {
  std::int64_t sample = 0;  // bodies compared (those with a_exact != 0)
  double median = 0, rms = 0, p99 = 0, max = 0;
};

// `sample` bodies spread evenly over the caller's order (all of them when sample >= n).
std::vector<std::int64_t> even_sample(std::int64_t n, std::int64_t sample);

// The error statistics of `system`'s accelerations over the sampled bodies.
template <class T>
force_error measure_force_error(body_system<T>& system, const std::vector<std::int64_t>& sample);

}  // namespace parprim::nbody
