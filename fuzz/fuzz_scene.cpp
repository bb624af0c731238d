// libFuzzer target: the ray tracer's scene parser on any bytes, and a small CPU render of
// every scene it accepts (scene files are user data that reaches the shading arithmetic).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "parprim/context.hpp"
#include "parprim/error.hpp"
#include "raytrace/render.hpp"
#include "raytrace/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  parprim::raytrace::scene s;
  try {
    s = parprim::raytrace::parse_scene(in, "fuzz.scene");
  } catch (const parprim::error& e) {
    if (e.code() != parprim::errc::invalid_argument) __builtin_trap();
    return 0;
  }
  if (s.spheres.size() > 64) return 0;  // rendering cost grows with the count; parsing was the test
  static const parprim::context cpu = parprim::context::cpu(1);
  parprim::raytrace::renderer r(cpu, s, 8, 6, parprim::raytrace::sphere_memory::automatic);
  r.time_frames(1);
  if (r.image().size() != 8 * 6 * 3) __builtin_trap();
  return 0;
}
