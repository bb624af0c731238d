// libFuzzer target: the N-body body-file parser on any bytes, and the frame renderer on what
// it accepts (body files are user data that reaches the camera and the colour lookup).
// Accepted bodies are finite with non-negative masses; anything else is a parprim::error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "nbody/initial_conditions.hpp"
#include "nbody/render.hpp"
#include "parprim/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  parprim::nbody::body_set<double> b;
  try {
    b = parprim::nbody::parse_bodies_csv(in, "fuzz.csv", 4096);
  } catch (const parprim::error& e) {
    if (e.code() != parprim::errc::invalid_argument) __builtin_trap();
    return 0;
  }
  if (b.size() < 1 || b.size() > 4096) __builtin_trap();
  for (std::size_t i = 0; i < b.mass.size(); ++i) {
    const double v[7] = {b.mass[i], b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i]};
    for (double x : v)
      if (!std::isfinite(x)) __builtin_trap();
    if (b.mass[i] < 0) __builtin_trap();
  }
  const auto cam = parprim::nbody::frame_camera(b, 16);
  if (parprim::nbody::render_frame(b, cam, 16).size() != 16 * 16 * 3) __builtin_trap();
  const auto f = b.as<float>();
  const auto fcam = parprim::nbody::frame_camera(f, 16);
  if (parprim::nbody::render_frame(f, fcam, 16).size() != 16 * 16 * 3) __builtin_trap();
  return 0;
}
